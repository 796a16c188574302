// What `delve ui` shows of a thread, read from its checkpoint history (getStateHistory):
// steps with the messages each added, usage and cost per step, and the status of its end.
import type { SubagentFileCall, TaskArtifact } from "../subagents/file-calls.js";
import { costUsd, type ModelPrice, resolvePrice } from "./prices.js";
import { contentText } from "./stream-events.js";
import type { ThreadRunner } from "./threads-db.js";
import { readUsage, type UsageRecord } from "./usage.js";

/** A thread's status as the viewer shows it. */
export type ViewStatus = "completed" | "paused" | "failed" | "running";

/** One message as the page renders it. */
export interface MessageView {
  id: string;
  role: string;
  text: string;
  tool_calls?: Array<{ id: string; name: string; args: unknown }>;
  /** For a tool result: the call it answers, the tool, success or error. */
  tool_call_id?: string;
  name?: string;
  status?: "success" | "error";
  /** For a `task` result: the subagent run it answers, nested under the call. */
  subagent?: SubagentRun;
  /** For a `task` result: the subagent's successful write_file / edit_file calls, in order. */
  file_calls?: SubagentFileCall[];
}

/**
 * A subagent run as its parent's checkpoints hold it: the task it was given, its model calls
 * (the usage records it reported, named after it) and, in the result's text, its answer.
 */
export interface SubagentRun {
  name: string;
  description: string;
  calls: UsageView[];
}

/** One model call's tokens and cost. */
export interface UsageView {
  model: string;
  agent: string;
  input: number;
  output: number;
  cost_usd: number | null;
}

/** One checkpoint of the thread and what it added. */
export interface StepView {
  checkpoint_id: string;
  parent_id: string | null;
  step: number;
  source: string;
  created_at: string;
  /** Time since the previous checkpoint (the model call or tools of this step). */
  duration_ms: number | null;
  messages: MessageView[];
  usage: UsageView[];
}

/** A thread's figures for the list and the header. */
export interface ThreadSummary {
  status: ViewStatus;
  turns: number;
  tokens: { input: number; output: number };
  cost_usd: number | null;
  steps: number;
  error?: string;
}

/** A LangGraph state snapshot, loosely typed (only what the viewer reads). */
export type Snapshot = {
  values?: any;
  next?: string[];
  tasks?: Array<{ interrupts?: unknown[]; error?: unknown }>;
  config?: any;
  parentConfig?: any;
  metadata?: any;
  createdAt?: string;
};

const checkpointOf = (s: Snapshot | undefined): string =>
  String(s?.config?.configurable?.checkpoint_id ?? "");

/**
 * The thread's line of snapshots, oldest first: the newest one and its ancestors by parent
 * link. A rewound thread keeps the checkpoints of the turns it undid (another branch), which
 * are left out.
 */
export async function readHistory(history: AsyncIterable<Snapshot>): Promise<Snapshot[]> {
  const byId = new Map<string, Snapshot>();
  let head: Snapshot | undefined;
  for await (const s of history) {
    byId.set(checkpointOf(s), s);
    head ??= s; // Newest first: the first is the one the thread continues from.
  }
  const line: Snapshot[] = [];
  const parentOf = (s: Snapshot) => String(s.parentConfig?.configurable?.checkpoint_id ?? "");
  for (let s = head; s && line.length < byId.size; s = byId.get(parentOf(s))) line.push(s);
  return line.reverse();
}

/** One message of the state, as the page shows it. */
export function messageView(m: any): MessageView {
  const role = m?.getType?.() ?? m?.type ?? "unknown";
  const view: MessageView = { id: String(m?.id ?? ""), role, text: contentText(m?.content) };
  if (m?.tool_calls?.length) {
    view.tool_calls = m.tool_calls.map((c: any) => ({
      id: c.id ?? "",
      name: c.name,
      args: c.args,
    }));
  }
  if (role === "tool") {
    view.tool_call_id = String(m.tool_call_id ?? "");
    view.name = String(m.name ?? "");
    view.status = m.status === "error" ? "error" : "success";
    const fileCalls = (m.artifact as TaskArtifact | undefined)?.file_calls;
    if (Array.isArray(fileCalls) && fileCalls.length) view.file_calls = fileCalls;
  }
  return view;
}

/** The cost of one record: a model without a provider prefix is priced as the thread's model. */
export function usageView(
  r: UsageRecord,
  threadModel: string,
  prices?: Record<string, ModelPrice>,
): UsageView {
  const model = r.model.includes(":") ? r.model : threadModel;
  const cost = costUsd(r, resolvePrice(model, prices));
  return {
    model: r.model,
    agent: r.agent,
    input: r.input,
    output: r.output,
    cost_usd: cost ?? null,
  };
}

/** The steps of a thread: each checkpoint with the messages and usage it added. */
export function stepsOf(
  snapshots: Snapshot[],
  threadModel: string,
  prices?: Record<string, ModelPrice>,
): StepView[] {
  const seen = new Set<string>();
  const calls = new Map<string, { name: string; args: any }>();
  let usageSeen = 0;
  let previous: Snapshot | undefined;
  return snapshots.map((s) => {
    const messages = (s.values?.messages ?? []).filter((m: any) => {
      const key = String(m?.id ?? "");
      if (!key || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const records = readUsage(s.values ?? {});
    const added = records.slice(usageSeen);
    usageSeen = Math.max(usageSeen, records.length);
    const created = s.createdAt ?? "";
    const before = previous?.createdAt;
    previous = s;
    const usage = added.map((r) => usageView(r, threadModel, prices));
    const views = messages.map(messageView);
    nestSubagents(views, usage, calls);
    return {
      checkpoint_id: checkpointOf(s),
      parent_id: s.parentConfig?.configurable?.checkpoint_id ?? null,
      step: Number(s.metadata?.step ?? 0),
      source: String(s.metadata?.source ?? ""),
      created_at: created,
      duration_ms: before && created ? Date.parse(created) - Date.parse(before) : null,
      messages: views,
      usage,
    };
  });
}

/**
 * Gives each `task` result the step's model calls its subagent reported (by the subagent's
 * name; two calls of one subagent in a step share them in order of their results).
 */
export function nestSubagents(
  views: MessageView[],
  usage: UsageView[],
  calls: Map<string, { name: string; args: any }>,
) {
  const taken = new Set<UsageView>();
  for (const v of views) {
    for (const c of v.tool_calls ?? []) calls.set(c.id, { name: c.name, args: c.args });
    if (v.role !== "tool" || v.name !== "task") continue;
    const args = calls.get(v.tool_call_id ?? "")?.args ?? {};
    const name = String(args.subagent_type ?? "");
    const own = usage.filter((u) => u.agent === name && !taken.has(u));
    for (const u of own) taken.add(u);
    v.subagent = { name, description: String(args.description ?? ""), calls: own };
  }
}

/**
 * Whether the process that marked itself as running a thread is still alive on this machine
 * (the engine sets the runner when a run starts and clears it when it ends, also on errors).
 */
export function runnerAlive(runner: ThreadRunner | undefined): boolean {
  if (!runner) return false;
  try {
    process.kill(runner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, owned by another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** What a run left unfinished is told: its process is gone, so nothing will carry it on. */
export const STOPPED_TEXT =
  "the run stopped before its end (its process is gone): delve run -c continues it";

/**
 * The figures of a thread from its steps and its last snapshot; `runnerAlive` says whether a
 * process still runs it, which decides between running and stopped when work is left.
 */
export function summaryOf(
  steps: StepView[],
  last: Snapshot | undefined,
  runnerAlive = false,
): ThreadSummary {
  const tokens = { input: 0, output: 0 };
  let cost: number | null = 0;
  let turns = 0;
  for (const step of steps) {
    for (const u of step.usage) {
      tokens.input += u.input;
      tokens.output += u.output;
      cost = cost === null || u.cost_usd === null ? null : cost + u.cost_usd;
    }
    turns += step.messages.filter((m) => m.role === "ai").length;
  }
  const tasks = last?.tasks ?? [];
  const failed = tasks.find((t) => t.error);
  let status: ViewStatus = "completed";
  let error = failed ? errorText(failed.error) : undefined;
  if (tasks.some((t) => t.interrupts?.length)) status = "paused";
  else if (failed) status = "failed";
  // Work left, no interrupt, no error: running while its process lives; else it was killed.
  else if ((last?.next ?? []).length) {
    status = runnerAlive ? "running" : "failed";
    if (!runnerAlive) error = STOPPED_TEXT;
  }
  return {
    status,
    turns,
    tokens,
    cost_usd: cost,
    steps: steps.length,
    ...(error && status === "failed" ? { error } : {}),
  };
}

function errorText(error: unknown): string {
  if (error && typeof error === "object" && "message" in error) return String(error.message);
  return String(error);
}

/** The first line of a thread's task. */
export function firstLine(title: string): string {
  return (title.split("\n").find((l) => l.trim()) ?? "").trim().slice(0, 200);
}
