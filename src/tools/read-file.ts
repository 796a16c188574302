import { ToolMessage } from "@langchain/core/messages";
import { mediaTypeOf } from "../backends/media-types.js";
import type { ReadResult } from "../backends/protocol.js";
import { defineTool } from "./define-tool.js";
import type { FsToolContext } from "./fs-context.js";
import { describeBackendError, errorMessage, pathOrError, toolCallIdOf } from "./tool-output.js";

export const READ_FILE_TOOL_NAME = "read_file";
/** Lines per page when the model gives no `limit`. */
export const DEFAULT_READ_LINES = 100;
/** A source line longer than this is shown as continuation rows N, N.1, N.2, ... */
export const MAX_ROW_CHARS = 5000;
/** The rendered page is cut (at a whole line) past this many characters. */
export const MAX_READ_OUTPUT_CHARS = 80_000;
/** Largest file attached as a multimodal block. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** The `read_file` description, mentioning only tools the model can see. */
export function readFileDescription(ctx: Pick<FsToolContext, "mentions">): string {
  const edit = ctx.mentions("edit_file") ? " Read a file before editing it." : "";
  return `Read a file. Text comes back as numbered lines ("12  text"), ${DEFAULT_READ_LINES} lines from a 0-based offset by default; a footer gives the next offset when more remains. Images, audio, video, PDF and PPT come back as attachments (max 10 MB).${edit} Not for directories.`;
}

/** Right-aligned line numbers, two spaces, the text; over-long lines continue as N.1, N.2. */
export function numberLines(lines: string[], firstLine: number): string[] {
  const rows: Array<[string, string]> = [];
  lines.forEach((line, i) => {
    const n = firstLine + i;
    if (line.length <= MAX_ROW_CHARS) {
      rows.push([String(n), line]);
      return;
    }
    for (let part = 0; part * MAX_ROW_CHARS < line.length; part++) {
      const chunk = line.slice(part * MAX_ROW_CHARS, (part + 1) * MAX_ROW_CHARS);
      rows.push([part === 0 ? String(n) : `${n}.${part}`, chunk]);
    }
  });
  const width = rows.reduce((w, [mark]) => Math.max(w, mark.length), 0);
  return rows.map(([mark, text]) => `${mark.padStart(width)}  ${text}`);
}

/** Renders one text page with its footer, cutting at a whole line past the output cap. */
export function formatTextPage(path: string, page: ReadResult, offset: number): string {
  const lines = page.lines ?? [];
  const total = page.totalLines ?? lines.length;
  if (total === 0) return `${path} is empty.`;
  const first = page.startLine ?? offset + 1;
  let shown = lines.length;
  let rows = numberLines(lines, first);
  let body = rows.join("\n");
  if (body.length > MAX_READ_OUTPUT_CHARS) {
    // Keep whole source lines only: drop lines from the end until the page fits.
    let size = 0;
    let keep = 0;
    const perLine = lines.map((l) => numberLines([l], 0).join("\n").length + 1);
    while (keep < lines.length && size + perLine[keep]! <= MAX_READ_OUTPUT_CHARS) {
      size += perLine[keep]!;
      keep++;
    }
    shown = Math.max(keep, 1);
    rows = numberLines(lines.slice(0, shown), first);
    body = rows.join("\n").slice(0, MAX_READ_OUTPUT_CHARS);
  }
  const last = first + shown - 1;
  if (last < total) {
    const cut = shown < lines.length ? " (page cut to fit the output limit)" : "";
    return `${body}\n\n[Lines ${first}-${last} of ${total}${cut}. More remain: read from offset ${last}.]`;
  }
  return body;
}

/** Builds the `read_file` tool. */
export function createReadFileTool(ctx: FsToolContext) {
  return defineTool<{ file_path: string; offset?: number; limit?: number }>({
    name: READ_FILE_TOOL_NAME,
    description: readFileDescription(ctx),
    schema: {
      type: "object",
      properties: {
        file_path: { type: "string" },
        offset: { type: "integer", minimum: 0 },
        limit: { type: "integer", minimum: 1 },
      },
      required: ["file_path"],
    },
    run: async ({ file_path, offset = 0, limit = DEFAULT_READ_LINES }, config) => {
      const checked = pathOrError(file_path);
      if ("error" in checked) return errorMessage(config, READ_FILE_TOOL_NAME, checked.error);
      const path = checked.path;
      const denied = ctx.guard.read(path);
      if (denied) return errorMessage(config, READ_FILE_TOOL_NAME, denied);
      const page = await ctx.backend.read(path, { offset, limit });
      if (page.error) {
        return errorMessage(
          config,
          READ_FILE_TOOL_NAME,
          describeBackendError(page.error, path, ctx.mentions),
        );
      }
      if (page.kind === "binary") return attachment(path, page, config);
      const total = page.totalLines ?? 0;
      if (total > 0 && offset >= total) {
        return errorMessage(
          config,
          READ_FILE_TOOL_NAME,
          `offset ${offset} is past the end of ${path} (${total} lines). Use an offset below ${total}.`,
        );
      }
      return formatTextPage(path, page, offset);
    },
  });
}

function attachment(path: string, page: ReadResult, config: unknown) {
  const bytes = page.bytes ?? new Uint8Array();
  const media = mediaTypeOf(path);
  if (!media) {
    return errorMessage(
      config,
      READ_FILE_TOOL_NAME,
      `${path} is a binary file (${bytes.byteLength} bytes) and has no text to show.`,
    );
  }
  if (bytes.byteLength > MAX_ATTACHMENT_BYTES) {
    const mb = (bytes.byteLength / 1024 / 1024).toFixed(1);
    return errorMessage(
      config,
      READ_FILE_TOOL_NAME,
      `${path} is ${mb} MB; attachments are limited to 10 MB.`,
    );
  }
  return new ToolMessage({
    content: [
      {
        type: media.kind,
        mimeType: media.mimeType,
        data: Buffer.from(bytes).toString("base64"),
      },
    ] as any,
    tool_call_id: toolCallIdOf(config),
    name: READ_FILE_TOOL_NAME,
  });
}
