import fs from "node:fs";
import path from "node:path";
import { isAIMessageChunk } from "@langchain/core/messages";
import { createTwoFilesPatch } from "diff";
import { MODEL_NODE, toolCallOfTask } from "../langchain-seam/agent-graph.js";
import type { RunEvent } from "./events.js";
import { costUsd, type ModelPrice, resolvePrice } from "./prices.js";

const FILE_TOOLS = new Set(["write_file", "edit_file", "delete"]);

/** What the translator counts while a run streams. */
export interface StreamCounts {
  turns: number;
  toolCalls: number;
  /** USD of this run's model calls so far; undefined once one model's price is unknown. */
  cost: number | undefined;
  answer: string;
}

/** The text of a message's content (string, or the text blocks of a block list). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) => (b && typeof b === "object" && (b as any).type === "text" ? (b as any).text : ""))
    .join("");
}

/**
 * Turns the chunks of `agent.stream(..., { streamMode: ["updates", "tasks"] (and "messages"
 * for text deltas), subgraphs: true })` into run events. Keeps the file contents before each
 * file tool call to report its diff. A subagent's events carry its `task` call id: the
 * `tasks` chunks say which tool call each tools task (a subgraph namespace) runs.
 */
export class EventTranslator {
  readonly counts: StreamCounts = { turns: 0, toolCalls: 0, cost: 0, answer: "" };
  readonly #before = new Map<string, { file: string; rel: string; content?: string }>();
  readonly #subagents = new Map<string, string>();
  // "tools:<task id>" namespace → the `task` call it runs, and that call's subagent name.
  readonly #taskRuns = new Map<string, string>();
  readonly #taskNames = new Map<string, string>();
  // Some nodes' updates repeat messages already reported (a middleware hook returns the
  // whole list; an edited call comes back under the same id): each is reported once.
  readonly #seen = new Set<string>();
  readonly #deltaSource = new Map<
    string,
    { id: string; text: string; others: Map<string, string> }
  >();
  readonly #ran = new Set<string>();

  constructor(
    private readonly workspace: string,
    private readonly model: string,
    private readonly prices: Record<string, ModelPrice> | undefined,
  ) {}

  /** Marks messages already in the thread as reported (call before a resumed run). */
  seen(messages: readonly any[]): void {
    for (const m of messages) for (const key of keysOf(m)) this.#seen.add(key);
  }

  /** Calls decided earlier that run in this run: each counts as a tool call once it ends. */
  ran(callIds: readonly string[]): void {
    for (const id of callIds) this.#ran.add(id);
  }

  /** Remembers a file tool call's target before it runs (also for calls resumed later). */
  watch(call: { id?: string; name: string; args: Record<string, unknown> }): void {
    if (!FILE_TOOLS.has(call.name) || typeof call.args.file_path !== "string") return;
    const rel = call.args.file_path.replace(/^\/+/, "");
    const file = path.resolve(this.workspace, rel);
    if (file !== this.workspace && !file.startsWith(`${this.workspace}${path.sep}`)) return;
    this.#before.set(call.id ?? "", { file, rel, content: readText(file) });
  }

  /** The events of one stream chunk (`updates`, or `messages` for text deltas). */
  translate(chunk: unknown): RunEvent[] {
    const [ns, mode, data] = (
      Array.isArray(chunk) && chunk.length === 3 ? chunk : [[], "updates", chunk]
    ) as [string[], string, any];
    const top = ns.length === 0;
    if (mode === "tasks") return this.#taskStart(ns, data);
    const run = top ? undefined : this.#runOf(ns);
    const agent = top ? "main" : (run?.name ?? this.#activeSubagent());
    const task = run ? { task: run.call } : {};
    if (mode === "messages") return this.#textDelta(data, agent, task);
    const out: RunEvent[] = [];
    for (const [node, update] of Object.entries(data ?? {})) {
      if (node === "__interrupt__") continue;
      if (process.env.DELVE_TRACE)
        process.stderr.write(
          `[trace] ${ns.join("/")} ${node} ${messagesOf(update)
            .map((m: any) => `${m.getType?.()}:${m.id}`)
            .join(",")}\n`,
        );
      for (const update1 of Array.isArray(update) ? update : [update]) {
        for (const message of messagesOf(update1))
          out.push(...this.#message(message, agent, top, task));
      }
    }
    return out;
  }

  // A `messages` chunk is [message, metadata]: only the agents' model nodes' streamed pieces
  // are deltas (a whole message, a tool's, or another model call's such as the summarizer's,
  // is not: its text comes with the node's update). A chat model wrapping another (a string
  // model's configurable wrapper) streams each piece twice under two ids: each model step
  // keeps the first id that brought text while another id's text only repeats it. Another id
  // whose text goes past or differs is a retried call (the first attempt failed mid-answer):
  // its text so far restarts the message, and its id is kept from then on.
  #textDelta(data: unknown, agent: string, task: { task?: string }): RunEvent[] {
    const [message, metadata] = (Array.isArray(data) ? data : []) as [any, any];
    if (!isAIMessageChunk(message) || metadata?.langgraph_node !== MODEL_NODE) return [];
    const text = contentText(message.content);
    if (!text) return [];
    const step = `${metadata.langgraph_checkpoint_ns ?? ""}|${metadata.langgraph_step ?? ""}`;
    const id = String(message.id);
    const source = this.#deltaSource.get(step);
    if (source === undefined || source.id === id) {
      if (source) source.text += text;
      else this.#deltaSource.set(step, { id, text, others: new Map() });
      return [{ v: 1, type: "text_delta", agent, ...task, text }];
    }
    const other = (source.others.get(id) ?? "") + text;
    if (source.text.startsWith(other)) {
      source.others.set(id, other);
      return [];
    }
    this.#deltaSource.set(step, { id, text: other, others: new Map() });
    return [{ v: 1, type: "text_delta", agent, ...task, text: other, restart: true }];
  }

  // A tools task that runs a `task` call: its namespace is that subagent run's.
  #taskStart(ns: string[], data: unknown): RunEvent[] {
    const started = toolCallOfTask(data);
    if (started?.call.name !== "task") return [];
    // A call's name comes with its args; a later tools task of it may bring the id only.
    const { id, args } = started.call;
    if (args?.subagent_type !== undefined) this.#taskNames.set(id, String(args.subagent_type));
    this.#taskRuns.set([...ns, `tools:${started.taskId}`].join("|"), id);
    return [];
  }

  // The innermost subagent run a namespace is inside.
  #runOf(ns: string[]): { call: string; name: string } | undefined {
    for (let i = ns.length; i > 0; i--) {
      const call = this.#taskRuns.get(ns.slice(0, i).join("|"));
      if (call) return { call, name: this.#taskNames.get(call) ?? "subagent" };
    }
    return undefined;
  }

  #message(message: any, agent: string, top: boolean, task: { task?: string }): RunEvent[] {
    const type = typeof message?.getType === "function" ? message.getType() : message?.type;
    const out: RunEvent[] = [];
    const keys = keysOf(message);
    if (keys.some((k) => this.#seen.has(k))) return out;
    for (const k of keys) this.#seen.add(k);
    if (type === "ai") {
      if (top) this.counts.turns++;
      const text = contentText(message.content);
      if (text) {
        out.push({ v: 1, type: "text", agent, ...task, text });
        if (top) this.counts.answer = text;
      }
      const usage = message.usage_metadata;
      if (usage) out.push({ ...this.#usage(agent, message, usage), ...task } as RunEvent);
      for (const call of message.tool_calls ?? []) {
        this.counts.toolCalls++;
        this.watch(call);
        out.push({
          v: 1,
          type: "tool_call",
          agent,
          ...task,
          call_id: call.id ?? "",
          tool: call.name,
          args: call.args,
        });
        if (call.name === "task") {
          const name = String(call.args?.subagent_type ?? "subagent");
          this.#subagents.set(call.id ?? "", name);
          this.#taskNames.set(call.id ?? "", name);
          out.push({ v: 1, type: "subagent", phase: "start", call_id: call.id ?? "", name });
        }
      }
    } else if (type === "tool") {
      const id = String(message.tool_call_id ?? "");
      if (this.#ran.delete(id)) this.counts.toolCalls++;
      const status = message.status === "error" ? "error" : "success";
      out.push({
        v: 1,
        type: "tool_result",
        agent,
        ...task,
        call_id: id,
        tool: String(message.name ?? ""),
        status,
        output: contentText(message.content),
      });
      const changed = status === "success" ? this.#fileChange(id) : undefined;
      if (changed) out.push(changed);
      const subagent = this.#subagents.get(id);
      if (subagent !== undefined) {
        this.#subagents.delete(id);
        out.push({ v: 1, type: "subagent", phase: "end", call_id: id, name: subagent, status });
      }
    }
    return out;
  }

  #usage(agent: string, message: any, usage: any): RunEvent {
    const details = usage.input_token_details ?? {};
    const tokens = {
      input: usage.input_tokens ?? 0,
      output: usage.output_tokens ?? 0,
      cacheRead: details.cache_read ?? 0,
      cacheWrite: details.cache_creation ?? 0,
    };
    const model = modelName(message, this.model);
    const cost = costUsd(tokens, resolvePrice(model, this.prices));
    this.counts.cost =
      cost === undefined || this.counts.cost === undefined ? undefined : this.counts.cost + cost;
    return {
      v: 1,
      type: "usage",
      agent,
      model,
      input: tokens.input,
      output: tokens.output,
      ...(tokens.cacheRead ? { cache_read: tokens.cacheRead } : {}),
      ...(tokens.cacheWrite ? { cache_write: tokens.cacheWrite } : {}),
      cost_usd: cost ?? null,
    };
  }

  #fileChange(callId: string): RunEvent | undefined {
    const before = this.#before.get(callId);
    if (!before) return undefined;
    this.#before.delete(callId);
    const after = readText(before.file);
    if (after === before.content) return undefined;
    const op = before.content === undefined ? "create" : after === undefined ? "delete" : "edit";
    const diff = createTwoFilesPatch(
      op === "create" ? "/dev/null" : `a/${before.rel}`,
      op === "delete" ? "/dev/null" : `b/${before.rel}`,
      before.content ?? "",
      after ?? "",
    );
    return { v: 1, type: "file_changed", call_id: callId, path: before.rel, op, diff };
  }

  #activeSubagent(): string {
    const names = [...this.#subagents.values()];
    return names.length === 1 ? (names[0] as string) : "subagent";
  }
}

// Priced by the configured "provider:model": the API's answer often names a dated variant
// that a price file written by a user would not list.
function modelName(_message: unknown, configured: string): string {
  return configured;
}

function keysOf(message: any): string[] {
  const keys: string[] = [];
  if (message?.id) keys.push(`id:${message.id}`);
  if (message?.tool_call_id) keys.push(`result:${message.tool_call_id}`);
  return keys;
}

function messagesOf(update: any): any[] {
  const messages = update?.messages;
  if (Array.isArray(messages)) return messages;
  return messages ? [messages] : [];
}

function readText(file: string): string | undefined {
  try {
    return fs.statSync(file).isFile() ? fs.readFileSync(file, "utf8") : undefined;
  } catch {
    return undefined;
  }
}
