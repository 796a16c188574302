import { ToolMessage } from "@langchain/core/messages";
import { globProblem } from "../../backends/protocol/glob.js";
import { checkVirtualPath } from "../../backends/protocol/paths.js";
import type { BackendError, ExecutionFacts } from "../../backends/protocol/protocol.js";
import type { FsGuard, FsToolContext } from "../fs-context.js";

/** The id of the tool call being answered, from the config LangChain hands a tool. */
export function toolCallIdOf(config: unknown): string {
  const call = (config as { toolCall?: { id?: string } } | undefined)?.toolCall;
  return call?.id ?? "";
}

/** An error tool message: `status: "error"` with one line saying what failed and what to do. */
export function errorMessage(config: unknown, name: string, text: string): ToolMessage {
  return new ToolMessage({
    content: `Error: ${text}`,
    tool_call_id: toolCallIdOf(config),
    name,
    status: "error",
  });
}

/**
 * Model-facing text for a backend failure on `path`: what went wrong and the next step.
 * Tools pass their own text for codes whose advice depends on the tool (edits).
 */
export function describeBackendError(
  error: BackendError,
  path: string,
  mentions: (tool: string) => boolean,
  execution?: ExecutionFacts,
): string {
  switch (error.code) {
    case "not_found": {
      const shell = shellPathHint(path, execution);
      if (shell) return `${path} does not exist. ${shell}`;
      const finder = ["ls", "glob"].find(mentions);
      return `${path} does not exist.${finder ? ` Check the path with ${finder}.` : ""}`;
    }
    case "is_directory":
      return `${path} is a directory, not a file.`;
    case "not_a_directory":
      return `${path} is a file, not a directory.`;
    case "invalid_path":
      return `invalid path ${JSON.stringify(path)}: ${error.message}. Use an absolute path like /notes/a.md.`;
    case "permission_denied":
      return `permission denied for ${path}: ${error.message}`;
    case "too_large":
      return `${path} is too large: ${error.message}`;
    case "timeout":
      return `the operation timed out: ${error.message}. Narrow it and retry.`;
    default:
      return `${error.message} (${path})`;
  }
}

/**
 * For a path written as `execute` sees it (under its workdir, e.g. /workspace/src/a.js), the
 * sentence naming the file-tool path; otherwise undefined.
 */
export function shellPathHint(path: string, execution?: ExecutionFacts): string | undefined {
  const root = execution?.workdir.replace(/\/+$/, "");
  if (!root || (path !== root && !path.startsWith(`${root}/`))) return undefined;
  const virtual = path.slice(root.length) || "/";
  return `Shell paths under ${root} are / in the file tools: use ${virtual}.`;
}

/** Normalises a model-supplied path, or returns the refusal text. */
export function pathOrError(path: unknown): { path: string } | { error: string } {
  if (typeof path !== "string") return { error: "the path must be a string." };
  const checked = checkVirtualPath(path);
  if (!checked.ok) {
    return {
      error: `invalid path ${JSON.stringify(path)}: ${checked.reason}. Use an absolute path like /notes/a.md.`,
    };
  }
  return { path: checked.path };
}

/**
 * The error text when a search root (`grep`/`glob` path) does not exist, else undefined.
 * Backends answer an empty result for a missing root; without this a typo in the path would
 * read as "nothing matches". Called only on empty results, so a hit costs nothing.
 */
export async function missingRootError(
  ctx: Pick<FsToolContext, "backend" | "mentions" | "execution">,
  path: string,
): Promise<string | undefined> {
  if (path === "/") return undefined;
  const listing = await ctx.backend.ls(path);
  if (listing.error?.code !== "not_found") return undefined;
  // Some backends may not tell a file from a missing directory in ls: a file root exists.
  const file = await ctx.backend.read(path, { limit: 1 });
  if (file.error?.code !== "not_found") return undefined;
  return describeBackendError(listing.error, path, ctx.mentions, ctx.execution);
}

/**
 * The refusal for a search root (`grep`/`glob` path) the rules hide, worded as `ls` refuses
 * it and given before the backend is asked, so it says nothing of whether the root exists.
 * What a rule hides inside the walk is dropped silently instead.
 */
export function hiddenRootError(guard: FsGuard, path: string): string | undefined {
  if (guard.shows(path)) return undefined;
  return guard.read(path) ?? `Permission denied: read of ${path}.`;
}

/** The refusal for a glob the matcher will not take (too long, braces expanding too far). */
export function globPatternError(pattern: string, argument: string): string | undefined {
  const problem = globProblem(pattern);
  return (
    problem &&
    `${argument} ${JSON.stringify(pattern.slice(0, 80))}${pattern.length > 80 ? "…" : ""} is refused: ${problem}.`
  );
}
