import { splitLines } from "../../backends/protocol/text-content.js";
import type { FsToolContext } from "../fs-context.js";
import { defineTool } from "./define-tool.js";
import { describeBackendError, errorMessage, pathOrError } from "./tool-output.js";

export const WRITE_FILE_TOOL_NAME = "write_file";

/** The `write_file` description, mentioning only tools the model can see. */
export function writeFileDescription(ctx: Pick<FsToolContext, "mentions">): string {
  const edit = ctx.mentions("edit_file") ? " To change part of a file, use edit_file." : "";
  return `Create a file, or overwrite an existing one with the full new content. Parent directories are created.${edit}`;
}

/** Builds the `write_file` tool. */
export function createWriteFileTool(ctx: FsToolContext) {
  return defineTool<{ file_path: string; content: string }>({
    name: WRITE_FILE_TOOL_NAME,
    description: writeFileDescription(ctx),
    schema: {
      type: "object",
      properties: { file_path: { type: "string" }, content: { type: "string" } },
      required: ["file_path", "content"],
    },
    run: async ({ file_path, content }, config) => {
      const checked = pathOrError(file_path);
      if ("error" in checked) return errorMessage(config, WRITE_FILE_TOOL_NAME, checked.error);
      const path = checked.path;
      const denied = ctx.guard.write(path);
      if (denied) return errorMessage(config, WRITE_FILE_TOOL_NAME, denied);
      const result = await ctx.backend.write(path, content);
      if (result.error) {
        return errorMessage(
          config,
          WRITE_FILE_TOOL_NAME,
          describeBackendError(result.error, path, ctx.mentions, ctx.execution),
        );
      }
      const lines = splitLines(content).length;
      const size = `${lines} line${lines === 1 ? "" : "s"}`;
      return result.created === false
        ? `Overwrote ${path} (${size}); its previous content is gone.`
        : `Wrote ${path} (${size}).`;
    },
  });
}
