import fs from "node:fs";
import path from "node:path";
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it, vi } from "vitest";
import { previewRewind, rewind } from "../../src/run/index.js";
import { writeState } from "../../src/run/session-ops/write-state.js";
import { harnessPerFile, open, read, send, write } from "../run/session-ops-harness.js";

// Rewind writes and deletes files named by the thread's checkpointed messages. A path there
// that leaves the workspace (a forged checkpoint), or a symbolic link put in a file's place
// since, must never let it write or delete outside the workspace, even with force.

vi.setConfig({ testTimeout: 120_000 });

const h = harnessPerFile();

const FIRST = { task: "first", replies: [{ text: "nothing yet" }] };

describe("rewind's paths", () => {
  it("a checkpointed write to a path outside the workspace is left alone, even forced", async () => {
    const ws = h.workspace();
    const outside = path.join(path.dirname(ws), "outside.txt");
    fs.writeFileSync(outside, "forged\n");
    const session = await open(h, ws);
    try {
      await send(h, session, FIRST);
      await send(h, session, { task: "second", replies: [{ text: "ok" }] });
      // A forged history: a successful write to /../outside.txt in the second turn.
      await writeState(session, session.config, {
        messages: [
          new AIMessage({
            id: "forged-ai",
            content: "",
            tool_calls: [
              {
                id: "forged",
                name: "write_file",
                args: { file_path: "/../outside.txt", content: "forged\n" },
              },
            ],
          }),
          new ToolMessage({
            id: "forged-tool",
            tool_call_id: "forged",
            name: "write_file",
            content: "Wrote /../outside.txt (1 line).",
          }),
        ],
      });
      const plan = await previewRewind(session, 2);
      expect(plan.files).toEqual([
        { path: "../outside.txt", action: "delete", conflict: "unknown", diff: "" },
      ]);
      const done = await rewind(session, 2, { force: true });
      expect(done.deleted).toEqual([]);
      expect(done.conflicts.map((c) => c.path)).toEqual(["../outside.txt"]);
      expect(fs.readFileSync(outside, "utf8")).toBe("forged\n");
    } finally {
      await session.close();
    }
  });

  it("a symbolic link put in the place of a file the agent wrote is not followed, even forced", async () => {
    const ws = h.workspace({ "kept.txt": "start\n" });
    const secret = path.join(path.dirname(ws), `secret-${path.basename(ws)}.txt`);
    fs.writeFileSync(secret, "agent text\n");
    const session = await open(h, ws);
    try {
      await send(h, session, {
        task: "first",
        replies: [{ toolCalls: [write("kept.txt", "v1\n")] }, { text: "ok" }],
      });
      await send(h, session, {
        task: "second",
        replies: [
          { toolCalls: [write("made.txt", "agent text\n"), write("kept.txt", "agent text\n")] },
          { text: "ok" },
        ],
      });
      // Both files now point outside, at a file holding exactly what the agent wrote.
      for (const file of ["made.txt", "kept.txt"]) {
        fs.rmSync(path.join(ws, file));
        fs.symlinkSync(secret, path.join(ws, file));
      }
      const done = await rewind(session, 2, { force: true });
      expect(done.restored).toEqual([]);
      expect(done.deleted).toEqual([]);
      expect(done.conflicts.map((c) => [c.path, c.conflict])).toEqual([
        ["kept.txt", "unknown"],
        ["made.txt", "unknown"],
      ]);
      expect(fs.readFileSync(secret, "utf8")).toBe("agent text\n");
      expect(fs.lstatSync(path.join(ws, "made.txt")).isSymbolicLink()).toBe(true);
      expect(read(ws, "kept.txt")).toBe("agent text\n");
    } finally {
      await session.close();
    }
  });
});
