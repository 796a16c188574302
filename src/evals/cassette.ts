import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { ConfigurationError } from "../errors/configuration-error.js";
import { CassetteDriftError } from "./cassette-drift-error.js";

/** Hashes of what a model request is made of, so a drift can say which part changed. */
export interface RequestParts {
  system: string;
  tools: Record<string, string>;
  messages: string[];
}

/** One recorded model call: the request it answered (hashed) and the response. */
export interface CassetteStep {
  key: string;
  parts: RequestParts;
  response: {
    content: unknown;
    tool_calls: Array<{ id?: string; name: string; args: Record<string, unknown> }>;
    usage_metadata?: Record<string, unknown>;
    response_metadata?: Record<string, unknown>;
    id?: string;
  };
}

/** A cassette file: per task id, one list of recorded steps per run. */
export interface CassetteFile {
  format: "delve-cassette";
  version: 1;
  model?: string;
  tasks: Record<string, { runs: CassetteStep[][] }>;
}

const hash = (value: unknown) =>
  createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);

/**
 * The parts of a request that decide the answer: the system prompt, each tool's definition
 * (name, description, schema) and each message (type, text, tool calls by name and args).
 * Ids are left out: they differ between runs without changing what the model was asked.
 */
export function requestParts(messages: BaseMessage[], tools: unknown[]): RequestParts {
  const system = messages
    .filter((m) => m.getType() === "system")
    .map((m) => JSON.stringify(m.content))
    .join("\n");
  const toolHashes: Record<string, string> = {};
  for (const tool of tools) {
    const definition = definitionOf(tool);
    toolHashes[definition.name] = hash(definition);
  }
  const rest = messages.filter((m) => m.getType() !== "system");
  return {
    system: hash(system),
    tools: toolHashes,
    messages: rest.map((m) =>
      hash({
        type: m.getType(),
        content: m.content,
        name: m.getType() === "tool" ? m.name : undefined,
        calls: ((m as AIMessage).tool_calls ?? []).map((c) => [c.name, c.args]),
      }),
    ),
  };
}

/** The key of a request: one hash over its parts. */
export function requestKey(parts: RequestParts): string {
  return hash(parts);
}

function definitionOf(tool: unknown): { name: string } {
  const t = tool as Record<string, any>;
  if (typeof t?.name === "string" && (t.schema || t.description !== undefined)) {
    const fn = convertToOpenAITool(t as any).function;
    return { name: fn.name, description: fn.description, parameters: fn.parameters } as any;
  }
  return { name: String(t?.name ?? t?.function?.name ?? t?.type ?? "?"), ...t };
}

/** Says which part of a request differs from the recorded one, for the drift message. */
export function describeChange(recorded: RequestParts, now: RequestParts): string {
  if (recorded.system !== now.system) return "the system prompt changed";
  for (const [name, h] of Object.entries(now.tools)) {
    if (!(name in recorded.tools)) return `tool ${name} is new`;
    if (recorded.tools[name] !== h) return `the definition of tool ${name} changed`;
  }
  for (const name of Object.keys(recorded.tools)) {
    if (!(name in now.tools)) return `tool ${name} is no longer offered`;
  }
  const n = Math.max(recorded.messages.length, now.messages.length);
  for (let i = 0; i < n; i++) {
    if (recorded.messages[i] !== now.messages[i]) {
      return i >= recorded.messages.length
        ? `the conversation has more messages (${now.messages.length}) than recorded (${recorded.messages.length})`
        : `message ${i + 1} differs (an input, a tool result or an earlier answer changed)`;
    }
  }
  return "the request changed";
}

/** Stores a model response in a cassette step. */
export function storeResponse(message: AIMessage): CassetteStep["response"] {
  const meta = message.response_metadata as Record<string, unknown> | undefined;
  return {
    content: message.content,
    tool_calls: (message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.name, args: c.args })),
    ...(message.usage_metadata ? { usage_metadata: { ...message.usage_metadata } } : {}),
    ...(meta?.model_name ? { response_metadata: { model_name: meta.model_name } } : {}),
    ...(message.id ? { id: message.id } : {}),
  };
}

/** Rebuilds the AI message a cassette step recorded. */
export function restoreResponse(stored: CassetteStep["response"]): AIMessage {
  return new AIMessage({
    content: stored.content as string,
    tool_calls: stored.tool_calls.map((c, i) => ({
      id: c.id ?? `replay_${i}`,
      name: c.name,
      args: c.args,
      type: "tool_call" as const,
    })),
    ...(stored.usage_metadata ? { usage_metadata: stored.usage_metadata as any } : {}),
    response_metadata: stored.response_metadata ?? {},
    ...(stored.id ? { id: stored.id } : {}),
  });
}

/** Reads a cassette file; throws `ConfigurationError` when it is missing or not a cassette. */
export function loadCassette(path: string): CassetteFile {
  let parsed: CassetteFile;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigurationError(
      "CASSETTE_UNREADABLE",
      `Cannot read the cassette ${path}: ${(error as Error).message}. Record it first with record: "${path}".`,
      { path },
    );
  }
  if (parsed?.format !== "delve-cassette" || parsed.version !== 1) {
    throw new ConfigurationError("CASSETTE_UNREADABLE", `${path} is not a Delve cassette.`, {
      path,
    });
  }
  return parsed;
}

/** Writes a cassette file (creating its folder). */
export function saveCassette(path: string, cassette: CassetteFile): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(cassette, null, 1)}\n`);
}

/** The recorded steps of one task run, answering replayed requests in order. */
export class CassetteReplay {
  private next = 0;
  private readonly used = new Set<number>();

  constructor(
    private readonly taskId: string,
    private readonly steps: CassetteStep[] | undefined,
    private readonly path: string,
  ) {}

  /** The recorded response to this request, or a `CassetteDriftError` naming task and step. */
  answer(parts: RequestParts): AIMessage {
    const step = ++this.next;
    if (!this.steps) {
      throw new CassetteDriftError(
        "NOT_RECORDED",
        `task ${this.taskId} has no recording in ${this.path}: record it against a real model`,
        { task: this.taskId, step, change: "not recorded" },
      );
    }
    const key = requestKey(parts);
    // Parallel subagents may ask in another order: any unused step with the same key answers.
    let index = this.steps[step - 1]?.key === key ? step - 1 : -1;
    if (index < 0 || this.used.has(index)) {
      index = this.steps.findIndex((s, i) => s.key === key && !this.used.has(i));
    }
    if (index < 0) {
      const recorded = this.steps[step - 1];
      const change = recorded
        ? describeChange(recorded.parts, parts)
        : `the run makes more model calls than the ${this.steps.length} recorded`;
      throw new CassetteDriftError(
        "REQUEST_CHANGED",
        `task ${this.taskId} step ${step} no longer matches its recorded request (${change}): re-record against a real model`,
        { task: this.taskId, step, change },
      );
    }
    this.used.add(index);
    return restoreResponse((this.steps[index] as CassetteStep).response);
  }
}
