import { ToolMessage } from "@langchain/core/messages";
import { mediaTypeOf } from "../../backends/protocol/media-types.js";
import type { ReadResult } from "../../backends/protocol/protocol.js";
import type { FsToolContext } from "../fs-context.js";
import { defineTool } from "./define-tool.js";
import { describeBackendError, errorMessage, pathOrError, toolCallIdOf } from "./tool-output.js";

export const READ_FILE_TOOL_NAME = "read_file";
/** Lines per page when the model gives no `limit`. */
export const DEFAULT_READ_LINES = 100;
/** The most lines one call may ask for. */
export const MAX_READ_LINES = 2000;
/** A source line longer than this is shown as continuation rows N, N.1, N.2, ... */
export const MAX_ROW_CHARS = 5000;
/** The rendered page is cut (at a whole line) past this many characters. */
export const MAX_READ_OUTPUT_CHARS = 80_000;
/** Largest file attached as a multimodal block. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** The `read_file` description, mentioning only tools the model can see. */
export function readFileDescription(ctx: Pick<FsToolContext, "mentions">): string {
  const edit = ctx.mentions("edit_file") ? " Read a file before editing it." : "";
  return `Read a file. Text comes back as numbered lines ("12  text"), ${DEFAULT_READ_LINES} at a time; offset N starts at line N+1, and a footer gives the next offset when more remains. Images, audio, video, PDF and PPT come back as attachments (max 10 MB).${edit} Not for directories.`;
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
  let body = numberLines(lines, first).join("\n");
  let cut = "";
  if (body.length > MAX_READ_OUTPUT_CHARS) {
    shown = wholeLinesThatFit(lines, first);
    if (shown > 0) {
      body = numberLines(lines.slice(0, shown), first).join("\n");
      cut = " (page cut to fit the output limit)";
    } else {
      // The first line alone is over the cap: show its leading rows and say the rest is cut,
      // never a silent mid-row slice.
      shown = 1;
      const line = lines[0]!;
      const rows = leadingRowsThatFit(line, first);
      body = rows.join("\n");
      const lastMark = rows[rows.length - 1]!.trimStart().split(" ", 1)[0];
      cut = `; line ${first} has ${line.length} characters and is cut after row ${lastMark} by the output limit`;
    }
  }
  const last = first + shown - 1;
  if (last < total) {
    return `${body}\n\n[Lines ${first}-${last} of ${total}${cut}. More remain: read from offset ${last}.]`;
  }
  if (cut) return `${body}\n\n[Lines ${first}-${last} of ${total}${cut}.]`;
  return body;
}

// How many whole lines of the page render within the cap (0 when the first line alone does not).
function wholeLinesThatFit(lines: string[], first: number): number {
  // Estimate with each line's own width, then shrink: the page's shared width can only be wider.
  let size = 0;
  let keep = 0;
  while (keep < lines.length) {
    const cost = numberLines([lines[keep]!], first + keep).join("\n").length + 1;
    if (size + cost - 1 > MAX_READ_OUTPUT_CHARS) break;
    size += cost;
    keep++;
  }
  while (
    keep > 0 &&
    numberLines(lines.slice(0, keep), first).join("\n").length > MAX_READ_OUTPUT_CHARS
  ) {
    keep--;
  }
  return keep;
}

// The leading rows (N, N.1, ...) of one over-long line that render within the cap.
function leadingRowsThatFit(line: string, lineNo: number): string[] {
  const render = (rows: number) => numberLines([line.slice(0, rows * MAX_ROW_CHARS)], lineNo);
  let rows = 1;
  while (
    rows * MAX_ROW_CHARS < line.length &&
    render(rows + 1).join("\n").length <= MAX_READ_OUTPUT_CHARS
  ) {
    rows++;
  }
  return render(rows);
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
        limit: { type: "integer", minimum: 1, maximum: MAX_READ_LINES },
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
          describeBackendError(page.error, path, ctx.mentions, ctx.execution),
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
