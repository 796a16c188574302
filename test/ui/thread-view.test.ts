import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { diffFiles, filesByStep } from "../../src/ui/step-files.js";
import { runnerAlive, STOPPED_TEXT, type StepView, summaryOf } from "../../src/ui/thread-view.js";

// The viewer's readings of a thread that are not in the happy path of a finished run.

const step = (messages: StepView["messages"]): StepView => ({
  checkpoint_id: String(Math.random()),
  parent_id: null,
  step: 0,
  source: "loop",
  created_at: "",
  duration_ms: null,
  messages,
  usage: [],
});
const call = (id: string, name: string, args: unknown) => ({
  id: `ai-${id}`,
  role: "ai",
  text: "",
  tool_calls: [{ id, name, args }],
});
const result = (id: string, name: string, status: "success" | "error" = "success") => ({
  id: `tool-${id}`,
  role: "tool",
  text: "",
  tool_call_id: id,
  name,
  status,
});

describe("thread status", () => {
  it("work left is running while its runner process lives, failed (stopped) once it is gone; a task error is failed", () => {
    const left = { next: ["tools"], tasks: [], createdAt: new Date(0).toISOString() };
    expect(summaryOf([], left, true).status).toBe("running");
    expect(summaryOf([], left, false)).toMatchObject({ status: "failed", error: STOPPED_TEXT });
    const crashed = summaryOf([], { next: ["tools"], tasks: [{ error: new Error("boom") }] }, true);
    expect(crashed).toMatchObject({ status: "failed", error: "boom" });
    expect(summaryOf([], { next: ["tools"], tasks: [{ interrupts: [{}] }] }).status).toBe("paused");
    expect(summaryOf([], { next: [], tasks: [] }).status).toBe("completed");
  });

  it("a runner is alive while its process exists, not after it exited", async () => {
    expect(runnerAlive({ pid: process.pid, started_at: "" })).toBe(true);
    const child = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => child.once("exit", resolve));
    expect(runnerAlive({ pid: child.pid!, started_at: "" })).toBe(false);
    expect(runnerAlive(undefined)).toBe(false);
  });
});

describe("files at each step", () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), "delve-ui-files-"));
  fs.writeFileSync(path.join(ws, "a.txt"), "x2\n");
  fs.writeFileSync(path.join(ws, "b.txt"), "final\n");

  it("an edited file starts from disk with the run's edits undone; a failed call changes nothing; a write after an edit hides the base", () => {
    const steps = [
      step([]),
      step([call("1", "edit_file", { file_path: "/a.txt", old_string: "x1", new_string: "x2" })]),
      step([result("1", "edit_file")]),
      step([
        call("2", "write_file", { file_path: "/c.txt", content: "never" }),
        result("2", "write_file", "error"),
      ]),
      step([
        call("3", "edit_file", { file_path: "/b.txt", old_string: "a", new_string: "b" }),
        result("3", "edit_file"),
      ]),
      step([
        call("4", "write_file", { file_path: "/b.txt", content: "final\n" }),
        result("4", "write_file"),
      ]),
    ];
    const maps = filesByStep(steps, ws);
    expect(maps[0]).toEqual({ "a.txt": "x1\n" });
    expect(maps[2]).toEqual({ "a.txt": "x2\n" });
    expect(maps[3]).toEqual({ "a.txt": "x2\n" });
    expect(maps[4]).toEqual({ "a.txt": "x2\n", "b.txt": null });
    expect(maps[5]).toEqual({ "a.txt": "x2\n", "b.txt": "final\n" });
    expect(diffFiles(maps[1]!, maps[2]!).map((d) => [d.path, d.op])).toEqual([["a.txt", "edit"]]);
    expect(diffFiles(maps[0]!, maps[5]!).map((d) => [d.path, d.op])).toEqual([
      ["a.txt", "edit"],
      ["b.txt", "create"],
    ]);
  });

  it("an edit's replacement text with $ patterns is inserted as typed", () => {
    fs.writeFileSync(path.join(ws, "d.txt"), "price $& now\n");
    const steps = [
      step([
        call("5", "edit_file", { file_path: "/d.txt", old_string: "old", new_string: "$& now" }),
        result("5", "edit_file"),
      ]),
    ];
    expect(filesByStep(steps, ws)[0]).toEqual({ "d.txt": "price $& now\n" });
  });
});
