import type { FileInfo } from "../../backends/protocol/protocol.js";
import type { FsToolContext } from "../fs-context.js";
import { defineTool } from "./define-tool.js";
import { budgetNote, MAX_TOOL_OUTPUT_CHARS, rowsWithin } from "./output-budget.js";
import { describeBackendError, errorMessage, pathOrError } from "./tool-output.js";

export const LS_TOOL_NAME = "ls";

/** The `ls` description, mentioning only tools the model can see. */
export function lsDescription(ctx: Pick<FsToolContext, "mentions">): string {
  const glob = ctx.mentions("glob") ? " To find files by name across directories, use glob." : "";
  return `List one directory: a line per entry with size and modified time; directories end with /.${glob}`;
}

/** Formats a listing: `path  size  modified`, directories bare. */
export function formatListing(files: FileInfo[]): string {
  if (files.length === 0) return "No files found";
  return files.map(listingRow).join("\n");
}

// One entry's row: a name holding a line break stays one entry when the output is capped.
function listingRow(f: FileInfo): string {
  if (f.isDir) return f.path;
  const parts = [f.path];
  if (f.size !== undefined) parts.push(`${f.size} B`);
  if (f.modifiedAt) parts.push(f.modifiedAt.slice(0, 16).replace("T", " "));
  return parts.join("  ");
}

/** Builds the `ls` tool. */
export function createLsTool(ctx: FsToolContext) {
  return defineTool<{ path?: string }>({
    name: LS_TOOL_NAME,
    description: lsDescription(ctx),
    schema: {
      type: "object",
      properties: { path: { type: "string", description: "Absolute directory, e.g. /" } },
      required: ["path"],
    },
    run: async ({ path: raw }, config) => {
      const checked = pathOrError(raw ?? "/");
      if ("error" in checked) return errorMessage(config, LS_TOOL_NAME, checked.error);
      const denied = ctx.guard.read(checked.path);
      if (denied) return errorMessage(config, LS_TOOL_NAME, denied);
      const result = await ctx.backend.ls(checked.path);
      if (result.error) {
        return errorMessage(
          config,
          LS_TOOL_NAME,
          // From ls itself, "check the path with ls" would be circular: suggest only glob.
          describeBackendError(
            result.error,
            checked.path,
            (t) => t !== "ls" && ctx.mentions(t),
            ctx.execution,
          ),
        );
      }
      const files = ctx.guard.visibleInfos(result.files ?? []);
      if (files.length === 0) return formatListing(files);
      const rows = [...files].sort((a, b) => a.path.localeCompare(b.path)).map(listingRow);
      const { text, kept } = rowsWithin(rows, ctx.outputChars ?? MAX_TOOL_OUTPUT_CHARS);
      if (kept === rows.length) return text;
      const narrow = ctx.mentions("glob")
        ? "List a subdirectory, or find names with glob."
        : "List a subdirectory.";
      return `${text}\n\n${budgetNote(kept, rows.length, "entries", narrow)}`;
    },
  });
}
