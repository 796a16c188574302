import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type Pane, startPane, tmuxHarness } from "./tmux.js";

// Through a real pseudo-terminal: Ctrl-O opens every folded result (expand-all, as Claude
// Code's ctrl+o), a decided call counts in the result line, and --record keeps recording
// after the session reopens (/clear).

vi.setConfig({ testTimeout: 120_000 });

const h = tmuxHarness();

const MODEL = ["--model", "openai:delve-unpriced-model"];
const PROMPT = "› ▌";
const lines = (prefix: string) =>
  `${Array.from({ length: 6 }, (_, i) => `${prefix} ${i + 1}`).join("\n")}\n`;

describe("folded results, the result line, --record across a reopen", () => {
  let pane: Pane;
  let ws: string;
  afterAll(() => pane?.close());

  it("Ctrl-O shows every folded result in full, later ones come whole; again folds", async () => {
    ws = h.workspace({ "a.txt": lines("alpha"), "b.txt": lines("beta"), "c.txt": lines("gamma") });
    h.openai.script([
      {
        toolCalls: [
          { name: "read_file", args: { file_path: "/a.txt" } },
          { name: "read_file", args: { file_path: "/b.txt" } },
        ],
      },
      { text: "Read both." },
      { toolCalls: [{ name: "read_file", args: { file_path: "/c.txt" } }] },
      { text: "Read the third." },
      { toolCalls: [{ name: "read_file", args: { file_path: "/a.txt" } }] },
      { text: "Read a again." },
    ]);
    pane = startPane({ cwd: ws, env: h.env(), args: [...MODEL, "--record", "rec.json"] });
    await pane.waitFor(PROMPT);
    pane.type("read two");
    pane.keys("Enter");
    const folded = await pane.waitFor("✓ done");
    expect(folded.match(/\(ctrl\+o shows all\)/g)).toHaveLength(2);
    expect(folded).not.toMatch(/alpha 6|beta 6/);
    pane.keys("C-o");
    const open = await pane.waitFor("full result of read_file (2/2):");
    expect(open).toContain("full result of read_file (1/2):");
    expect(open).toMatch(/alpha 6[\s\S]*beta 6/);
    expect(open).toContain("expanded: tool results show in full");
    pane.type("read the third");
    pane.keys("Enter");
    const whole = await pane.waitFor("Read the third.");
    expect(whole).toMatch(/gamma 6/);
    expect(whole.match(/\(ctrl\+o shows all\)/g)).toHaveLength(2);
    pane.keys("C-o");
    await pane.waitFor("tool results fold again");
    pane.type("read a again");
    pane.keys("Enter");
    const again = await pane.waitFor("Read a again.");
    expect(again.match(/\(ctrl\+o shows all\)/g)).toHaveLength(3);
  });

  it("a call run after its approval counts in the result line", async () => {
    h.openai.script([
      { toolCalls: [{ name: "write_file", args: { file_path: "/w.txt", content: "w\n" } }] },
      { text: "Wrote w." },
    ]);
    await pane.waitFor(PROMPT);
    pane.type("write w");
    pane.keys("Enter");
    await pane.waitFor("y approve · n reject");
    pane.type("y");
    const screen = await pane.waitFor("Wrote w.");
    const result = await pane.waitFor(/✓ done · 1 turn · 1 tool call · [\d.]+s\n(?![\s\S]*✓ done)/);
    expect(result).toBeTruthy();
    expect(screen).toContain("created w.txt");
  });

  it("--record keeps recording after /clear: the cassette holds both threads' calls", async () => {
    const calls = h.openai.accepted().length;
    await pane.waitFor(PROMPT);
    pane.type("/clear");
    pane.keys("Enter");
    await pane.waitFor(/· new[\s\S]*· new/);
    h.openai.script([{ text: "In the new thread." }]);
    pane.type("hello new thread");
    pane.keys("Enter");
    await pane.waitFor(/In the new thread\.\n✓ done/);
    pane.type("/quit");
    pane.keys("Enter");
    await pane.waitFor("[delve exited 0]");
    const cassette = JSON.parse(fs.readFileSync(path.join(ws, "rec.json"), "utf8"));
    const steps = cassette.tasks.run.runs[0];
    expect(steps).toHaveLength(calls + 1);
    expect(steps.at(-1).response.content).toBe("In the new thread.");
    expect(steps[0].response.tool_calls.map((c: any) => c.args.file_path)).toEqual([
      "/a.txt",
      "/b.txt",
    ]);
  });
});
