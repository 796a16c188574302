import { DEFAULT_GLOB_MAX_RESULTS } from "../../backends/protocol/file-query.js";
import type { FsToolContext } from "../fs-context.js";
import { defineTool } from "./define-tool.js";
import { budgetNote, MAX_TOOL_OUTPUT_CHARS, rowsWithin } from "./output-budget.js";
import {
  describeBackendError,
  errorMessage,
  globPatternError,
  hiddenRootError,
  missingRootError,
  pathOrError,
} from "./tool-output.js";

export const GLOB_TOOL_NAME = "glob";

/** The `glob` description, mentioning only tools the model can see. */
export function globDescription(ctx: Pick<FsToolContext, "mentions">): string {
  const grep = ctx.mentions("grep") ? " To search contents, use grep." : "";
  return `Find files by path pattern: *.md matches names at any depth, src/**/*.ts matches under src, a leading / anchors at the root. Returns up to ${DEFAULT_GLOB_MAX_RESULTS} paths, sorted, and says when it stops early.${grep}`;
}

/** Builds the `glob` tool. */
export function createGlobTool(ctx: FsToolContext) {
  return defineTool<{ pattern: string; path?: string }>({
    name: GLOB_TOOL_NAME,
    description: globDescription(ctx),
    schema: {
      type: "object",
      properties: {
        pattern: { type: "string" },
        path: { type: "string", description: "Directory to search; default /" },
      },
      required: ["pattern"],
    },
    run: async ({ pattern, path: raw }, config) => {
      const checked = pathOrError(raw ?? "/");
      if ("error" in checked) return errorMessage(config, GLOB_TOOL_NAME, checked.error);
      const refused =
        hiddenRootError(ctx.guard, checked.path) ?? globPatternError(pattern, "pattern");
      if (refused) return errorMessage(config, GLOB_TOOL_NAME, refused);
      const result = await ctx.backend.glob(pattern, {
        path: checked.path,
        maxResults: DEFAULT_GLOB_MAX_RESULTS,
      });
      if (result.error) {
        return errorMessage(
          config,
          GLOB_TOOL_NAME,
          describeBackendError(result.error, checked.path, ctx.mentions, ctx.execution),
        );
      }
      const files = ctx.guard.visibleInfos(result.files ?? []);
      if (files.length === 0) {
        const missing = await missingRootError(ctx, checked.path);
        if (missing) return errorMessage(config, GLOB_TOOL_NAME, missing);
        return result.truncated
          ? "No files found, but the search was incomplete. Narrow the pattern or path."
          : "No files found";
      }
      const paths = files.map((f) => f.path);
      const { text, kept } = rowsWithin(paths, ctx.outputChars ?? MAX_TOOL_OUTPUT_CHARS);
      if (kept < paths.length) {
        const total = `${paths.length}${result.truncated ? "+" : ""}`;
        return `${text}\n\n${budgetNote(kept, total, "paths", "Narrow the pattern or path.")}`;
      }
      if (!result.truncated) return text;
      return `${text}\n\n[Stopped at ${files.length} paths: the list is incomplete. Narrow the pattern or path.]`;
    },
  });
}
