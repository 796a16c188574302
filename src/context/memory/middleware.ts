import { createMiddleware } from "langchain";
import { StateBackend } from "../../backends/file-map/state.js";
import { looksBinary } from "../../backends/protocol/media-types.js";
import type { BackendProtocol } from "../../backends/protocol/protocol.js";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { checkSourcePaths, toolMentioner, warnOnce, withSystemText } from "../prompt-section.js";

/** The name the memory middleware registers under. */
export const MEMORY_MIDDLEWARE_NAME = "MemoryMiddleware";

/** Characters of file content injected at most, all files together. */
export const DEFAULT_MEMORY_MAX_CHARS = 20_000;

/** Options of `memoryMiddleware`. Only `sources` is required. */
export interface MemoryMiddlewareOptions {
  /** Files to load, in order ("/AGENTS.md"). */
  sources: readonly string[];
  /** Where they live: the agent's file backend. Default: a `StateBackend` (the run's files). */
  backend?: BackendProtocol;
  /** Whether the prompt may name a tool; pass the agent's visible set. Default: any bound tool. */
  mentions?: (tool: string) => boolean;
  /** Cap on injected file content, all files together. Default 20,000 characters. */
  maxChars?: number;
  /** Receives each distinct load problem once. Default: `console.warn`. */
  onWarning?: (message: string) => void;
}

/** One memory file as read for a model call. */
export interface MemoryFile {
  path: string;
  /** The text, or undefined when the file does not exist. */
  content?: string;
}

/**
 * Loads memory files (AGENTS.md and the like) into the system prompt as a `<memory>` section,
 * re-reading them through the backend on every model call, so an edit the agent makes shows
 * on its next call and a checkpointed thread never sees stale memory. A missing file is left
 * out, and named as "not created yet" when the model can create it with write_file; a file
 * that cannot be read is left out and reported once through `onWarning`. Content past
 * `maxChars` is cut after the last whole line that fits, with a note saying where the rest is.
 * `createDeepAgent({ memory })` adds it over the agent's own backend; pass it yourself to set
 * `maxChars` or `onWarning` (it replaces that layer in place), and then pass the `backend`
 * the files live in, since its default reads the thread's in-state files.
 *
 * @example
 * const memory = memoryMiddleware({ sources: ["/AGENTS.md"], backend, maxChars: 8_000 });
 * createDeepAgent({ model, backend, middleware: [memory] });
 */
export function memoryMiddleware(options: MemoryMiddlewareOptions) {
  const sources = checkSourcePaths("memory", options?.sources);
  const maxChars = options.maxChars ?? DEFAULT_MEMORY_MAX_CHARS;
  if (!Number.isInteger(maxChars) || maxChars < 0) {
    throw new ConfigurationError("INVALID_OPTION", "maxChars must be a whole number >= 0.");
  }
  const backend = options.backend ?? new StateBackend();
  const warn = warnOnce(options.onWarning);
  return createMiddleware({
    name: MEMORY_MIDDLEWARE_NAME,
    wrapModelCall: async (request, handler) => {
      const files = await readMemoryFiles(backend, sources, warn);
      const section = renderMemory(files, toolMentioner(request, options.mentions), maxChars);
      return handler(section ? withSystemText(request, section) : request);
    },
  });
}

/** Reads each source; a file that exists but cannot be read is reported and skipped. */
export async function readMemoryFiles(
  backend: BackendProtocol,
  paths: readonly string[],
  warn: (message: string) => void,
): Promise<MemoryFile[]> {
  let downloads: Awaited<ReturnType<BackendProtocol["downloadFiles"]>>;
  try {
    downloads = await backend.downloadFiles([...paths]);
  } catch (error) {
    warn(`Memory not loaded: the backend failed (${(error as Error)?.message ?? error}).`);
    return [];
  }
  const files: MemoryFile[] = [];
  paths.forEach((path, index) => {
    const download = downloads[index];
    if (download?.error?.code === "not_found") {
      files.push({ path });
      return;
    }
    const bytes = download?.content;
    const content = bytes && !looksBinary(bytes) ? new TextDecoder().decode(bytes) : undefined;
    if (content === undefined) {
      const why = download?.error?.message ?? "it is not UTF-8 text";
      warn(`Memory file ${path} skipped: ${why}.`);
      return;
    }
    files.push({ path, content });
  });
  return files;
}

/**
 * The `<memory>` section for one model call, or "" when there is nothing to show: no file
 * exists and the model cannot create one.
 */
export function renderMemory(
  files: readonly MemoryFile[],
  mentions: (tool: string) => boolean,
  maxChars: number = DEFAULT_MEMORY_MAX_CHARS,
): string {
  const present = files.filter((f) => f.content !== undefined);
  const missing = mentions("write_file") ? files.filter((f) => f.content === undefined) : [];
  if (present.length === 0 && missing.length === 0) return "";
  const tool = ["edit_file", "write_file"].find(mentions);
  const update = tool
    ? ` When the user asks you to remember something or corrects how you work, update them with ${tool}. Never store secrets.`
    : "";
  const parts = [
    `<memory>\nThese files are your persistent memory: instructions and notes kept across conversations.${update}`,
  ];
  let budget = maxChars;
  for (const file of present) {
    const content = withoutHtmlComments(file.content!);
    const shown = content.length <= budget ? content : cutAtLine(content, budget);
    budget -= shown.length;
    let body = shown.length && !shown.endsWith("\n") ? `${shown}\n` : shown;
    if (shown.length < content.length) body += `${cutNote(file.path, shown, mentions)}\n`;
    parts.push(`<file path="${file.path}">\n${body}</file>`);
  }
  if (missing.length) {
    parts.push(`Not created yet (use write_file): ${missing.map((f) => f.path).join(", ")}`);
  }
  return `${parts.join("\n")}\n</memory>`;
}

// The longest run of whole lines within budget: half a line could read as a whole one.
function cutAtLine(content: string, budget: number): string {
  return budget > 0 ? content.slice(0, content.lastIndexOf("\n", budget - 1) + 1) : "";
}

// Where the rest of a cut file starts, as a 1-based line and read_file's 0-based offset.
function cutNote(path: string, shown: string, mentions: (tool: string) => boolean): string {
  const lines = shown.split("\n").length - 1;
  const read = mentions("read_file") ? ` (read_file offset ${lines})` : "";
  return `[Memory limit reached: ${path} continues at line ${lines + 1}${read}.]`;
}

/**
 * The file without its HTML comments (`<!-- ... -->`, notes for human editors), outside
 * fenced code blocks. Each comment leaves its line breaks behind, so line numbers still match
 * the file for read_file.
 */
export function withoutHtmlComments(content: string): string {
  if (!content.includes("<!--")) return content;
  return content
    .split(/(^(?:```|~~~)[^\n]*\n[\s\S]*?^(?:```|~~~)[^\n]*$)/m)
    .map((part, i) =>
      i % 2 === 1 ? part : part.replace(/<!--[\s\S]*?-->/g, (c) => c.replace(/[^\n]/g, "")),
    )
    .join("");
}
