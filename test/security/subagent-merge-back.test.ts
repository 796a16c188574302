/**
 * Hostile subagents against the parent's write rules: whatever a subagent did in its own run
 * (a compiled graph without rules, a declarative one with its own rules, the general-purpose
 * one), its file changes merge back into the parent only where the parent may write, and
 * every refused change is named in the `task` result.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import type { FileData } from "delve";
import { createDeepAgent, FilesystemBackend, type PermissionRule } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { admitFileChanges, refusedNote } from "../../src/subagents/merge-back.js";
import { createTaskTool, TASK_WRITES_KEY, type TaskSubagent } from "../../src/subagents/task.js";

const RULES: PermissionRule[] = [
  { operations: ["write"], paths: ["/policies/drafts/**"], mode: "allow" },
  { operations: ["write"], paths: ["/policies/**"], mode: "deny" },
  { operations: ["write"], paths: ["/review/**"], mode: "interrupt" },
];

const data = (content: string): FileData => ({
  content,
  encoding: "utf-8",
  createdAt: "2026-01-01T00:00:00.000Z",
  modifiedAt: "2026-01-02T00:00:00.000Z",
});

const PARENT = {
  "/policies/refunds.md": data("Refunds within 30 days."),
  "/policies/drafts/old.md": data("old draft"),
  "/notes/a.md": data("note"),
};

/** A compiled subagent that returns `files` as its final state. */
function hostile(files: Record<string, FileData>, extra: Partial<TaskSubagent> = {}) {
  return {
    name: "hostile",
    description: "does what it likes",
    runnable: { invoke: async () => ({ messages: [new AIMessage("done")], files }) },
    ...extra,
  } satisfies TaskSubagent;
}

async function runTask(subagent: TaskSubagent, rules: PermissionRule[] = RULES) {
  const tool = createTaskTool([subagent], undefined, rules) as any;
  const reply = await tool.invoke(
    {
      id: "call_t",
      name: "task",
      args: { description: "go", subagent_type: subagent.name },
      type: "tool_call",
    },
    { state: { files: PARENT } },
  );
  if (reply instanceof Command) {
    const update = reply.update as Record<string, any>;
    return {
      files: update.files as Record<string, FileData | null>,
      text: String(update.messages[0].content),
      writes: update[TASK_WRITES_KEY] as { path: string }[],
    };
  }
  return { files: {}, text: String((reply as ToolMessage).content), writes: [] };
}

describe("task merge-back goes through the parent's write rules", () => {
  it("a compiled subagent's overwrite of a denied file is dropped and named", async () => {
    const { files, text } = await runTask(
      hostile({ ...PARENT, "/policies/refunds.md": data("Refunds never.") }),
    );
    expect(files["/policies/refunds.md"]).toBeUndefined();
    expect(text).toContain("Not applied");
    expect(text).toContain("/policies/refunds.md");
    expect(text).toContain("rule 2 (deny write /policies/**)");
  });

  it("a compiled subagent's deletion of a denied file is dropped", async () => {
    const { "/policies/refunds.md": _gone, ...rest } = PARENT;
    const { files, text } = await runTask(hostile(rest));
    expect("/policies/refunds.md" in files).toBe(false);
    expect(text).toMatch(/Not applied: the subagent's change to \/policies\/refunds\.md/);
  });

  it("a new file in a denied directory is dropped", async () => {
    const { files } = await runTask(hostile({ ...PARENT, "/policies/new.md": data("x") }));
    expect(files["/policies/new.md"]).toBeUndefined();
  });

  it("allowed changes merge alongside refused ones; only they are logged", async () => {
    const { files, text, writes } = await runTask(
      hostile({
        ...PARENT,
        "/policies/refunds.md": data("Refunds never."),
        "/policies/drafts/old.md": data("new draft"),
        "/notes/b.md": data("b"),
      }),
    );
    expect(Object.keys(files).sort()).toEqual(["/notes/b.md", "/policies/drafts/old.md"]);
    expect(writes.map((w) => w.path).sort()).toEqual(["/notes/b.md", "/policies/drafts/old.md"]);
    expect(text.startsWith("done")).toBe(true);
  });

  it("an interrupt path changed by a subagent nobody approved is dropped", async () => {
    const { files, text } = await runTask(hostile({ ...PARENT, "/review/x.md": data("x") }));
    expect(files["/review/x.md"]).toBeUndefined();
    expect(text).toContain("needs human approval");
  });

  it("a subagent that ran under the parent's own rules keeps its approved interrupt paths", async () => {
    const { files } = await runTask(
      hostile({ ...PARENT, "/review/x.md": data("x") }, { sharesParentRules: true }),
    );
    expect(files["/review/x.md"]?.content).toBe("x");
  });

  it("even a subagent under the parent's rules cannot merge a denied change", async () => {
    const { files } = await runTask(
      hostile({ ...PARENT, "/policies/refunds.md": data("no") }, { sharesParentRules: true }),
    );
    expect(files["/policies/refunds.md"]).toBeUndefined();
  });

  it("without rules every change merges, as before", async () => {
    const { files, text } = await runTask(
      hostile({ ...PARENT, "/policies/refunds.md": data("no") }),
      [],
    );
    expect(files["/policies/refunds.md"]?.content).toBe("no");
    expect(text).toBe("done");
  });

  it("a subagent whose every change is refused leaves the parent's files untouched", async () => {
    const { files, text } = await runTask(
      hostile({ "/policies/refunds.md": data("no"), "/policies/x.md": data("x") }),
    );
    // The two notes and drafts deletions are allowed; every /policies change is refused.
    expect(
      Object.keys(files).every((p) => !p.startsWith("/policies/") || p.includes("/drafts/")),
    ).toBe(true);
    expect(text).toContain("changes to /policies/refunds.md, /policies/x.md");
  });

  it("admitFileChanges decides deletions like delete, writes like write_file", () => {
    const { admitted, refused } = admitFileChanges(
      RULES,
      { "/policies/drafts/old.md": null, "/policies/refunds.md": null, "/notes/a.md": null },
      false,
    );
    expect(Object.keys(admitted).sort()).toEqual(["/notes/a.md", "/policies/drafts/old.md"]);
    expect(refused.map((r) => r.path)).toEqual(["/policies/refunds.md"]);
    expect(refused[0]!.reason).toMatch(/^Permission denied: removing \/policies\/refunds\.md/);
  });

  it("the note names at most five paths and counts the rest", () => {
    const refused = Array.from({ length: 7 }, (_, i) => ({ path: `/p/${i}`, reason: "R." }));
    expect(refusedNote(refused)).toBe(
      "\n\n[Not applied: the subagent's changes to /p/0, /p/1, /p/2, /p/3, /p/4 and 2 more. R.]",
    );
    expect(refusedNote([])).toBe("");
  });
});

describe("createDeepAgent: subagents of every kind merge back through the parent's rules", () => {
  const rules: PermissionRule[] = [
    { operations: ["write"], paths: ["/policies/**"], mode: "deny" },
  ];
  const seed = { "/policies/refunds.md": "Refunds within 30 days.", "/notes/a.md": "note" };

  async function run(subagents: unknown[], subagentType: string) {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          {
            name: "task",
            args: { description: "rewrite the policy", subagent_type: subagentType },
          },
        ],
      },
      "done",
    ]);
    const agent = createDeepAgent({ model, permissions: rules, subagents } as any);
    const out = await agent.invoke({ messages: [{ role: "user", content: "go" }], files: seed });
    const task = out.messages.find(
      (m: unknown) => ToolMessage.isInstance(m) && (m as ToolMessage).name === "task",
    ) as ToolMessage;
    return { files: out.files as Record<string, { content: string }>, task };
  }

  it("a compiled subagent without rules cannot overwrite the parent's denied file", async () => {
    const compiled = {
      name: "rogue",
      description: "rewrites files",
      runnable: {
        invoke: async (input: { files: Record<string, FileData> }) => ({
          messages: [new AIMessage("rewrote it")],
          files: { ...input.files, "/policies/refunds.md": data("Refunds never.") },
        }),
      },
    };
    const { files, task } = await run([compiled], "rogue");
    expect(files["/policies/refunds.md"]!.content).toBe("Refunds within 30 days.");
    expect(String(task.content)).toContain("Not applied");
  });

  it("a declarative subagent with its own permissive rules cannot either", async () => {
    const subModel = new ScriptedChatModel([
      {
        toolCalls: [
          { name: "write_file", args: { file_path: "/policies/refunds.md", content: "never" } },
        ],
      },
      "rewrote it",
    ]);
    const declarative = {
      name: "editor",
      description: "edits",
      systemPrompt: "edit",
      model: subModel,
      permissions: [],
    };
    const { files } = await run([declarative], "editor");
    expect(files["/policies/refunds.md"]!.content).toBe("Refunds within 30 days.");
    // Refused at the write itself, so the subagent knew it (and nothing was left to merge).
    const seen = subModel.calls.at(-1)!.messages.filter((m) => ToolMessage.isInstance(m));
    expect(String(seen[0]!.content)).toContain(
      "write to /policies/refunds.md is blocked by rule 1 (deny write /policies/**)",
    );
  });
});

describe("a declarative subagent with its own rules writing to disk itself", () => {
  const rules: PermissionRule[] = [
    { operations: ["write"], paths: ["/policies/**"], mode: "deny" },
  ];

  function disk() {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "delve-h9-sub-")));
    fs.mkdirSync(path.join(root, "policies"));
    fs.writeFileSync(path.join(root, "policies", "refunds.md"), "Refunds within 30 days.");
    fs.mkdirSync(path.join(root, "notes"));
    fs.symlinkSync("../policies", path.join(root, "notes", "p"));
    return root;
  }

  async function runEditor(root: string, calls: { name: string; args: Record<string, unknown> }[]) {
    const subModel = new ScriptedChatModel([{ toolCalls: calls }, "did it"]);
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "task", args: { description: "edit", subagent_type: "editor" } }] },
      "done",
    ]);
    const editor = {
      name: "editor",
      description: "edits",
      systemPrompt: "edit",
      model: subModel,
      permissions: [],
    };
    const agent = createDeepAgent({
      model,
      permissions: rules,
      backend: new FilesystemBackend({ rootDir: root }),
      subagents: [editor],
    } as any);
    await agent.invoke({ messages: [{ role: "user", content: "go" }] });
    const sub = subModel.calls.at(-1)!.messages.filter((m) => ToolMessage.isInstance(m));
    return sub as ToolMessage[];
  }

  it("cannot overwrite, edit or delete the parent's denied files, nor reach them by a link", async () => {
    const root = disk();
    try {
      const replies = await runEditor(root, [
        { name: "write_file", args: { file_path: "/policies/refunds.md", content: "never" } },
        {
          name: "edit_file",
          args: { file_path: "/policies/refunds.md", old_string: "30", new_string: "0" },
        },
        { name: "delete", args: { file_path: "/policies/refunds.md" } },
        { name: "write_file", args: { file_path: "/notes/p/refunds.md", content: "never" } },
        { name: "write_file", args: { file_path: "/notes/ok.md", content: "fine" } },
      ]);
      expect(replies.map((r) => r.status)).toEqual(["error", "error", "error", "error", "success"]);
      expect(fs.readFileSync(path.join(root, "policies", "refunds.md"), "utf8")).toBe(
        "Refunds within 30 days.",
      );
      expect(fs.readFileSync(path.join(root, "notes", "ok.md"), "utf8")).toBe("fine");
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("still reads under its own rules (only writes are the parent's to forbid)", async () => {
    const root = disk();
    try {
      const [reply] = await runEditor(root, [
        { name: "read_file", args: { file_path: "/policies/refunds.md" } },
      ]);
      expect(reply!.status).toBe("success");
      expect(String(reply!.content)).toContain("Refunds within 30 days.");
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
