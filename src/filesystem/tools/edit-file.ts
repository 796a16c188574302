import type { FsToolContext } from "../fs-context.js";
import { defineTool } from "./define-tool.js";
import { describeBackendError, errorMessage, pathOrError } from "./tool-output.js";

export const EDIT_FILE_TOOL_NAME = "edit_file";

/** The `edit_file` description, mentioning only tools the model can see. */
export function editFileDescription(ctx: Pick<FsToolContext, "mentions">): string {
  const read = ctx.mentions("read_file") ? " Read the file first;" : "";
  return `Replace exact text in a file. old_string must match the file exactly, whitespace included, and be unique unless replace_all is true.${read} copy old_string without the line-number prefix, adding nearby lines to make it unique.`;
}

/** Builds the `edit_file` tool. */
export function createEditFileTool(ctx: FsToolContext) {
  return defineTool<{
    file_path: string;
    old_string: string;
    new_string: string;
    replace_all?: boolean;
  }>({
    name: EDIT_FILE_TOOL_NAME,
    description: editFileDescription(ctx),
    schema: {
      type: "object",
      properties: {
        file_path: { type: "string" },
        old_string: { type: "string", minLength: 1 },
        new_string: { type: "string" },
        replace_all: { type: "boolean" },
      },
      required: ["file_path", "old_string", "new_string"],
    },
    run: async ({ file_path, old_string, new_string, replace_all = false }, config) => {
      const fail = (text: string) => errorMessage(config, EDIT_FILE_TOOL_NAME, text);
      const checked = pathOrError(file_path);
      if ("error" in checked) return fail(checked.error);
      const path = checked.path;
      const denied = ctx.guard.write(path);
      if (denied) return fail(denied);
      if (old_string === new_string) {
        return fail("old_string and new_string are identical; nothing would change.");
      }
      const result = await ctx.backend.edit(path, old_string, new_string, {
        replaceAll: replace_all,
      });
      if (result.error?.code === "string_not_found") {
        const read = ctx.mentions("read_file") ? " Read the file and" : "";
        return fail(
          `old_string was not found in ${path}.${read} copy the exact text, including whitespace and indentation.`,
        );
      }
      if (result.error?.code === "not_unique") {
        return fail(
          `old_string appears ${result.occurrences ?? "several"} times in ${path}. Add surrounding lines to make it unique, or set replace_all to true to replace every occurrence.`,
        );
      }
      if (result.error)
        return fail(describeBackendError(result.error, path, ctx.mentions, ctx.execution));
      const n = result.occurrences ?? 1;
      return `Edited ${path}: replaced ${n} occurrence${n === 1 ? "" : "s"}.`;
    },
  });
}
