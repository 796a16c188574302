import { FS_TOOL_NAMES, type FsToolName } from "delve";
import { describe, expect, it } from "vitest";
import {
  fsTools,
  openAiForm,
  ScriptedExecBackend,
  surfaceChars,
  surfaceText,
  visibleTools,
} from "./fs-harness.js";

// Every tool name a file tool's text could point the model at.
const ALL_NAMES = [...FS_TOOL_NAMES, "task"];

/** The tool names `text` mentions as whole words, in the order of ALL_NAMES. */
function namesIn(text: string): string[] {
  return ALL_NAMES.filter((name) => new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(text));
}

/** Every tool name a visible tool's model-facing text mentions that the model cannot see. */
function absentMentions(tools: ReturnType<typeof openAiForm>): string[] {
  const visible = new Set(tools.map((t) => t.function.name));
  const problems: string[] = [];
  for (const { function: fn } of tools) {
    const params = (fn.parameters ?? {}) as { properties?: Record<string, any> };
    const props = params.properties ?? {};
    // A tool's own parameter (grep's `glob`) is not a mention of the tool of that name.
    const own = new Set(Object.keys(props));
    const texts = [fn.description ?? "", ...Object.values(props).map((p) => p.description ?? "")];
    for (const name of namesIn(texts.join("\n"))) {
      if (!visible.has(name) && !own.has(name)) problems.push(`${fn.name} mentions ${name}`);
    }
  }
  return problems;
}

/** Every subset of the file tools that includes read_file (the only valid whitelists). */
function validWhitelists(): FsToolName[][] {
  const others = FS_TOOL_NAMES.filter((n) => n !== "read_file");
  const subsets: FsToolName[][] = [];
  for (let mask = 0; mask < 1 << others.length; mask++) {
    subsets.push(["read_file", ...others.filter((_, i) => mask & (1 << i))]);
  }
  return subsets;
}

describe("the file tools' model-facing surface", () => {
  it("the default set shows seven tools, execute registered but hidden", async () => {
    const { middleware } = fsTools();
    expect(middleware.tools?.map((t: any) => t.name)).toEqual([...FS_TOOL_NAMES]);
    const names = (await visibleTools(middleware)).map((t) => t.name);
    expect(names).toEqual(["ls", "read_file", "write_file", "edit_file", "delete", "glob", "grep"]);
  });

  it("the whitelist ls, read_file, grep shows three tools whose texts name only each other", async () => {
    const { middleware } = fsTools({ tools: ["ls", "read_file", "grep"] });
    const tools = openAiForm(await visibleTools(middleware));
    expect(tools.map((t) => t.function.name)).toEqual(["ls", "read_file", "grep"]);
    expect(absentMentions(tools)).toEqual([]);
    expect(surfaceText(await visibleTools(middleware))).toMatchInlineSnapshot(`
      "## ls
      List one directory: a line per entry with size and modified time; directories end with /.
      {"type":"object","properties":{"path":{"type":"string","description":"Absolute directory, e.g. /"}},"required":["path"]}

      ## read_file
      Read a file. Text comes back as numbered lines ("12  text"), 100 at a time; offset N starts at line N+1, and a footer gives the next offset when more remains. Images, audio, video, PDF and PPT come back as attachments (max 10 MB). Not for directories.
      {"type":"object","properties":{"file_path":{"type":"string"},"offset":{"type":"integer","minimum":0},"limit":{"type":"integer","minimum":1,"maximum":2000}},"required":["file_path"]}

      ## grep
      Search file contents for a literal string (not a regex). output_mode: files_with_matches (default, paths), content (path, then "n: text" lines), count (path: n). Narrow with path (a directory or file) and glob (a file-name filter, e.g. *.md). Stops at 1000 matches or the output limit and says so.
      {"type":"object","properties":{"pattern":{"type":"string","minLength":1},"path":{"type":"string"},"glob":{"type":"string"},"output_mode":{"type":"string","enum":["files_with_matches","content","count"]}},"required":["pattern"]}"
    `);
  });

  it("with an executing backend execute is visible and its text names the file tools", async () => {
    const backend = new ScriptedExecBackend(() => ({ output: "", exitCode: 0, truncated: false }));
    const { middleware } = fsTools({ backend });
    const names = openAiForm(await visibleTools(middleware)).map((t) => t.function.name);
    expect(names).toEqual([...FS_TOOL_NAMES]);
  });

  it("no whitelist makes a description name a tool the model cannot see (all 128, both backends)", async () => {
    const problems: string[] = [];
    let checked = 0;
    let mentionsSeen = 0;
    for (const whitelist of validWhitelists()) {
      for (const backend of [
        undefined,
        new ScriptedExecBackend(() => ({ output: "", exitCode: 0, truncated: false })),
      ]) {
        const { middleware } = fsTools({ tools: whitelist, backend });
        const tools = openAiForm(await visibleTools(middleware));
        for (const p of absentMentions(tools)) problems.push(`[${whitelist.join(",")}] ${p}`);
        mentionsSeen += tools.flatMap((t) => namesIn(t.function.description ?? "")).length;
        checked++;
      }
    }
    expect(checked).toBe(256);
    // The check must be able to fail: descriptions do name the tools that are present.
    expect(mentionsSeen).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });

  it("the checker catches a description naming an absent tool", () => {
    const fake = [
      {
        type: "function" as const,
        function: {
          name: "ls",
          description: "List; then use read_file or execute.",
          parameters: {},
        },
      },
    ];
    expect(absentMentions(fake as any)).toEqual(["ls mentions read_file", "ls mentions execute"]);
  });

  it("a tool hidden elsewhere (a profile) is not named by the others", async () => {
    const { middleware } = fsTools({ hiddenElsewhere: new Set(["edit_file", "glob", "grep"]) });
    const tools = openAiForm(await visibleTools(middleware));
    const byName = Object.fromEntries(tools.map((t) => [t.function.name, t.function.description]));
    expect(byName.write_file).not.toContain("edit_file");
    expect(byName.ls).not.toContain("glob");
    expect(byName.read_file).not.toMatch(/edit/);
    // Without the profile they are named: the filter above is what removed them.
    const plain = openAiForm(await visibleTools(fsTools().middleware));
    const plainByName = Object.fromEntries(
      plain.map((t) => [t.function.name, t.function.description]),
    );
    expect(plainByName.write_file).toContain("edit_file");
    expect(plainByName.ls).toContain("glob");
  });

  it("the default visible surface stays lean: at most 2,700 characters for seven tools", async () => {
    const chars = surfaceChars(await visibleTools(fsTools().middleware));
    expect(chars).toBeGreaterThan(1000);
    expect(chars).toBeLessThanOrEqual(2700);
  });
});
