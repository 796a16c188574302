import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import {
  createDeepAgent,
  FilesystemBackend,
  filesystemMiddleware,
  InMemoryBackend,
  inspectSurface,
} from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_MEMORY_MAX_CHARS,
  MEMORY_MIDDLEWARE_NAME,
  memoryMiddleware,
  renderMemory,
} from "../../../src/context/memory/middleware.js";
import { ask, systemPrompts, tempDirs } from "../../helpers/prompt-runs.js";

const GUIDANCE =
  "These files are your persistent memory: instructions and notes kept across conversations. When the user asks you to remember something or corrects how you work, update them with edit_file. Never store secrets.";

const tempDir = tempDirs("delve-memory-");

describe("memory in the system prompt", () => {
  it("each file appears with its path after the user's prompt, as one <memory> section", async () => {
    const model = new ScriptedChatModel(["ok"]);
    const agent = createDeepAgent({
      model,
      systemPrompt: "You answer tickets.",
      middleware: [memoryMiddleware({ sources: ["/AGENTS.md", "/notes/team.md"] })],
    });
    await agent.invoke(ask({ "/AGENTS.md": "Be brief.\n", "/notes/team.md": "Ana owns billing." }));
    expect(systemPrompts(model)[0]).toBe(
      [
        "You answer tickets.",
        "",
        "<memory>",
        GUIDANCE,
        '<file path="/AGENTS.md">',
        "Be brief.",
        "</file>",
        '<file path="/notes/team.md">',
        "Ana owns billing.",
        "</file>",
        "</memory>",
      ].join("\n"),
    );
  });

  it("an edit_file by the agent shows on its next model call in the same run", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          {
            name: "edit_file",
            args: {
              file_path: "/AGENTS.md",
              old_string: "Be brief.",
              new_string: "Reply in French.",
            },
          },
        ],
      },
      "noted",
    ]);
    const agent = createDeepAgent({
      model,
      middleware: [memoryMiddleware({ sources: ["/AGENTS.md"] })],
    });
    const out = await agent.invoke(ask({ "/AGENTS.md": "Be brief." }));
    expect(out.files["/AGENTS.md"].content).toBe("Reply in French.");
    const [before, after] = systemPrompts(model);
    expect(before).toContain("\nBe brief.\n");
    expect(after).toContain('<file path="/AGENTS.md">\nReply in French.\n</file>');
    expect(after).not.toContain("Be brief.");
  });

  it("on a checkpointed thread, a change between invokes shows on the next call", async () => {
    const model = new ScriptedChatModel(["first", "second"]);
    const agent = createDeepAgent({
      model,
      checkpointer: new MemorySaver(),
      middleware: [memoryMiddleware({ sources: ["/AGENTS.md"] })],
    });
    const thread = { configurable: { thread_id: "memory-reload" } };
    await agent.invoke(ask({ "/AGENTS.md": "Version one." }), thread);
    await agent.invoke(ask({ "/AGENTS.md": "Version two." }), thread);
    const [first, second] = systemPrompts(model);
    expect(first).toContain("Version one.");
    expect(second).toContain("Version two.");
    expect(second).not.toContain("Version one.");
  });

  it("a missing file is named as not created yet, so the model can create it", async () => {
    const model = new ScriptedChatModel(["ok"]);
    const agent = createDeepAgent({
      model,
      middleware: [memoryMiddleware({ sources: ["/AGENTS.md", "/notes.md"] })],
    });
    await agent.invoke(ask({ "/AGENTS.md": "Be brief." }));
    expect(systemPrompts(model)[0]).toBe(
      `<memory>\n${GUIDANCE}\n<file path="/AGENTS.md">\nBe brief.\n</file>\nNot created yet (use write_file): /notes.md\n</memory>`,
    );
  });

  it("with no file and no way to write one, no section is added at all", async () => {
    const model = new ScriptedChatModel(["ok"]);
    const agent = createDeepAgent({
      model,
      systemPrompt: "Base.",
      middleware: [
        filesystemMiddleware({ tools: ["ls", "read_file"] }),
        memoryMiddleware({ sources: ["/AGENTS.md"] }),
      ],
    });
    await agent.invoke(ask());
    expect(systemPrompts(model)[0]).toBe("Base.");
  });

  it("the guidance names only tools the model can see", async () => {
    const model = new ScriptedChatModel(["ok", "ok"]);
    const hidden = ["edit_file", "write_file"];
    const agent = createDeepAgent({
      model,
      profile: { excludedTools: hidden },
      middleware: [
        memoryMiddleware({
          sources: ["/AGENTS.md", "/later.md"],
          mentions: (t) => !hidden.includes(t),
        }),
      ],
    });
    await agent.invoke(ask({ "/AGENTS.md": "Be brief." }));
    const prompt = systemPrompts(model)[0]!;
    expect(prompt).toBe(
      '<memory>\nThese files are your persistent memory: instructions and notes kept across conversations.\n<file path="/AGENTS.md">\nBe brief.\n</file>\n</memory>',
    );
    expect(model.calls[0]!.tools).not.toContain("edit_file");

    // Only write_file visible: the guidance uses it.
    const writeOnly = renderMemory(
      [{ path: "/AGENTS.md", content: "x" }],
      (t) => t === "write_file",
    );
    expect(writeOnly).toContain("update them with write_file.");
    expect(writeOnly).not.toContain("edit_file");
  });

  it("a file that cannot be read is left out and reported once, not on every call", async () => {
    const warnings: string[] = [];
    const backend = new InMemoryBackend({
      files: { "/AGENTS.md": "Be brief.", "/blob.md": new Uint8Array([0, 159, 146, 150]) },
    });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "ls", args: { path: "/" } }] },
      "done",
    ]);
    const agent = createDeepAgent({
      model,
      backend,
      middleware: [
        memoryMiddleware({
          backend,
          sources: ["/AGENTS.md", "/blob.md"],
          onWarning: (m) => warnings.push(m),
        }),
      ],
    });
    await agent.invoke(ask());
    expect(warnings).toEqual(["Memory file /blob.md skipped: it is not UTF-8 text."]);
    const [first, second] = systemPrompts(model);
    expect(first).toBe(second);
    expect(first).toContain("Be brief.");
    expect(first).not.toContain("/blob.md");
  });
});

describe("memory size cap", () => {
  it("content past maxChars is cut at a line, with a note saying where the rest starts", () => {
    const files = [
      { path: "/AGENTS.md", content: "line one\nline two\nline three\n" },
      { path: "/more.md", content: "never shown" },
    ];
    const all = () => true;
    expect(renderMemory(files, all, 22)).toBe(
      [
        "<memory>",
        GUIDANCE,
        '<file path="/AGENTS.md">',
        "line one",
        "line two",
        "[Memory limit reached: /AGENTS.md continues at line 3 (read_file offset 2).]",
        "</file>",
        '<file path="/more.md">',
        "[Memory limit reached: /more.md continues at line 1 (read_file offset 0).]",
        "</file>",
        "</memory>",
      ].join("\n"),
    );
    // Without read_file the note gives only the line.
    expect(renderMemory(files, (t) => t !== "read_file", 22)).toContain(
      "[Memory limit reached: /AGENTS.md continues at line 3.]",
    );
  });

  it("by default at most 20,000 characters of a large file reach the prompt", async () => {
    const big = Array.from(
      { length: 3000 },
      (_, i) => `note ${String(i + 1).padStart(4, "0")}`,
    ).join("\n");
    const model = new ScriptedChatModel(["ok"]);
    const agent = createDeepAgent({
      model,
      middleware: [memoryMiddleware({ sources: ["/AGENTS.md"] })],
    });
    await agent.invoke(ask({ "/AGENTS.md": big }));
    const prompt = systemPrompts(model)[0]!;
    const shown = prompt.slice(prompt.indexOf("note 0001"), prompt.indexOf("[Memory limit"));
    expect(shown.length).toBeLessThanOrEqual(DEFAULT_MEMORY_MAX_CHARS);
    expect(shown.length).toBeGreaterThan(DEFAULT_MEMORY_MAX_CHARS - 10);
    expect(shown.endsWith("note 2000\n")).toBe(true);
    expect(prompt).toContain(
      "[Memory limit reached: /AGENTS.md continues at line 2001 (read_file offset 2000).]",
    );
  });
});

describe("memory on a FilesystemBackend", () => {
  it("reads AGENTS.md from disk and shows the agent's edit on the next call", async () => {
    const root = await tempDir();
    await writeFile(join(root, "AGENTS.md"), "Use metric units.\n");
    const backend = new FilesystemBackend({ rootDir: root });
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          {
            name: "edit_file",
            args: { file_path: "/AGENTS.md", old_string: "metric", new_string: "imperial" },
          },
        ],
      },
      "noted",
    ]);
    const agent = createDeepAgent({
      model,
      backend,
      middleware: [memoryMiddleware({ backend, sources: ["/AGENTS.md"] })],
    });
    await agent.invoke(ask());
    const [before, after] = systemPrompts(model);
    expect(before).toContain('<file path="/AGENTS.md">\nUse metric units.\n</file>');
    expect(after).toContain('<file path="/AGENTS.md">\nUse imperial units.\n</file>');
    expect(await readFile(join(root, "AGENTS.md"), "utf8")).toBe("Use imperial units.\n");
  });
});

describe("memoryMiddleware options", () => {
  it("registers under its own name and refuses bad sources at construction", () => {
    expect(memoryMiddleware({ sources: ["/AGENTS.md"] }).name).toBe(MEMORY_MIDDLEWARE_NAME);
    expect(() => memoryMiddleware({ sources: [] })).toThrow(
      'memory must be a non-empty array of paths such as "/AGENTS.md".',
    );
    expect(() => memoryMiddleware({ sources: ["/../etc/passwd"] })).toThrow(
      'memory[0] "/../etc/passwd" is not a valid path: path traversal (..) is not allowed.',
    );
    expect(() => memoryMiddleware({ sources: ["/AGENTS.md"], maxChars: -1 })).toThrow(
      "maxChars must be a whole number >= 0.",
    );
  });

  it("a 4-character AGENTS.md adds under 300 characters to the system prompt", async () => {
    const measure = async (middleware: any[]) =>
      (
        await inspectSurface(createDeepAgent({ model: new ScriptedChatModel([]), middleware }), {
          files: { "/AGENTS.md": "abcd" },
        })
      ).systemPromptChars;
    const added =
      (await measure([memoryMiddleware({ sources: ["/AGENTS.md"] })])) - (await measure([]));
    expect(added).toBe(
      `<memory>\n${GUIDANCE}\n<file path="/AGENTS.md">\nabcd\n</file>\n</memory>`.length,
    );
    expect(added).toBeLessThan(300);
  });
});

describe("HTML comments in memory files", () => {
  it("are left out of the prompt, outside code fences, and line numbers still match the file", async () => {
    const content = [
      "# Team rules",
      "<!-- editors: keep this file short; secret-ish: ticket queue id 42 -->",
      "Reply in English.",
      "<!-- a comment",
      "over two lines -->",
      "```html",
      "<!-- kept: part of an example -->",
      "```",
      "Cite ticket ids.",
    ].join("\n");
    const shown = renderMemory([{ path: "/AGENTS.md", content }], () => true);
    expect(shown).not.toContain("editors:");
    expect(shown).not.toContain("over two lines");
    expect(shown).toContain("<!-- kept: part of an example -->");
    expect(shown).toContain("Reply in English.");
    // The note after a cut still points at the file's own line numbers.
    const cut = renderMemory([{ path: "/AGENTS.md", content }], () => true, 20);
    expect(cut).toContain("continues at line 3 (read_file offset 2)"); // line 3 is "Reply in English."
    // Through an agent: the model's system prompt has no comment text.
    const model = new ScriptedChatModel(["ok"]);
    const agent = createDeepAgent({ model, memory: ["/AGENTS.md"] });
    await agent.invoke({
      messages: [{ role: "user", content: "hi" }],
      files: { "/AGENTS.md": content },
    });
    const system = JSON.stringify(model.calls[0]);
    expect(system).toContain("Cite ticket ids.");
    expect(system).not.toContain("queue id 42");
  });
});
