import type { FsToolContext } from "../fs-context.js";
import { defineTool } from "./define-tool.js";
import { describeBackendError, errorMessage, pathOrError } from "./tool-output.js";

export const DELETE_TOOL_NAME = "delete";

/** The `delete` description, mentioning only tools the model can see. */
export function deleteDescription(ctx: Pick<FsToolContext, "mentions">): string {
  const edit = ctx.mentions("edit_file") ? " To change a file, use edit_file instead." : "";
  return `Delete a file, or a directory with everything under it. Permanent: there is no undo. Only when removal is wanted.${edit}`;
}

/** Builds the `delete` tool. */
export function createDeleteTool(ctx: FsToolContext) {
  return defineTool<{ file_path: string }>({
    name: DELETE_TOOL_NAME,
    description: deleteDescription(ctx),
    schema: {
      type: "object",
      properties: { file_path: { type: "string" } },
      required: ["file_path"],
    },
    run: async ({ file_path }, config) => {
      const fail = (text: string) => errorMessage(config, DELETE_TOOL_NAME, text);
      const checked = pathOrError(file_path);
      if ("error" in checked) return fail(checked.error);
      const path = checked.path;
      if (path === "/")
        return fail("refusing to delete the root directory. Name a file or directory.");
      const denied = ctx.guard.delete(path);
      if (denied) return fail(denied);
      if (!ctx.backend.delete) return fail("this file system does not support deletion.");
      const result = await ctx.backend.delete(path);
      if (result.error) {
        const why = describeBackendError(result.error, path, ctx.mentions, ctx.execution);
        const done = result.deleted?.length;
        // Part of a directory may be gone already: say so, or the model would retry blindly.
        return fail(
          done
            ? `${why.replace(/[^.]$/, "$&.")} ${done} file${done === 1 ? " was" : "s were"} deleted before that.`
            : why,
        );
      }
      const deleted = result.deleted ?? [];
      if (deleted.length === 1 && deleted[0] === path) return `Deleted ${path}.`;
      return `Deleted ${path} (${deleted.length} file${deleted.length === 1 ? "" : "s"}).`;
    },
  });
}
