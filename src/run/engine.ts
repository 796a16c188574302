import fs from "node:fs";
import path from "node:path";
import { Command, GraphRecursionError, isGraphInterrupt } from "@langchain/langgraph";
import { claimTableOf } from "../claims/claim-table.js";
import { readLimitHit } from "../limits/middleware.js";
import { abortable } from "./abortable.js";
import { buildAgent, defaultMcpFile, mcpServersOf, readMcpFile } from "./build-agent.js";
import { loadConfig } from "./config.js";
import type {
  PendingCall,
  RunDecision,
  RunEvent,
  RunQuestion,
  RunResult,
  RunUsage,
} from "./events.js";
import { type ForkOf, readForkBase, seedFork } from "./fork.js";
import { chooseModel } from "./model-choice.js";
import {
  InvalidDecisionError,
  type Pause,
  readPause,
  resumeOf,
  resumeOne,
  unansweredCalls,
} from "./pause.js";
import type { ModelPrice } from "./prices.js";
import { compileRules } from "./rules.js";
import { AlreadyDecidedError, UnknownThreadError } from "./run-errors.js";
import { LIMIT_TEXT, type RunLimits } from "./run-limits.js";
import { openRunModel } from "./run-model.js";
import type { SessionGraph, ThreadConfig } from "./session-graph.js";
import { resolveSettings, type SettingsFlags } from "./settings.js";
import { snapshotRun } from "./snapshots/turn-log.js";
import { contentText, EventTranslator } from "./stream-events.js";
import { openThreadsDb, type ThreadRow, type ThreadsDb } from "./threads-db.js";
import { readUsage, threadTotals } from "./usage.js";

export {
  AlreadyDecidedError,
  InvalidDecisionError,
  type RunLimits,
  type SessionGraph,
  type ThreadConfig,
  UnknownThreadError,
};

/** What opens a run session. */
export interface SessionOptions extends SettingsFlags {
  workspace: string;
  /** Resume this thread; `continueLatest` resumes the newest of the workspace. */
  threadId?: string;
  continueLatest?: boolean;
  /** A title for a new thread (the task). */
  title?: string;
  prices?: Record<string, ModelPrice>;
  /** Record every model call of this session to this cassette file. */
  record?: string;
  env?: NodeJS.ProcessEnv;
  /** Diagnostics for the user (stderr in the CLI); never part of the event stream. */
  notice?: (line: string) => void;
  /** Open without MCP servers, to read the thread only (pending, show). */
  readOnly?: boolean;
  /** Start a new thread from another one's state at a checkpoint (time travel into a copy). */
  forkOf?: ForkOf;
}

/** One thread opened for running: events out, decisions in. UI-free. */
export interface RunSession {
  readonly thread: ThreadRow;
  readonly resumed: boolean;
  /** The workspace's real path. */
  readonly workspace: string;
  /** The thread's compiled agent (time travel, the surface inspector). */
  readonly agent: SessionGraph;
  /** The LangGraph config of the thread's newest checkpoint. */
  readonly config: ThreadConfig;
  /** The run's model: its "provider:model" string, or a chat model (a cassette's). */
  readonly model: unknown;
  /** Prices over the shipped table: the config's and the session options'. */
  readonly prices: Record<string, ModelPrice> | undefined;
  /** The calls the thread waits on for an approval (empty when it is not paused). */
  pending(): Promise<PendingCall[]>;
  /** The `ask_user` questions the thread waits on (empty when none is asked). */
  questions(): Promise<RunQuestion[]>;
  /** Runs `task` (or, without one, continues from the last checkpoint) to its end. */
  send(task: string | undefined, limits?: RunLimits): AsyncGenerator<RunEvent>;
  /**
   * Claims the current pause for this process: false when another process decided it
   * first. `decide` claims it itself; call this first to tell the user before any event.
   */
  claim(): Promise<boolean>;
  /**
   * Decides the whole pause and runs on to the end: one decision for each pending call, in
   * order, then one `answer` for each question, in order. Throws `InvalidDecisionError`
   * (before claiming) when they do not fit, `AlreadyDecidedError` when another process
   * decided first.
   */
  decide(decisions: RunDecision[], limits?: RunLimits): AsyncGenerator<RunEvent>;
  /**
   * Answers one question of the pause (`call_id` as in `question_required`) and runs on
   * until the run ends or pauses again; the pause's other questions and approvals stay
   * pending. Throws like `decide`.
   */
  answer(
    callId: string,
    answer: Extract<RunDecision, { type: "answer" }>,
    limits?: RunLimits,
  ): AsyncGenerator<RunEvent>;
  /** The thread's messages as role and text (tool calls named), from its state. */
  messages(): Promise<Array<{ role: string; text: string }>>;
  /** Tokens and cost of the whole thread, from its state. */
  totals(): Promise<{ usage: RunUsage; cost_usd: number | null }>;
  /** The thread's checkpoints, newest first (LangGraph's getStateHistory): what `delve ui` reads. */
  history(): AsyncIterable<any>;
  close(): Promise<void>;
}

/** Opens (creating or resuming) a thread of the workspace and builds its agent. */
export async function openSession(options: SessionOptions): Promise<RunSession> {
  const workspace = fs.realpathSync(path.resolve(options.workspace));
  const env = options.env ?? process.env;
  const notice = options.notice ?? (() => {});
  const { config, files: configFiles } = loadConfig({ cwd: workspace, env });
  const rules = compileRules(config.rules ?? {}, "rules");
  const db = await openThreadsDb(workspace);
  try {
    let thread = options.threadId && !options.forkOf ? db.get(options.threadId) : undefined;
    if (options.threadId && !thread) throw new UnknownThreadError(options.threadId);
    if (options.continueLatest && !thread) {
      thread = db.list()[0];
      if (!thread) throw new UnknownThreadError("");
    }
    const resumed = Boolean(thread);
    const settings = resolveSettings(options, thread?.settings, config, workspace, notice, () =>
      chooseModel({ flag: options.model, env, config }),
    );
    if (thread) {
      if (JSON.stringify(thread.settings) !== JSON.stringify(settings)) {
        db.updateSettings(thread.id, settings);
        thread = { ...thread, settings };
      }
    }
    const runModel = await openRunModel(settings, options.record);
    const mcpFile = settings.mcp ?? defaultMcpFile(workspace);
    // A read-only open (show, pending) starts no server, from the file or from the config.
    const mcpServers =
      options.readOnly || settings.agent
        ? undefined
        : mcpFile
          ? readMcpFile(mcpFile)
          : config.mcpServers
            ? mcpServersOf(configFiles.join(" + "), config.mcpServers)
            : undefined;
    const built = await buildAgent({
      workspace,
      model: runModel.model,
      sandbox: settings.sandbox,
      approval: settings.approval,
      rules,
      checkpointer: db.checkpointer,
      agentModule: settings.agent,
      ...(settings.askUser ? { askUser: true } : {}),
      ...(mcpServers ? { mcpServers } : {}),
    });
    const close = async () => {
      runModel.save();
      await built.close();
    };
    if (!thread) {
      const forkOf = options.forkOf;
      const base = forkOf && (await readForkBase(built.agent, forkOf).catch(closing(close)));
      thread = db.create((options.title ?? "").slice(0, 200), settings, base?.parent);
      if (base) await seedFork(built.agent, thread.id, base);
    }
    const parts = { agent: built.agent, model: runModel.model, close };
    return session(db, thread, resumed, parts, workspace, { ...config.prices, ...options.prices });
  } catch (error) {
    db.close();
    throw error;
  }
}

const closing = (close: () => Promise<void>) => async (error: unknown) => {
  await close();
  throw error;
};

function session(
  db: ThreadsDb,
  thread: ThreadRow,
  resumed: boolean,
  built: { agent: any; model: unknown; close(): Promise<void> },
  workspace: string,
  prices: Record<string, ModelPrice> | undefined,
): RunSession {
  const config: ThreadConfig = { configurable: { thread_id: thread.id } };
  const agent = built.agent;

  const snapshot = () => agent.getState(config);

  const pendingWith = async (): Promise<Pause> => readPause(await snapshot(), workspace);

  const totals = async () =>
    threadTotals(readUsage((await snapshot()).values ?? {}), thread.settings.model, prices);

  // `ran`: the calls a decision lets run now (approved, edited, answered) count in this run.
  async function* drive(
    input: unknown,
    limits: RunLimits = {},
    ran: string[] = [],
  ): AsyncGenerator<RunEvent> {
    const started = Date.now();
    db.setRunner(thread.id, process.pid);
    const translator = new EventTranslator(workspace, thread.settings.model, prices);
    translator.ran(ran);
    // Calls paused or cut off earlier run in this run: their diffs start from now.
    const state0 = await snapshot().catch(() => undefined);
    translator.seen(state0?.values?.messages ?? []);
    for (const call of unansweredCalls(state0?.values?.messages ?? [])) translator.watch(call);
    // The workspace before and after the run, for rewind and the thread diff (src/run/snapshots).
    const snapshots = snapshotRun(workspace, thread.id, input, state0);
    const controller = new AbortController();
    const timer = limits.timeoutMs
      ? setTimeout(() => controller.abort(new Error("timeout")), limits.timeoutMs)
      : undefined;
    const interrupt = () => controller.abort(new Error("interrupted"));
    limits.signal?.addEventListener("abort", interrupt, { once: true });
    if (limits.signal?.aborted) interrupt();
    let status: RunResult["status"] = "completed";
    let limit: RunResult["limit"];
    let error: string | undefined;
    try {
      const stream = await agent.stream(input, {
        ...config,
        streamMode: limits.textDeltas ? ["updates", "tasks", "messages"] : ["updates", "tasks"],
        subgraphs: true,
        signal: controller.signal,
        durability: "sync",
      });
      for await (const chunk of abortable(stream, controller.signal)) {
        for (const event of translator.translate(chunk)) yield event;
        const { turns, cost } = translator.counts;
        if (limits.maxTurns !== undefined && turns >= limits.maxTurns && !(await finished())) {
          status = "limit";
          limit = "max_turns";
          break;
        }
        if (limits.maxCostUsd !== undefined && cost !== undefined && cost >= limits.maxCostUsd) {
          status = "limit";
          limit = "max_cost";
          break;
        }
      }
    } catch (caught) {
      if (caught instanceof GraphRecursionError) {
        status = "limit";
        limit = "agent";
        error = (caught as Error).message;
      } else if (controller.signal.aborted) {
        status = "limit";
        limit = limits.signal?.aborted ? "interrupted" : "timeout";
      } else if (!isGraphInterrupt(caught)) {
        status = "failed";
        error = caught instanceof Error ? caught.message : String(caught);
      }
    } finally {
      if (timer) clearTimeout(timer);
      snapshots.end();
      db.setRunner(thread.id, null);
    }
    db.touch(thread.id);
    // The agent's own limits (budgets, loop guard) end the run cleanly, with a marker.
    const hit =
      status === "completed"
        ? readLimitHit((await snapshot().catch(() => undefined))?.values)
        : undefined;
    if (hit) {
      status = "limit";
      limit = "agent";
      error = hit.reason;
    }
    let pending: PendingCall[] = [];
    let questions: RunQuestion[] = [];
    if (status !== "failed") {
      ({ calls: pending, questions } = await pendingWith());
      if ((pending.length || questions.length) && status === "completed") {
        status = "paused";
        for (const call of pending) {
          yield { v: 1, type: "approval_required", thread_id: thread.id, ...call };
        }
        for (const question of questions) {
          yield { v: 1, type: "question_required", thread_id: thread.id, ...question };
        }
      }
    }
    if (limit && limit !== "agent") error = LIMIT_TEXT[limit](limits);
    if (limit === "timeout" || limit === "interrupted") cutOff = true;
    const sums = await totals();
    yield {
      v: 1,
      type: "result",
      thread_id: thread.id,
      status,
      answer: translator.counts.answer,
      turns: translator.counts.turns,
      tool_calls: translator.counts.toolCalls,
      usage: sums.usage,
      cost_usd: sums.cost_usd,
      duration_ms: Date.now() - started,
      ...(limit ? { limit } : {}),
      ...(status === "paused" ? { pending } : {}),
      ...(status === "paused" && questions.length ? { questions } : {}),
      ...(error ? { error } : {}),
    };
  }

  // A turn that ended the run (no tool call left to run) is not cut by --max-turns.
  async function finished(): Promise<boolean> {
    const state = await snapshot();
    return (state.next ?? []).length === 0;
  }

  // A limit may leave the graph finishing a tool in the background: its database stays open.
  let cutOff = false;
  // The pause this process claimed. A claim names the pause the resume value was built from
  // (its checkpoint and interrupts), so a pause that moved on meanwhile is never answered
  // with a value meant for the one before it.
  let claimedKey: string | undefined;
  async function claimPause({ interrupts, checkpoint }: Pause): Promise<boolean> {
    if (!interrupts.length) return false;
    const key = JSON.stringify([
      "run-decision",
      thread.id,
      checkpoint,
      ...interrupts.map((i) => i.id),
    ]);
    if (claimedKey === key) return true;
    const mine =
      (await claimTableOf(db.checkpointer).insert(key, JSON.stringify({ pid: process.pid }))) ===
      undefined;
    if (mine) claimedKey = key;
    return mine;
  }
  const claim = async () => claimPause(await pendingWith());

  return {
    thread,
    resumed,
    workspace,
    agent,
    config,
    model: built.model,
    prices,
    pending: async () => (await pendingWith()).calls,
    send(task, limits) {
      const input = task === undefined ? null : { messages: [{ role: "user", content: task }] };
      return drive(input, limits);
    },
    claim,
    questions: async () => (await pendingWith()).questions,
    async *decide(decisions, limits) {
      const pause = await pendingWith();
      // A decision that does not fit fails before the claim: the pause stays open.
      const resume = resumeOf(pause, decisions);
      if (!(await claimPause(pause))) throw new AlreadyDecidedError(thread.id);
      const ran = pause.calls.filter((_, i) => decisions[i]?.type !== "reject");
      yield* drive(
        new Command({ resume }),
        limits,
        ran.map((c) => c.call_id),
      );
    },
    async *answer(callId, answer, limits) {
      const pause = await pendingWith();
      const resume = resumeOne(pause, callId, answer);
      if (!(await claimPause(pause))) throw new AlreadyDecidedError(thread.id);
      yield* drive(new Command({ resume }), limits, [callId]);
    },
    totals,
    history: () => agent.getStateHistory(config),
    async messages() {
      const state = await snapshot();
      return (state.values?.messages ?? []).map((m: any) => {
        const calls = (m.tool_calls ?? []).map((c: any) => `${c.name}(${JSON.stringify(c.args)})`);
        const text = [contentText(m.content), ...calls].filter(Boolean).join(" ");
        return { role: m.getType?.() ?? "unknown", text };
      });
    },
    async close() {
      await built.close();
      if (!cutOff) db.close();
    },
  };
}
