import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type Pane, startPane, tmuxHarness } from "./tmux.js";

// /rewind in the interactive session through a real pseudo-terminal (tmux): a turn whose shell
// command changed files is rewound from the workspace snapshots, a file the user changed since
// is kept until `/rewind N --force`. The real binary, ChatOpenAI on the local fake.

vi.setConfig({ testTimeout: 120_000 });

const h = tmuxHarness();

const PROMPT = "› ▌";
const ARGS = ["--model", "openai:delve-unpriced-model", "--approval", "yolo", "--sandbox", "none"];

describe("/rewind of a shell command's changes", () => {
  let pane: Pane;
  afterAll(() => pane?.close());

  it("shows the diff of what it undoes with the conflict kept; n cancels; --force overwrites it on y", async () => {
    const ws = h.workspace({ "notes.txt": "original\n" });
    const read = (file: string) =>
      fs.existsSync(path.join(ws, file)) ? fs.readFileSync(path.join(ws, file), "utf8") : undefined;
    pane = startPane({ cwd: ws, env: h.env(), args: ARGS });
    await pane.waitFor(PROMPT);
    h.openai.script([{ text: "Hello." }]);
    pane.type("say hello");
    pane.keys("Enter");
    await pane.waitFor("Hello.");
    h.openai.script([
      {
        toolCalls: [
          {
            name: "execute",
            args: { command: "echo made > made.txt && echo changed > notes.txt" },
          },
        ],
      },
      { text: "Shell done." },
    ]);
    await pane.waitFor(PROMPT);
    pane.type("run the shell");
    pane.keys("Enter");
    // The run's end (its closing snapshot) comes after the answer's text: wait for the run's line.
    await pane.waitFor("✓ done · 2 turns");
    expect(read("made.txt")).toBe("made\n");
    // The user edits the command's file before rewinding.
    fs.writeFileSync(path.join(ws, "made.txt"), "the user's\n");

    await pane.waitFor(PROMPT);
    pane.type("/rewind 2");
    pane.keys("Enter");
    const ask = await pane.waitFor("y yes · n no");
    expect(ask).toContain('rewind to before turn 2: "run the shell"?');
    expect(ask).toContain("delete made.txt (changed on disk since: kept)");
    expect(ask).toContain("restore notes.txt");
    expect(ask).toMatch(/-changed\n\s*\+original/);
    expect(ask).toContain("1 kept (changed since) · /rewind 2 --force overwrites");
    pane.type("n");
    await pane.waitFor("cancelled");
    expect(read("notes.txt")).toBe("changed\n");

    await pane.waitFor(PROMPT);
    pane.type("/rewind 2 --force");
    pane.keys("Enter");
    const forced = await pane.waitFor('rewind to before turn 2 (force): "run the shell"?');
    expect(forced).toContain("delete made.txt (changed on disk since: overwritten)");
    pane.type("y");
    const done = await pane.waitFor("⟲ rewound to before turn 2");
    expect(done).toMatch(/restored notes\.txt/);
    expect(done).toMatch(/deleted made\.txt/);
    expect(read("notes.txt")).toBe("original\n");
    expect(read("made.txt")).toBeUndefined();

    await pane.waitFor(PROMPT);
    pane.type("/diff");
    pane.keys("Enter");
    await pane.waitFor("this thread changed no file");
  });
});
