import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "../cli/run-harness.js";
import { type HangingProxy, startHangingProxy } from "./hanging-proxy.js";
import { type Pane, startPane, stopTmux, until } from "./tmux.js";

// The interactive session through a real pseudo-terminal (tmux): the real `delve` binary, the
// real ChatOpenAI against the local fake, screens checked by their text with deadlines. The
// tests of one describe share one session, in order, as a person would use it.

vi.setConfig({ testTimeout: 120_000 });

let h: Harness;
let proxy: HangingProxy;
beforeAll(async () => {
  h = await startHarness();
  proxy = await startHangingProxy(h.openai.url);
});
afterAll(async () => {
  stopTmux();
  await proxy.close();
  await h.close();
});

const MODEL = ["--model", "openai:delve-unpriced-model"];
const PROMPT = "› ▌";
const ESC = String.fromCharCode(27);
/** What the fake received last, as text (the model's view of the thread). */
const lastRequest = () => JSON.stringify(h.openai.accepted().at(-1)?.messages ?? []);

describe("a session: tool calls, approvals, slash commands, exit and resume", () => {
  let pane: Pane;
  let ws: string;
  let threadId: string;
  afterAll(() => pane?.close());

  it("runs a task with a tool call: one line per call, the result folded, ctrl+o shows it all", async () => {
    ws = h.workspace({ "notes.txt": "one\ntwo\nthree\nfour\nfive\nsix\n" });
    fs.writeFileSync(
      path.join(ws, "prices.json"),
      JSON.stringify({ "openai:delve-unpriced-model": { input: 2, output: 8 } }),
    );
    const editor = path.join(ws, "editor.sh");
    fs.writeFileSync(
      editor,
      `#!/bin/sh\nprintf '{"file_path":"/edited.txt","content":"by the reviewer\\\\n"}' > "$1"\n`,
      { mode: 0o755 },
    );
    h.openai.script([
      { toolCalls: [{ name: "read_file", args: { file_path: "/notes.txt" } }] },
      { text: "The notes count to six." },
    ]);
    pane = startPane({
      cwd: ws,
      env: h.env({ NO_COLOR: undefined, EDITOR: editor }),
      args: [...MODEL, "--prices", "prices.json"],
    });
    const start = await pane.waitFor(PROMPT);
    threadId = /thread ([0-9a-f-]{36}) · new/.exec(start)![1]!;
    expect(start).toContain(`resume later: delve --thread ${threadId}`);
    pane.type("read the notes");
    pane.keys("Enter");
    const screen = await pane.waitFor("✓ done");
    expect(screen).toContain("› read the notes");
    expect(screen).toContain("● read_file /notes.txt");
    expect(screen).toMatch(/… \+\d lines \(ctrl\+o shows all\)/);
    expect(screen).toContain("The notes count to six.");
    expect(screen).toMatch(
      /openai:delve-unpriced-model · ask · \d+ in \/ \d+ out · \$0\.\d{4} · ctx \d+/,
    );
    expect(screen).not.toContain("six\n");
    pane.keys("C-o");
    await pane.waitFor("full result of read_file:");
    expect(await pane.waitFor(/^\s+.*six$/m)).toBeTruthy();
  });

  it("asks before a write, showing the diff; y writes it and shows the coloured diff", async () => {
    h.openai.script([
      {
        toolCalls: [
          { name: "write_file", args: { file_path: "/hello.txt", content: "hi there\n" } },
        ],
      },
      { text: "Wrote it." },
    ]);
    pane.type("write hello");
    pane.keys("Enter");
    const ask = await pane.waitFor("y approve · n reject · e edit");
    expect(ask).toContain("approve write_file /hello.txt");
    expect(ask).toContain("+hi there");
    expect(fs.existsSync(path.join(ws, "hello.txt"))).toBe(false);
    pane.type("y");
    await pane.waitFor("Wrote it.");
    expect(fs.readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hi there\n");
    const screen = await pane.waitFor("created hello.txt");
    expect(screen).toContain("✓ approved write_file /hello.txt");
    // Colour on a terminal without NO_COLOR: the added line is green.
    expect(pane.screen({ history: true, escapes: true })).toContain("\u001b[32m+hi there");
  });

  it("n asks for a reason, and the model receives it", async () => {
    h.openai.script([
      { toolCalls: [{ name: "write_file", args: { file_path: "/bad.txt", content: "x\n" } }] },
      { text: "Understood, no bad.txt." },
    ]);
    pane.type("write bad");
    pane.keys("Enter");
    await pane.waitFor("approve write_file /bad.txt");
    pane.type("n");
    await pane.waitFor("why? the model reads it");
    pane.type("use notes.txt instead");
    pane.keys("Enter");
    await pane.waitFor("Understood, no bad.txt.");
    expect(fs.existsSync(path.join(ws, "bad.txt"))).toBe(false);
    expect(lastRequest()).toContain("use notes.txt instead");
    expect(pane.screen({ history: true })).toContain("✗ rejected write_file /bad.txt");
  });

  it("e opens the arguments in $EDITOR and runs the call as edited", async () => {
    h.openai.script([
      {
        toolCalls: [{ name: "write_file", args: { file_path: "/draft.txt", content: "draft\n" } }],
      },
      { text: "Edited write done." },
    ]);
    pane.type("write a draft");
    pane.keys("Enter");
    await pane.waitFor("approve write_file /draft.txt");
    pane.type("e");
    await pane.waitFor("Edited write done.");
    expect(fs.readFileSync(path.join(ws, "edited.txt"), "utf8")).toBe("by the reviewer\n");
    expect(fs.existsSync(path.join(ws, "draft.txt"))).toBe(false);
    expect(pane.screen({ history: true })).toContain("✎ edited write_file");
  });

  it("a writes the narrowest rule to .delve/config.json, says which, and the next such call passes", async () => {
    h.openai.script([
      { toolCalls: [{ name: "write_file", args: { file_path: "/always.txt", content: "1\n" } }] },
      { text: "First always." },
      { toolCalls: [{ name: "write_file", args: { file_path: "/always.txt", content: "2\n" } }] },
      { text: "Second always." },
    ]);
    pane.type("write always");
    pane.keys("Enter");
    const ask = await pane.waitFor("a always");
    const rule = /a writes allow "([^"]+)"/.exec(ask)![1]!;
    pane.type("a");
    await pane.waitFor("First always.");
    await pane.waitFor(`always allow: "${rule}" added to .delve/config.json`);
    const config = JSON.parse(fs.readFileSync(path.join(ws, ".delve", "config.json"), "utf8"));
    expect(config.rules.allow).toEqual([rule]);
    await pane.waitFor(PROMPT);
    pane.type("write always again");
    pane.keys("Enter");
    await pane.waitFor("Second always.");
    expect(fs.readFileSync(path.join(ws, "always.txt"), "utf8")).toBe("2\n");
    // The second call ran without a question: one approval only.
    const screen = pane.screen({ history: true });
    expect(screen.match(/✓ approved write_file \/always\.txt/g)).toHaveLength(1);
    expect(screen).toContain("edited always.txt");
  });

  it("/ lists commands, Tab completes; /cost shows the thread per model and per agent", async () => {
    await pane.waitFor(PROMPT);
    pane.type("/co");
    await pane.waitFor("/cost · tokens and USD");
    pane.type("s");
    // Tab only once "s" is drawn: read in one chunk with it, it would be pasted text.
    await pane.waitFor("› /cos▌");
    pane.keys("Tab");
    await pane.waitFor("› /cost▌");
    pane.keys("Enter");
    const screen = await pane.waitFor("by agent");
    expect(screen).toMatch(/cost of this thread: \$0\.\d{4} · \d+ in \/ \d+ out · \d+ model calls/);
    expect(screen).toMatch(/openai:delve-unpriced-mo\s+\d+ in\s+\d+ out \$0\.\d{4}/);
    expect(screen).toMatch(/main\s+\d+ in/);
  });

  it("/context draws what fills the window as bars", async () => {
    pane.type("/context");
    pane.keys("Enter");
    const screen = await pane.waitFor(/context: [\d.k]+ (of|tokens)/);
    expect(screen).toMatch(/system prompt\s+█+░*\s+[\d.k]+/);
    expect(screen).toMatch(/tools \(\d+\)/);
    expect(screen).toMatch(/messages \(\d+\)/);
  });

  it("/rewind shows what it undoes, then restores the file on y", async () => {
    pane.type("/rewind");
    pane.keys("Enter");
    await pane.waitFor(/2 write hello/);
    pane.type("/rewind 2");
    pane.keys("Enter");
    const ask = await pane.waitFor("y yes · n no");
    expect(ask).toContain('rewind to before turn 2: "write hello"?');
    expect(ask).toMatch(/delete hello\.txt/);
    expect(fs.existsSync(path.join(ws, "hello.txt"))).toBe(true);
    pane.type("y");
    await pane.waitFor("⟲ rewound to before turn 2");
    expect(fs.existsSync(path.join(ws, "hello.txt"))).toBe(false);
    expect(fs.existsSync(path.join(ws, "notes.txt"))).toBe(true);
  });

  it("Ctrl-C once warns, twice exits with the thread id and the resume hint", async () => {
    await pane.waitFor(PROMPT);
    pane.keys("C-c");
    await pane.waitFor("press Ctrl-C again to exit");
    pane.keys("C-c");
    const screen = await pane.waitFor("[delve exited 0]");
    expect(screen).toContain(`resume it: delve -c\n       or: delve --thread ${threadId}`);
  });

  it("delve -c resumes the thread: its id, its last messages, and a follow-up the model sees in context", async () => {
    h.openai.script([{ text: "Resumed fine." }]);
    const again = startPane({ cwd: ws, env: h.env(), args: ["-c"] });
    try {
      const screen = await again.waitFor(PROMPT);
      expect(screen).toContain(`thread ${threadId} · resumed`);
      again.type("are you there");
      again.keys("Enter");
      await again.waitFor("Resumed fine.");
      expect(lastRequest()).toContain("read the notes");
      expect(lastRequest()).toContain("are you there");
    } finally {
      again.close();
    }
  });
});

describe("60 columns, NO_COLOR: Esc, then every other command", () => {
  let pane: Pane;
  let threadId: string;
  afterAll(() => pane?.close());

  it("Esc interrupts a hanging turn and keeps the thread; narrow and colourless", async () => {
    const ws = h.workspace();
    h.openai.script([{ text: "After the interrupt." }]);
    proxy.hangNext();
    pane = startPane({
      cwd: ws,
      env: h.env({ OPENAI_BASE_URL: proxy.url }),
      args: [...MODEL, "--ask-user"],
      cols: 60,
    });
    const start = await pane.waitFor(PROMPT);
    threadId = /thread ([0-9a-f-]{36}) · new/.exec(start)![1]!;
    pane.type("this will hang");
    pane.keys("Enter");
    await pane.waitFor(/working · \d+s · Esc interrupts/);
    await until(() => proxy.held() === 1, "the model call hangs");
    pane.keys("Escape");
    await pane.waitFor("⏹ interrupted · the thread is kept");
    pane.type("go on");
    pane.keys("Enter");
    await pane.waitFor("After the interrupt.");
    const screen = await pane.waitFor("✓ done");
    expect(lastRequest()).toContain("this will hang");
    for (const line of screen.split("\n")) expect(line.length).toBeLessThanOrEqual(60);
    expect(screen).toMatch(/^openai:delve-unpriced-model · ask · \d+ in \/ \d+ out · cost/m);
    // NO_COLOR (the harness's default): no colour escape anywhere on the screen.
    expect(pane.screen({ history: true, escapes: true })).not.toMatch(new RegExp(`${ESC}\\[3\\d`));
  });

  it("/help /diff /tools /approval /model /compact /clear /threads, and a mistyped one", async () => {
    const run = async (line: string, expected: string | RegExp) => {
      pane.type(line);
      pane.keys("Enter");
      return pane.waitFor(expected);
    };
    await run("/help", "/rewind [N]");
    await run("/diff", "this thread changed no file");
    await run("/tools", /tools: \d+ shown \([\d.k]+ tokens\)/);
    await run("/approval yolo", "approval yolo for this thread");
    await run("/model openai:delve-other-model", "model openai:delve-other-model for this thread");
    expect(pane.screen()).toMatch(/^openai:delve-other-model · yolo · /m);
    h.openai.script([{ text: "Summary: the user tested an interrupt." }]);
    await run("/compact", /nothing old enough to summarize yet|compacted: /);
    await run("/frob", "unknown command /frob");
    const fresh = await run(
      "/clear",
      /thread ([0-9a-f-]{36}) · new[\s\S]*thread ([0-9a-f-]{36}) · new/,
    );
    const ids = [...fresh.matchAll(/thread ([0-9a-f-]{36}) · new/g)].map((m) => m[1]);
    expect(ids[1]).not.toBe(threadId);
    await run("/threads", "threads (newest first)");
    const list = await pane.waitFor(new RegExp(`\\*\\s+1 ${ids[1]!.slice(0, 8)}`));
    expect(list).toMatch(new RegExp(`\\s+2 ${threadId.slice(0, 8)}`));
    await run("/threads 2", `thread ${threadId} · resumed`);
  });

  it("an ask_user question: its choices numbered; a number answers with that choice", async () => {
    h.openai.script([
      {
        toolCalls: [
          { name: "ask_user", args: { question: "Which tone?", choices: ["dry", "warm"] } },
        ],
      },
      { text: "Going warm." },
    ]);
    pane.type("write me a greeting");
    pane.keys("Enter");
    const ask = await pane.waitFor("type a number or your own answer");
    expect(ask).toContain("? Which tone?");
    expect(ask).toMatch(/1\. dry\n\s+2\. warm/);
    pane.type("2");
    pane.keys("Enter");
    await pane.waitFor("Going warm.");
    expect(lastRequest()).toContain("warm");
    expect(pane.screen({ history: true })).toMatch(/› warm/);
  });
});
