import { describe, expect, it } from "vitest";
import {
  DEFAULT_READ_LINES,
  MAX_READ_OUTPUT_CHARS,
  MAX_ROW_CHARS,
} from "../../../src/filesystem/tools/read-file.js";
import { fsTools, surfaceText, textOf, toolNamed } from "./fs-harness.js";

const numbered = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => `line ${from + i}`).join("\n");

/** Follows the footers from offset 0 to the end; returns every page's text. */
async function readAllPages(ok: (name: string, args: Record<string, unknown>) => Promise<string>) {
  const pages: string[] = [];
  let offset: number | undefined = 0;
  while (offset !== undefined) {
    const page = await ok("read_file", { file_path: "/f.txt", offset });
    pages.push(page);
    const next = /read from offset (\d+)\.\]$/.exec(page);
    offset = next ? Number(next[1]) : undefined;
    if (pages.length > 50) throw new Error("footers never end");
  }
  return pages;
}

describe("read_file", () => {
  it("the model-facing text, with and without edit_file", () => {
    expect(surfaceText([toolNamed(fsTools().tools, "read_file")])).toMatchInlineSnapshot(`
      "## read_file
      Read a file. Text comes back as numbered lines ("12  text"), 100 at a time; offset N starts at line N+1, and a footer gives the next offset when more remains. Images, audio, video, PDF and PPT come back as attachments (max 10 MB). Read a file before editing it. Not for directories.
      {"type":"object","properties":{"file_path":{"type":"string"},"offset":{"type":"integer","minimum":0},"limit":{"type":"integer","minimum":1,"maximum":2000}},"required":["file_path"]}"
    `);
    const alone = fsTools({ tools: ["read_file"] }).tools;
    expect(toolNamed(alone, "read_file").description).not.toMatch(/edit/i);
  });

  it("numbers lines right-aligned to the page's widest number, two spaces, then the text", async () => {
    const { backend, ok } = fsTools();
    await backend.write("/f.txt", `${numbered(12)}\n`);
    expect(await ok("read_file", { file_path: "/f.txt", offset: 6 })).toBe(
      [" 7  line 7", " 8  line 8", " 9  line 9", "10  line 10", "11  line 11", "12  line 12"].join(
        "\n",
      ),
    );
    const small = await ok("read_file", { file_path: "/f.txt", limit: 3 });
    expect(small.split("\n").slice(0, 3)).toEqual(["1  line 1", "2  line 2", "3  line 3"]);
    expect(small).not.toContain("\t");
  });

  it("keeps indentation and empty lines exactly", async () => {
    const { backend, ok } = fsTools();
    await backend.write("/f.txt", "def f():\n\n    return 1\n");
    expect(await ok("read_file", { file_path: "/f.txt" })).toBe(
      "1  def f():\n2  \n3      return 1",
    );
  });

  it(`reads ${DEFAULT_READ_LINES} lines by default; the footer gives the next offset while more remains`, async () => {
    const { backend, ok } = fsTools();
    await backend.write("/f.txt", numbered(250));
    const first = await ok("read_file", { file_path: "/f.txt" });
    expect(first.split("\n")).toHaveLength(DEFAULT_READ_LINES + 2);
    expect(first.split("\n")[0]).toBe("  1  line 1");
    expect(
      first.endsWith("100  line 100\n\n[Lines 1-100 of 250. More remain: read from offset 100.]"),
    ).toBe(true);
    const middle = await ok("read_file", { file_path: "/f.txt", offset: 95, limit: 10 });
    expect(middle).toBe(
      `${Array.from({ length: 10 }, (_, i) => `${String(96 + i).padStart(3)}  line ${96 + i}`).join("\n")}\n\n[Lines 96-105 of 250. More remain: read from offset 105.]`,
    );
    const last = await ok("read_file", { file_path: "/f.txt", offset: 200 });
    expect(last.split("\n").at(-1)).toBe("250  line 250");
    expect(last).not.toContain("[");
  });

  it("following the footers reads every line exactly once", async () => {
    const { backend, ok } = fsTools();
    await backend.write("/f.txt", numbered(333));
    const pages = await readAllPages(ok);
    expect(pages).toHaveLength(4);
    const rows = pages.flatMap((p) => p.replace(/\n\n\[Lines .*\]$/, "").split("\n"));
    expect(rows.map((r) => r.replace(/^ *\d+ {2}/, ""))).toEqual(numbered(333).split("\n"));
  });

  it(`a line over ${MAX_ROW_CHARS} characters continues as rows N.1, N.2 with nothing dropped`, async () => {
    const { backend, ok } = fsTools();
    const long = Array.from({ length: 12_001 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(
      "",
    );
    await backend.write("/f.txt", `short\n${long}\nafter\n`);
    const rows = (await ok("read_file", { file_path: "/f.txt" })).split("\n");
    expect(rows.map((r) => r.slice(0, 5))).toEqual(["  1  ", "  2  ", "2.1  ", "2.2  ", "  3  "]);
    expect(rows[1]!.length).toBe(5 + MAX_ROW_CHARS);
    expect(
      rows
        .slice(1, 4)
        .map((r) => r.slice(5))
        .join(""),
    ).toBe(long);
    expect(rows[4]).toBe("  3  after");
  });

  it("an offset past the end is an error result saying how many lines there are", async () => {
    const { backend, call } = fsTools();
    await backend.write("/f.txt", numbered(3));
    const reply = await call("read_file", { file_path: "/f.txt", offset: 3 });
    expect(reply.status).toBe("error");
    expect(textOf(reply)).toBe(
      "Error: offset 3 is past the end of /f.txt (3 lines). Use an offset below 3.",
    );
  });

  it("an empty file says it is empty", async () => {
    const { backend, ok } = fsTools();
    await backend.write("/empty.md", "");
    expect(await ok("read_file", { file_path: "/empty.md" })).toBe("/empty.md is empty.");
  });

  it("a missing file is an error result naming the path", async () => {
    const { fails } = fsTools();
    expect(await fails("read_file", { file_path: "/kb/none.md" })).toBe(
      "Error: /kb/none.md does not exist. Check the path with ls.",
    );
    const narrow = fsTools({ tools: ["read_file", "glob"] });
    expect(await narrow.fails("read_file", { file_path: "/x.md" })).toBe(
      "Error: /x.md does not exist. Check the path with glob.",
    );
    expect(await fsTools({ tools: ["read_file"] }).fails("read_file", { file_path: "/x.md" })).toBe(
      "Error: /x.md does not exist.",
    );
  });

  it("a directory is an error result", async () => {
    const { backend, fails } = fsTools();
    await backend.write("/d/a.md", "x");
    expect(await fails("read_file", { file_path: "/d" })).toBe(
      "Error: /d is a directory, not a file.",
    );
  });

  it("an image comes back as a multimodal block with its MIME type and base64 bytes", async () => {
    const { backend, call } = fsTools();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
    await backend.uploadFiles([
      { path: "/img/logo.png", content: png },
      { path: "/doc/spec.PDF", content: new Uint8Array([0x25, 0x50, 0x44, 0x46, 0, 0xff]) },
    ]);
    const reply = await call("read_file", { file_path: "/img/logo.png" });
    expect(reply.status).not.toBe("error");
    expect(reply.name).toBe("read_file");
    expect(reply.content).toEqual([
      { type: "image", mimeType: "image/png", data: Buffer.from(png).toString("base64") },
    ]);
    const pdf = await call("read_file", { file_path: "/doc/spec.PDF" });
    expect(pdf.content).toEqual([{ type: "file", mimeType: "application/pdf", data: "JVBERgD/" }]);
  });

  it("a binary file that is not a media type is a clear error result", async () => {
    const { backend, fails } = fsTools();
    await backend.uploadFiles([{ path: "/data.bin", content: new Uint8Array([0, 1, 2, 0xff]) }]);
    expect(await fails("read_file", { file_path: "/data.bin" })).toBe(
      "Error: /data.bin is a binary file (4 bytes) and has no text to show.",
    );
  });

  it("an attachment over 10 MB is an error result saying the limit", async () => {
    const { backend, fails } = fsTools();
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big[0] = 0xff;
    await backend.uploadFiles([{ path: "/big.png", content: big }]);
    expect(await fails("read_file", { file_path: "/big.png" })).toBe(
      "Error: /big.png is 10.0 MB; attachments are limited to 10 MB.",
    );
  });

  it(`a page over ${MAX_READ_OUTPUT_CHARS} characters is cut at a whole line and says where to continue`, async () => {
    const { backend, ok } = fsTools();
    const lines = Array.from({ length: 100 }, (_, i) => `${i + 1}:`.padEnd(1000, "y"));
    await backend.write("/f.txt", lines.join("\n"));
    const page = await ok("read_file", { file_path: "/f.txt" });
    const [body, footer] = page.split("\n\n");
    expect(body!.length).toBeLessThanOrEqual(MAX_READ_OUTPUT_CHARS);
    const rows = body!.split("\n");
    // Numbers are as wide as the widest number on this page (two digits), not of the file.
    expect(rows.every((r, i) => r === `${String(i + 1).padStart(2)}  ${lines[i]}`)).toBe(true);
    expect(footer).toBe(
      `[Lines 1-${rows.length} of 100 (page cut to fit the output limit). More remain: read from offset ${rows.length}.]`,
    );
    const rest = await ok("read_file", { file_path: "/f.txt", offset: rows.length });
    expect(rest.split("\n")[0]).toBe(
      `${String(rows.length + 1).padStart(3)}  ${lines[rows.length]}`,
    );
    expect(rest).not.toContain("[Lines");
  });

  it("a single line longer than the output cap shows whole rows and says it was cut", async () => {
    const { backend, ok } = fsTools();
    await backend.write("/f.txt", `${"z".repeat(200_000)}\nnext\n`);
    const page = await ok("read_file", { file_path: "/f.txt" });
    const [body, footer] = page.split("\n\n");
    const rows = body!.split("\n");
    expect(body!.length).toBeLessThanOrEqual(MAX_READ_OUTPUT_CHARS);
    expect(rows.every((r) => r.length === 6 + MAX_ROW_CHARS)).toBe(true);
    const lastMark = rows.at(-1)!.trim().split(" ")[0];
    expect(lastMark).toBe(`1.${rows.length - 1}`);
    expect(footer).toBe(
      `[Lines 1-1 of 2; line 1 has 200000 characters and is cut after row ${lastMark} by the output limit. More remain: read from offset 1.]`,
    );
    expect(await ok("read_file", { file_path: "/f.txt", offset: 1 })).toBe("2  next");
  });

  it("hostile paths are error results, never exceptions", async () => {
    const { fails } = fsTools();
    for (const bad of ["../x", "~/x", "/a\0b", "/a/../../etc/passwd"]) {
      expect(await fails("read_file", { file_path: bad })).toMatch(/^Error: invalid path /);
    }
  });
});
