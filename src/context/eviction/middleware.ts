import { createHash } from "node:crypto";
import { type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { Command, isCommand, ReducedValue, StateSchema } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { z } from "zod";
import { filesStateValue } from "../../backends/file-map/files-state.js";
import { StateBackend } from "../../backends/file-map/state.js";
import { isUnder } from "../../backends/protocol/paths.js";
import type { BackendProtocol, FileData } from "../../backends/protocol/protocol.js";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { FS_TOOL_NAMES } from "../../filesystem/middleware.js";
import { splitContent } from "../message-text.js";
import { safeFileName } from "../safe-name.js";
import { exceedsTokens } from "../token-estimate.js";
import { evictedNotice, truncatedNotice } from "./preview.js";

/** The name the eviction middleware registers under. */
export const EVICTION_MIDDLEWARE_NAME = "EvictionMiddleware";
/** Where evicted tool results are saved, one file per tool call. */
export const EVICTED_RESULTS_DIR = "/large_tool_results";
/** Default token limit above which a tool result is saved to a file. */
export const DEFAULT_TOOL_TOKEN_LIMIT = 20_000;
/** Default total size of evicted results a thread keeps (UTF-8 bytes). */
export const DEFAULT_MAX_EVICTED_BYTES = 5 * 1024 * 1024;
/**
 * Tools whose results are never evicted: the file tools, which page or cap their own output,
 * and whose result saved to a file would only say again what a file already holds.
 */
export const DEFAULT_EVICTION_EXEMPT_TOOLS: readonly string[] = FS_TOOL_NAMES.filter(
  (name) => name !== "execute",
);

/** The private state key listing this thread's evicted files, oldest first. */
export const EVICTED_RESULTS_KEY = "_delveEvictedResults";

/** One evicted file; in an update, `bytes: null` means it is gone. */
export interface EvictedEntry {
  path: string;
  bytes: number | null;
}

export interface EvictionOptions {
  /** Where evicted results are saved. Default: a `StateBackend` (the thread's `files`). */
  backend?: BackendProtocol;
  /** Estimated tokens above which a result is saved to a file. Default 20,000; null turns eviction off. */
  toolTokenLimitBeforeEvict?: number | null;
  /** Total bytes of evicted results kept per thread; the oldest are deleted past it. Default 5 MB. */
  maxEvictedBytesPerThread?: number;
  /** Tools never evicted. Default `DEFAULT_EVICTION_EXEMPT_TOOLS` (the file tools); replaces it. */
  exemptTools?: readonly string[];
  /**
   * True when the named tool is visible to the model: the notice may then tell it to use
   * `read_file` (offset/limit) or `grep`. Default: names no tool.
   */
  mentions?: (toolName: string) => boolean;
}

const entrySchema = z.object({ path: z.string(), bytes: z.number().nullable() });

/** Applies eviction updates: a path moves to the end (newest), `bytes: null` removes it. */
export function reduceEvictedEntries(
  current: EvictedEntry[] | undefined,
  updates: EvictedEntry[] | undefined,
): EvictedEntry[] {
  let next = [...(current ?? [])];
  for (const update of updates ?? []) {
    next = next.filter((e) => e.path !== update.path);
    if (update.bytes !== null) next.push(update);
  }
  return next;
}

/**
 * Keeps large tool results out of the conversation. A result whose text (all text blocks)
 * is estimated above `toolTokenLimitBeforeEvict` tokens is saved to
 * `/large_tool_results/<tool call id>-<hash of the text>` and replaced by the path, how to read it back, and
 * its first and last 5 lines; non-text blocks stay. Results inside a returned `Command` (as
 * `task` returns) are handled too. A result that cannot be saved is cut to the limit with a
 * note saying so. Each thread keeps at most `maxEvictedBytesPerThread` of evicted results;
 * the oldest are deleted first. The file tools are exempt.
 *
 * @example
 * createDeepAgent({ model, tools: [searchTickets], middleware: [evictionMiddleware({ toolTokenLimitBeforeEvict: 10_000 })] });
 */
export function evictionMiddleware(options: EvictionOptions = {}) {
  const limit = validLimit(options.toolTokenLimitBeforeEvict);
  const maxBytes = validMaxBytes(options.maxEvictedBytesPerThread);
  const exempt = new Set(options.exemptTools ?? DEFAULT_EVICTION_EXEMPT_TOOLS);
  const backend = options.backend ?? new StateBackend();
  const mentions = options.mentions ?? (() => false);

  return createMiddleware({
    name: EVICTION_MIDDLEWARE_NAME,
    stateSchema: new StateSchema({
      files: filesStateValue(),
      [EVICTED_RESULTS_KEY]: new ReducedValue(
        z.array(entrySchema).default(() => []),
        {
          inputSchema: z.array(entrySchema).optional(),
          reducer: reduceEvictedEntries as any,
        },
      ),
    }),
    // A huge pasted user message is saved like a huge tool result, once, when it arrives.
    beforeAgent: async (state) => {
      if (limit === null) return undefined;
      const tracked: EvictedEntry[] = (state as any)[EVICTED_RESULTS_KEY] ?? [];
      const run = new EvictionRun(backend, limit, maxBytes, mentions, tracked);
      const replaced = await run.evictUserMessages((state as any).messages ?? []);
      if (replaced.length === 0) return undefined;
      return { messages: replaced, [EVICTED_RESULTS_KEY]: run.updates } as any;
    },
    wrapToolCall: async (request, handler) => {
      const result = await handler(request);
      if (limit === null || exempt.has(request.toolCall.name)) return result;
      const tracked: EvictedEntry[] = (request.state as any)[EVICTED_RESULTS_KEY] ?? [];
      const run = new EvictionRun(backend, limit, maxBytes, mentions, tracked);
      if (ToolMessage.isInstance(result)) {
        const message = await run.evict(result);
        if (message === result) return result;
        return new Command({
          update: { messages: [message], [EVICTED_RESULTS_KEY]: run.updates },
        });
      }
      if (isCommand(result) && result.graph !== Command.PARENT) return run.evictInCommand(result);
      return result;
    },
  });
}

// One tool call's evictions: saves, tracking updates and cap enforcement, in order.
class EvictionRun {
  readonly updates: EvictedEntry[] = [];
  private tracked: EvictedEntry[];

  constructor(
    private readonly backend: BackendProtocol,
    private readonly limit: number,
    private readonly maxBytes: number,
    private readonly mentions: (toolName: string) => boolean,
    tracked: EvictedEntry[],
  ) {
    this.tracked = [...tracked];
  }

  async evict(message: ToolMessage): Promise<ToolMessage> {
    const { text, other } = splitContent(message.content);
    if (!exceedsTokens(text, this.limit)) return message;
    const path = evictedPath(message.tool_call_id, text);
    const saved = await this.save(path, text);
    const notice =
      saved === true
        ? evictedNotice(text, path, { mentions: this.mentions })
        : truncatedNotice(text, saved, this.limit);
    const content =
      typeof message.content === "string" ? notice : [{ type: "text", text: notice }, ...other];
    return new ToolMessage({
      content: content as any,
      tool_call_id: message.tool_call_id,
      name: message.name,
      status: message.status,
      artifact: message.artifact,
      id: message.id,
      additional_kwargs: message.additional_kwargs,
      response_metadata: message.response_metadata,
    });
  }

  /**
   * The newest user messages (those after the last model turn) that are over the limit,
   * saved and replaced by their notice under the same id; earlier ones were seen already.
   */
  async evictUserMessages(messages: readonly BaseMessage[]): Promise<HumanMessage[]> {
    const out: HumanMessage[] = [];
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i]!;
      if (!HumanMessage.isInstance(message)) break;
      const { text, other } = splitContent(message.content);
      if (!message.id || !exceedsTokens(text, this.limit)) continue;
      const path = evictedPath(`user-${message.id}`, text);
      const saved = await this.save(path, text);
      const notice =
        saved === true
          ? evictedNotice(text, path, { mentions: this.mentions }, "message")
          : truncatedNotice(text, saved, this.limit);
      const content =
        typeof message.content === "string" ? notice : [{ type: "text", text: notice }, ...other];
      out.unshift(
        new HumanMessage({ content: content as any, id: message.id, name: message.name }),
      );
    }
    return out;
  }

  // Returns true, or why the result could not be saved.
  private async save(path: string, text: string): Promise<true | string> {
    const bytes = Buffer.byteLength(text);
    if (bytes > this.maxBytes) {
      return `it is ${sizeText(bytes)}, more than the ${sizeText(this.maxBytes)} of large results a conversation keeps`;
    }
    let written: Awaited<ReturnType<BackendProtocol["write"]>>;
    try {
      written = await this.backend.write(path, text);
    } catch (error) {
      written = { error: { code: "io", message: (error as Error)?.message ?? String(error) } };
    }
    if (written.error) return written.error.message;
    this.record({ path, bytes });
    await this.enforceCap(path);
    return true;
  }

  private record(entry: EvictedEntry): void {
    this.updates.push(entry);
    this.tracked = reduceEvictedEntries(this.tracked, [entry]);
  }

  // Deletes the oldest evicted files until the thread is within its cap. A file that cannot
  // be deleted stays listed, to be tried again at the next eviction.
  private async enforceCap(keep: string): Promise<void> {
    let total = this.tracked.reduce((sum, e) => sum + (e.bytes ?? 0), 0);
    if (total <= this.maxBytes || typeof this.backend.delete !== "function") return;
    for (const entry of [...this.tracked]) {
      if (total <= this.maxBytes) break;
      if (entry.path === keep) continue;
      const deleted = await this.backend.delete(entry.path).catch((error: unknown) => ({
        error: { code: "io" as const, message: String(error) },
      }));
      if (deleted.error && deleted.error.code !== "not_found") continue;
      this.record({ path: entry.path, bytes: null });
      total -= entry.bytes ?? 0;
    }
  }

  async evictInCommand(command: Command): Promise<Command> {
    const update = command.update as Record<string, unknown> | [string, unknown][] | undefined;
    if (!update || typeof update !== "object") return command;
    const entries: [string, unknown][] = Array.isArray(update) ? update : Object.entries(update);
    let changed = false;
    const next: [string, unknown][] = [];
    for (const [key, value] of entries) {
      if (key === "messages") {
        const messages = await this.evictAll(value);
        changed ||= messages !== value;
        next.push([key, messages]);
      } else {
        if (key === "files") this.trackFiles(value);
        next.push([key, value]);
      }
    }
    if (!changed && this.updates.length === 0) return command;
    next.push([EVICTED_RESULTS_KEY, this.updates]);
    return new Command({
      update: Array.isArray(update) ? next : Object.fromEntries(next),
      goto: command.goto as any,
      graph: command.graph,
      resume: command.resume,
    });
  }

  private async evictAll(value: unknown): Promise<unknown> {
    const list = Array.isArray(value) ? value : [value];
    let changed = false;
    const out: unknown[] = [];
    for (const item of list) {
      if (!ToolMessage.isInstance(item as BaseMessage)) {
        out.push(item);
        continue;
      }
      const evicted = await this.evict(item as ToolMessage);
      changed ||= evicted !== item;
      out.push(evicted);
    }
    if (!changed) return value;
    return Array.isArray(value) ? out : out[0];
  }

  // A subagent's own evicted files come back in the `files` update: count them here too.
  private trackFiles(files: unknown): void {
    if (!files || typeof files !== "object") return;
    for (const [path, data] of Object.entries(files as Record<string, FileData | string | null>)) {
      if (!isUnder(path, EVICTED_RESULTS_DIR) || path === EVICTED_RESULTS_DIR) continue;
      const content = typeof data === "string" ? data : data?.content;
      this.record({ path, bytes: typeof content === "string" ? Buffer.byteLength(content) : null });
    }
  }
}

/**
 * Where one evicted result is saved: the tool-call id (made file-name safe) plus a hash of
 * the text, so a model that reuses an id (`call_0` twice, in parallel or in a later turn)
 * never overwrites an earlier result, and the same result saved again lands on the same file.
 *
 * @example
 * evictedPath("call_0", text); // "/large_tool_results/call_0-3f2a9c41d07e"
 */
export function evictedPath(toolCallId: string | undefined, text: string): string {
  const hash = createHash("sha256").update(text).digest("hex").slice(0, 12);
  return `${EVICTED_RESULTS_DIR}/${safeFileName(toolCallId || "result")}-${hash}`;
}

function sizeText(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function validLimit(value: unknown): number | null {
  if (value === undefined) return DEFAULT_TOOL_TOKEN_LIMIT;
  if (value === null) return null;
  if (typeof value === "number" && value > 0) return value;
  throw new ConfigurationError(
    "INVALID_OPTION",
    `toolTokenLimitBeforeEvict must be a positive number of tokens, or null to turn eviction off (got ${JSON.stringify(value)}).`,
  );
}

function validMaxBytes(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_EVICTED_BYTES;
  if (typeof value === "number" && value > 0) return value;
  throw new ConfigurationError(
    "INVALID_OPTION",
    `maxEvictedBytesPerThread must be a positive number of bytes (got ${JSON.stringify(value)}).`,
  );
}
