import { ToolMessage } from "@langchain/core/messages";
import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { type BaseStore, InMemoryStore, isCommand } from "@langchain/langgraph";
import { normalizeTools, type ToolDefinition } from "../agent/user-tools.js";
import { canonicalJson } from "../claims/canonical-json.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { claimIdempotencyKey } from "./idempotent-claim.js";
import { fail, isFailure, resultObjectOf } from "./result.js";

/** Options of `idempotent`. */
export interface IdempotentOptions<Args = any> {
  /**
   * The idempotency key of a call: calls with one key run once. Derive it from what makes
   * the request unique (`args.draft_id`, `${args.order_id}:${args.amount}`); the second
   * argument is the tool's runtime config (`runtime.context` holds the user, if any).
   */
  key: (args: Args, runtime: any) => string;
  /**
   * Where records live. Default: the agent's store when the agent has one, else a
   * process-wide `InMemoryStore`. Pass a `SqliteStore` or `PostgresStore` so processes
   * share the records and a retry after a restart does not run the write twice.
   */
  store?: BaseStore;
  /** The store namespace of the records. Default `["delve", "idempotency", toolName]`. */
  namespace?: string[];
  /**
   * How long a running call may go without a heartbeat (sent every `leaseMs / 3`) before
   * other callers report its outcome as unknown. Default 30000.
   */
  leaseMs?: number;
}

/** What the store keeps per key. */
interface IdempotencyRecord {
  kind: "json" | "text" | "blocks" | "value";
  content: unknown;
  /** Canonical JSON of the arguments the key was first used with. */
  args: string;
  recordedAt: string;
}

const REPLAY_NOTE =
  "created: false (a repeat of an earlier call with the same key: nothing was done again; this is the recorded result)";

let processStore: BaseStore | undefined;
const locks = new WeakMap<BaseStore, Map<string, Promise<void>>>();

/**
 * Makes a writing tool safe to retry: the first call with a key runs the tool and records its
 * result; later calls with the same key return that result without running the tool again.
 * Concurrent calls with one key run once (the others wait for the first). A call that threw
 * or returned a failure (`fail()`, `{ ok: false }`, an error message) is not recorded, so it
 * can be retried. Reusing a key with different arguments returns `IDEMPOTENCY_KEY_REUSED`.
 *
 * How `created` is reported: a JSON object result (`ok({...})`, a plain object, JSON text)
 * gets a `created` field, `true` on the first run (a value the tool set itself is kept) and
 * `false` on repeats, placed after `ok`. Plain text and content blocks come back unchanged
 * on the first run and with a trailing `created: false ...` line on repeats. Other values
 * (numbers, arrays) come back unchanged. A `Command` result applies its state update on the
 * first run only; repeats return its tool message's content.
 *
 * Across processes, with a `SqliteStore` or a `PostgresStore`: the first call of a key
 * claims it with a unique row in the store's database before the tool runs; calls in other
 * processes wait for its record and return it, so the tool runs once per key. When the
 * process running it dies (kill -9, a crash) before the record is written, the next call of
 * the key returns `IDEMPOTENCY_OUTCOME_UNKNOWN` and does not run the tool: at once when that
 * process was on this host, else once `leaseMs` passed without its heartbeat. The window
 * that remains is inside the tool, between its side effect and the record: a crash there
 * leaves an effect that happened but is reported unknown (never repeated). A tool closes it
 * by handing the key to the system it writes to (an idempotency-key header, a unique column,
 * check-then-create), so the effect itself cannot happen twice and can be looked up. Other
 * stores (`InMemoryStore`, your own) serialise calls in this process only.
 *
 * @example
 * const createTicket = idempotent(createTicketTool, {
 *   key: (args) => args.draft_id,
 *   store: SqliteStore.open(".delve/store.db"),
 * });
 */
export function idempotent<Args = any>(
  target: StructuredToolInterface | ToolDefinition<Args>,
  options: IdempotentOptions<Args>,
): StructuredToolInterface {
  const inner = toRunnableTool(target);
  if (typeof options?.key !== "function") {
    throw new ConfigurationError(
      "INVALID_OPTION",
      `idempotent(${inner.name}): key must be a function (args) => string.`,
    );
  }
  const namespace = options.namespace ?? ["delve", "idempotency", inner.name];
  const leaseMs = options.leaseMs ?? 30_000;
  if (typeof leaseMs !== "number" || !(leaseMs > 0)) {
    throw new ConfigurationError(
      "INVALID_OPTION",
      `idempotent(${inner.name}): leaseMs must be a positive number of milliseconds.`,
    );
  }
  const run = async (args: Args, config: any) => {
    const key = options.key(args, config);
    if (typeof key !== "string" || key === "") {
      throw new ConfigurationError(
        "INVALID_IDEMPOTENCY_KEY",
        `idempotent(${inner.name}): key() must return a non-empty string (got ${JSON.stringify(key)}).`,
      );
    }
    const store: BaseStore = options.store ?? config?.store ?? processWideStore();
    return withLock(store, `${namespace.join("\u0000")}\u0001${key}`, async () => {
      const canonical = canonicalJson(args);
      const claimKey = JSON.stringify(["idempotent", namespace, key]);
      for (;;) {
        const found = await store.get(namespace, key);
        if (found) {
          const record = found.value as unknown as IdempotencyRecord;
          if (record.args !== canonical) return keyReused(inner.name, key);
          return present(record, false, config, inner.name);
        }
        const claim = await claimIdempotencyKey(store, claimKey, canonical, leaseMs, async () =>
          Boolean(await store.get(namespace, key)),
        );
        if (claim.kind === "recorded") continue;
        if (claim.kind === "reused") return keyReused(inner.name, key);
        if (claim.kind === "unknown") {
          return fail({
            code: "IDEMPOTENCY_OUTCOME_UNKNOWN",
            message: `${inner.name} started for key "${key}" at ${claim.startedAt.toISOString()} and ${claim.reason} before recording a result: it may or may not have taken effect. It was not run again.`,
            hint: "Check whether it took effect before acting; to run it anyway, use a new key.",
          });
        }
        if (claim.kind === "busy") {
          return fail({
            code: "IDEMPOTENCY_IN_PROGRESS",
            message: `${inner.name} is still running for key "${key}" in another call.`,
            hint: "Call again with the same arguments later to get its result.",
            retryable: true,
          });
        }
        let outcome: "recorded" | "failed" | "unrecorded" = "failed";
        try {
          const output = await inner.invoke(args as any, config);
          const captured = capture(output);
          if (!captured) return output;
          outcome = "unrecorded";
          const record: IdempotencyRecord = {
            ...captured,
            args: canonical,
            recordedAt: new Date().toISOString(),
          };
          await store.put(namespace, key, record as unknown as Record<string, unknown>);
          outcome = "recorded";
          // A Command's state update must still be applied on the first run.
          return isCommand(output) ? output : present(record, true, config, inner.name, output);
        } finally {
          await claim.finish(outcome);
        }
      }
    });
  };
  return tool(
    run as any,
    {
      name: inner.name,
      description: inner.description,
      schema: inner.schema as any,
      metadata: (inner as { metadata?: Record<string, unknown> }).metadata,
    } as any,
  ) as unknown as StructuredToolInterface;
}

function keyReused(name: string, key: string) {
  return fail({
    code: "IDEMPOTENCY_KEY_REUSED",
    message: `${name} already ran once for key "${key}" with other arguments.`,
    hint: "Repeat the original arguments to get the recorded result, or use a new key for a different request.",
  });
}

function processWideStore(): BaseStore {
  processStore ??= new InMemoryStore();
  return processStore;
}

function toRunnableTool(target: unknown): StructuredToolInterface {
  const [normalized] = normalizeTools([target]);
  if (normalized?.source !== "user") {
    throw new ConfigurationError(
      "INVALID_TOOL",
      "idempotent() takes a LangChain tool or a { name, description, schema, func } definition.",
    );
  }
  return normalized.value as StructuredToolInterface;
}

// Serialises calls per key in this process; the chain only ever holds resolved promises.
async function withLock<T>(store: BaseStore, id: string, fn: () => Promise<T>): Promise<T> {
  let table = locks.get(store);
  if (!table) {
    table = new Map();
    locks.set(store, table);
  }
  const previous = table.get(id) ?? Promise.resolve();
  let release!: () => void;
  const current = new Promise<void>((resolve) => {
    release = resolve;
  });
  const chained = previous.then(() => current);
  table.set(id, chained);
  await previous;
  try {
    return await fn();
  } finally {
    release();
    if (table.get(id) === chained) table.delete(id);
  }
}

// What to record of a tool's output, or undefined when it must not be recorded (a failure).
function capture(output: unknown): Pick<IdempotencyRecord, "kind" | "content"> | undefined {
  if (isCommand(output)) {
    const update = (output as { update?: any }).update;
    const messages: unknown[] = Array.isArray(update) ? update : (update?.messages ?? []);
    const message = messages.find((m) => ToolMessage.isInstance(m));
    return message ? capture(message) : { kind: "value", content: null };
  }
  if (ToolMessage.isInstance(output)) {
    if (output.status === "error") return undefined;
    return capture(output.content);
  }
  if (isFailure(output)) return undefined;
  const object = resultObjectOf(output);
  if (object) return { kind: "json", content: object };
  if (typeof output === "string") return { kind: "text", content: output };
  if (Array.isArray(output) && output.every((b) => typeof b === "object" && b && "type" in b)) {
    return { kind: "blocks", content: output };
  }
  return { kind: "value", content: output ?? null };
}

// The result handed back: raw when the tool was invoked with plain arguments, else a ToolMessage.
function present(
  record: IdempotencyRecord,
  created: boolean,
  config: any,
  name: string,
  original?: unknown,
): unknown {
  let content: unknown = record.content;
  if (record.kind === "json") {
    const object = record.content as Record<string, unknown>;
    const flag = created && "created" in object ? object.created : created;
    const { ok, created: _own, ...rest } = object;
    content = "ok" in object ? { ok, created: flag, ...rest } : { ...rest, created: flag };
  } else if (!created && record.kind === "text") {
    content = `${record.content}\n\n${REPLAY_NOTE}`;
  } else if (!created && record.kind === "blocks") {
    content = [...(record.content as unknown[]), { type: "text", text: REPLAY_NOTE }];
  }
  const callId: string | undefined = config?.toolCall?.id;
  if (!callId) return content;
  const base = ToolMessage.isInstance(original) ? original : undefined;
  return new ToolMessage({
    content: (typeof content === "string" || Array.isArray(content)
      ? content
      : JSON.stringify(content)) as any,
    tool_call_id: callId,
    name,
    status: "success",
    artifact: base?.artifact,
    metadata: base?.metadata,
  } as any);
}
