import { DEFAULT_GREP_MAX_COUNT } from "../../backends/protocol/file-query.js";
import type { GrepMatch } from "../../backends/protocol/protocol.js";
import type { FsToolContext } from "../fs-context.js";
import { defineTool } from "./define-tool.js";
import {
  describeBackendError,
  errorMessage,
  missingRootError,
  pathOrError,
} from "./tool-output.js";

export const GREP_TOOL_NAME = "grep";
export const GREP_OUTPUT_MODES = ["files_with_matches", "content", "count"] as const;
export type GrepOutputMode = (typeof GREP_OUTPUT_MODES)[number];

/** The `grep` description, mentioning only tools the model can see. */
export function grepDescription(ctx: Pick<FsToolContext, "mentions">): string {
  const byName = ctx.mentions("glob") ? " To find files by name, use the glob tool." : "";
  return `Search file contents for a literal string (not a regex). output_mode: files_with_matches (default, paths), content (path:line:text), count (path: n). Narrow with path (a directory or file) and glob (a file-name filter, e.g. *.md). Stops at ${DEFAULT_GREP_MAX_COUNT} matches and says so.${byName}`;
}

/** Renders matches in one of the three output modes. */
export function formatGrep(matches: GrepMatch[], mode: GrepOutputMode): string {
  if (mode === "content") return matches.map((m) => `${m.path}:${m.line}:${m.text}`).join("\n");
  const counts = new Map<string, number>();
  for (const m of matches) counts.set(m.path, (counts.get(m.path) ?? 0) + 1);
  if (mode === "count") return [...counts].map(([path, n]) => `${path}: ${n}`).join("\n");
  return [...counts.keys()].join("\n");
}

const REGEX_LOOK = /\\[dwsb]|\.\*|\.\+|[[\]^$|]|\(\?/;

/** Builds the `grep` tool. */
export function createGrepTool(ctx: FsToolContext) {
  return defineTool<{
    pattern: string;
    path?: string;
    glob?: string;
    output_mode?: GrepOutputMode;
  }>({
    name: GREP_TOOL_NAME,
    description: grepDescription(ctx),
    schema: {
      type: "object",
      properties: {
        pattern: { type: "string", minLength: 1 },
        path: { type: "string" },
        glob: { type: "string" },
        output_mode: { type: "string", enum: [...GREP_OUTPUT_MODES] },
      },
      required: ["pattern"],
    },
    run: async ({ pattern, path: raw, glob, output_mode = "files_with_matches" }, config) => {
      const checked = pathOrError(raw ?? "/");
      if ("error" in checked) return errorMessage(config, GREP_TOOL_NAME, checked.error);
      // A hidden search root answers as an empty one, whether or not it exists.
      if (!ctx.guard.shows(checked.path)) return "No matches found.";
      const result = await ctx.backend.grep(pattern, {
        path: checked.path,
        glob,
        maxCount: DEFAULT_GREP_MAX_COUNT,
      });
      if (result.error) {
        return errorMessage(
          config,
          GREP_TOOL_NAME,
          describeBackendError(result.error, checked.path, ctx.mentions),
        );
      }
      const matches = ctx.guard.visibleMatches(result.matches ?? []);
      if (matches.length === 0) {
        const missing = await missingRootError(ctx, checked.path);
        if (missing) return errorMessage(config, GREP_TOOL_NAME, missing);
        const hint = REGEX_LOOK.test(pattern)
          ? " The pattern is matched literally, not as a regex: search a plain substring."
          : "";
        return `No matches found.${hint}`;
      }
      const body = formatGrep(matches, output_mode);
      if (!result.truncated) return body;
      return `${body}\n\n[Stopped at ${matches.length} matches: the result is incomplete. Narrow the path or the file filter, or search a more specific string.]`;
    },
  });
}
