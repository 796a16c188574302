import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { createDeepAgent, FilesystemBackend, inspectSurface } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { parseFrontMatter } from "../../../src/context/skills/front-matter.js";
import {
  renderSkills,
  SKILLS_MIDDLEWARE_NAME,
  skillsMiddleware,
} from "../../../src/context/skills/middleware.js";
import { skillMetadataOf } from "../../../src/context/skills/skill-metadata.js";
import { ask, systemOf, systemPrompts, tempDirs } from "../../helpers/prompt-runs.js";

const INTRO =
  "Skills are instructions for specific tasks. When one fits your task, read its file with read_file before you start; paths inside it are relative to its folder.";

const skill = (name: string, description: string, body = "Steps.\n") =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

const tempDir = tempDirs("delve-skills-");

describe("skills in the system prompt", () => {
  it("each skill is listed by name, description and path, sorted by name", async () => {
    const model = new ScriptedChatModel(["ok"]);
    const agent = createDeepAgent({
      model,
      systemPrompt: "You answer tickets.",
      middleware: [skillsMiddleware({ sources: ["/skills/"] })],
    });
    await agent.invoke(
      ask({
        "/skills/refunds/SKILL.md": skill("refunds", "Issue a refund and log it."),
        "/skills/pdf-forms/SKILL.md": `---\nname: pdf-forms\ndescription: >\n  Fill and check\n  PDF forms.\n---\nBody`,
        "/skills/pdf-forms/scripts/fill.py": "print()",
        "/skills/README.md": "not a skill",
        "/skills/drafts/notes.md": "a folder without SKILL.md is not a skill",
      }),
    );
    expect(systemPrompts(model)[0]).toBe(
      [
        "You answer tickets.",
        "",
        "<skills>",
        INTRO,
        "- pdf-forms: Fill and check PDF forms. (/skills/pdf-forms/SKILL.md)",
        "- refunds: Issue a refund and log it. (/skills/refunds/SKILL.md)",
        "</skills>",
      ].join("\n"),
    );
  });

  it("the model reads a skill's body on demand with read_file", async () => {
    const model = new ScriptedChatModel([
      (messages) => {
        const path = /\((\/skills\/[^)]+)\)/.exec(systemOf(messages))![1]!;
        return { toolCalls: [{ name: "read_file", args: { file_path: path } }] };
      },
      (messages) => `Following: ${messages.at(-1)!.text}`,
    ]);
    const agent = createDeepAgent({
      model,
      middleware: [skillsMiddleware({ sources: ["/skills"] })],
    });
    const out = await agent.invoke(
      ask({
        "/skills/refunds/SKILL.md": skill("refunds", "Issue a refund.", "1. Check the order.\n"),
      }),
    );
    const result = out.messages.find((m: BaseMessage) => ToolMessage.isInstance(m)) as ToolMessage;
    expect(result.text).toContain("1. Check the order.");
    expect(systemPrompts(model)[0]).not.toContain("Check the order");
  });

  it("invalid front matter is skipped, not injected, and each problem is reported once", async () => {
    const warnings: string[] = [];
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "ls", args: { path: "/" } }] },
      "ok",
    ]);
    const agent = createDeepAgent({
      model,
      middleware: [skillsMiddleware({ sources: ["/skills"], onWarning: (m) => warnings.push(m) })],
    });
    await agent.invoke(
      ask({
        "/skills/good/SKILL.md": skill("good", "Works."),
        "/skills/Caps/SKILL.md": skill("Caps", "Bad name."),
        "/skills/other-dir/SKILL.md": skill("mismatch", "Name differs from folder."),
        "/skills/no-desc/SKILL.md": "---\nname: no-desc\n---\n",
        "/skills/long/SKILL.md": skill("long", "x".repeat(1025)),
        "/skills/plain/SKILL.md": "# Just markdown",
        "/skills/open/SKILL.md": "---\nname: open\ndescription: never closed\n",
      }),
    );
    expect(warnings).toEqual([
      'Skill /skills/Caps/SKILL.md skipped: name "Caps" must be lowercase letters, digits and single hyphens.',
      "Skill /skills/long/SKILL.md skipped: description is 1025 characters (at most 1024).",
      "Skill /skills/no-desc/SKILL.md skipped: description is missing.",
      'Skill /skills/open/SKILL.md skipped: its front matter has no closing "---" line.',
      'Skill /skills/other-dir/SKILL.md skipped: name "mismatch" must match its directory "other-dir".',
      'Skill /skills/plain/SKILL.md skipped: it has no front matter (the file must start with a "---" line).',
    ]);
    const [first, second] = systemPrompts(model);
    expect(first).toBe(`<skills>\n${INTRO}\n- good: Works. (/skills/good/SKILL.md)\n</skills>`);
    expect(second).toBe(first);
  });

  it("a later source's skill replaces an earlier one with the same name", async () => {
    const model = new ScriptedChatModel(["ok"]);
    const agent = createDeepAgent({
      model,
      middleware: [skillsMiddleware({ sources: ["/skills/base", "/skills/team"] })],
    });
    await agent.invoke(
      ask({
        "/skills/base/refunds/SKILL.md": skill("refunds", "Base refunds."),
        "/skills/base/triage/SKILL.md": skill("triage", "Base triage."),
        "/skills/team/refunds/SKILL.md": skill("refunds", "Team refunds."),
      }),
    );
    const prompt = systemPrompts(model)[0]!;
    expect(prompt).toContain("- refunds: Team refunds. (/skills/team/refunds/SKILL.md)");
    expect(prompt).toContain("- triage: Base triage. (/skills/base/triage/SKILL.md)");
    expect(prompt).not.toContain("Base refunds.");
  });

  it("a skill written during the run is listed on the next model call", async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          {
            name: "write_file",
            args: {
              file_path: "/skills/triage/SKILL.md",
              content: skill("triage", "Sort tickets."),
            },
          },
          {
            name: "edit_file",
            args: { file_path: "/skills/refunds/SKILL.md", old_string: "Old.", new_string: "New." },
          },
        ],
      },
      "ok",
    ]);
    const agent = createDeepAgent({
      model,
      middleware: [skillsMiddleware({ sources: ["/skills"] })],
    });
    await agent.invoke(ask({ "/skills/refunds/SKILL.md": skill("refunds", "Old.") }));
    const [before, after] = systemPrompts(model);
    expect(before).not.toContain("triage");
    expect(after).toContain("- refunds: New. (/skills/refunds/SKILL.md)");
    expect(after).toContain("- triage: Sort tickets. (/skills/triage/SKILL.md)");
  });

  it("with no skills (or no source yet) no section is added", async () => {
    const model = new ScriptedChatModel(["ok"]);
    const warnings: string[] = [];
    const agent = createDeepAgent({
      model,
      systemPrompt: "Base.",
      middleware: [skillsMiddleware({ sources: ["/skills"], onWarning: (m) => warnings.push(m) })],
    });
    await agent.invoke(ask());
    expect(systemPrompts(model)[0]).toBe("Base.");
    expect(warnings).toEqual([]);
  });

  it("the instruction to read names read_file only when the model can see it", () => {
    const list = [{ name: "a", description: "A.", path: "/skills/a/SKILL.md" }];
    expect(renderSkills(list, () => false)).toBe(
      "<skills>\nSkills are instructions for specific tasks.\n- a: A. (/skills/a/SKILL.md)\n</skills>",
    );
    expect(renderSkills([], () => true)).toBe("");
  });

  it("works on a FilesystemBackend over a temp directory", async () => {
    const root = await tempDir();
    await mkdir(join(root, "skills", "refunds"), { recursive: true });
    await writeFile(
      join(root, "skills", "refunds", "SKILL.md"),
      skill("refunds", "Issue a refund."),
    );
    const backend = new FilesystemBackend({ rootDir: root });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "read_file", args: { file_path: "/skills/refunds/SKILL.md" } }] },
      "ok",
    ]);
    const agent = createDeepAgent({
      model,
      backend,
      middleware: [skillsMiddleware({ backend, sources: ["/skills"] })],
    });
    const out = await agent.invoke(ask());
    expect(systemPrompts(model)[0]).toContain(
      "- refunds: Issue a refund. (/skills/refunds/SKILL.md)",
    );
    const result = out.messages.find((m: BaseMessage) => ToolMessage.isInstance(m)) as ToolMessage;
    expect(result.text).toContain("Steps.");
  });

  it("registers under its own name and refuses bad sources at construction", () => {
    expect(skillsMiddleware({ sources: ["/skills"] }).name).toBe(SKILLS_MIDDLEWARE_NAME);
    expect(() => skillsMiddleware({ sources: "/skills" as any })).toThrow(
      'skills must be a non-empty array of paths such as "/AGENTS.md".',
    );
    expect(() => skillsMiddleware({ sources: ["~/skills"] })).toThrow(
      'skills[0] "~/skills" is not a valid path: home-directory paths (~) are not allowed.',
    );
  });

  it("one skill adds under 300 characters to the system prompt", async () => {
    const measure = async (middleware: any[]) =>
      (
        await inspectSurface(createDeepAgent({ model: new ScriptedChatModel([]), middleware }), {
          files: { "/skills/refunds/SKILL.md": skill("refunds", "Issue a refund and log it.") },
        })
      ).systemPromptChars;
    const added =
      (await measure([skillsMiddleware({ sources: ["/skills"] })])) - (await measure([]));
    expect(added).toBe(
      `<skills>\n${INTRO}\n- refunds: Issue a refund and log it. (/skills/refunds/SKILL.md)\n</skills>`
        .length,
    );
    expect(added).toBeLessThan(300);
  });
});

describe("SKILL.md front matter", () => {
  const fields = (text: string) => {
    const parsed = parseFrontMatter(text);
    if (!parsed.ok) throw new Error(parsed.reason);
    return Object.fromEntries(parsed.value.fields);
  };

  it("reads plain, quoted and block values as YAML does", () => {
    expect(
      fields(
        [
          "---",
          "name: pdf-forms # trailing comment",
          "single: 'it''s'",
          'double: "tab\\there \\u00e9"',
          "literal: |",
          "  one",
          "    two",
          "folded: >-",
          "  a",
          "  b",
          "",
          "  c",
          "quoted: 'Use when: the user asks'",
          "wrapped: starts here",
          "  and goes on",
          "next-line:",
          "  value below",
          "csharp: C# tools",
          "---",
          "body",
        ].join("\n"),
      ),
    ).toEqual({
      name: "pdf-forms",
      single: "it's",
      double: "tab\there é",
      literal: "one\n  two\n",
      folded: "a b\nc",
      quoted: "Use when: the user asks",
      wrapped: "starts here and goes on",
      "next-line": "value below",
      csharp: "C# tools",
    });
  });

  it("keeps multi-line quoted values and chomping indicators", () => {
    expect(fields('---\nq: "first\n  second\n\n  third"\nk: |+\n  kept\n\n---\n')).toEqual({
      q: "first second\nthird",
      k: "kept\n",
    });
    expect(fields('---\nq: "joined\\\n  here"\n---\n')).toEqual({ q: "joinedhere" });
  });

  it("keeps lists, maps and flow collections, and reads null words as null", () => {
    expect(
      fields(
        "---\nmetadata:\n  author: me\nallowed-tools: [read_file, grep]\nlist:\n- a\n- b\nnone: ~\n---\n",
      ),
    ).toEqual({
      metadata: { author: "me" },
      "allowed-tools": ["read_file", "grep"],
      list: ["a", "b"],
      none: null,
    });
  });

  it("accepts a byte-order mark and CRLF line ends; the body follows the closing line", () => {
    const parsed = parseFrontMatter("\uFEFF---\r\nname: x\r\n---\r\n# Title\r\nText");
    expect(parsed).toEqual({
      ok: true,
      value: { fields: new Map([["name", "x"]]), body: "# Title\nText" },
    });
  });

  it("says why a front matter cannot be read, naming the line in the file", () => {
    const reason = (text: string) => {
      const parsed = parseFrontMatter(text);
      return parsed.ok ? "ok" : parsed.reason;
    };
    expect(reason("---\nname: a\nname: b\n---\n")).toBe(
      'front matter line 3: key "name" appears twice',
    );
    expect(reason("---\nname:value\n---\n")).toBe(
      'its front matter is not a mapping of "key: value" lines',
    );
    expect(reason("---\n- a\n---\n")).toBe(
      'its front matter is not a mapping of "key: value" lines',
    );
    expect(reason('---\nname: x\nq: "open\n---\n')).toMatch(/^front matter line 3: /);
    expect(reason('---\nq: "a" tail\n---\n')).toMatch(/^front matter line 2: /);
    // A plain value holding ": " is not YAML (the old reader accepted it): quote it.
    expect(reason("---\nname: x\ndescription: Use when: asked\n---\n")).toBe(
      "front matter line 3: Nested mappings are not allowed in compact mappings",
    );
  });

  it("refuses custom tags, alias bombs and oversized front matter", () => {
    const reason = (text: string) => {
      const parsed = parseFrontMatter(text);
      return parsed.ok ? "ok" : parsed.reason;
    };
    expect(reason("---\nname: x\nrun: !!js/function f\n---\n")).toBe(
      "front matter line 3: custom YAML tags are not allowed",
    );
    const bomb = ["---", "a0: &a0 [x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 12; i++) {
      bomb.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(", ")}]`,
      );
    }
    bomb.push("---", "");
    expect(reason(bomb.join("\n"))).toMatch(/^front matter: .*alias/i);
    expect(reason(`---\nname: x\npad: "${"y".repeat(70_000)}"\n---\n`)).toMatch(
      /^its front matter is \d+ characters \(at most 64000\)$/,
    );
  });

  it("reads the Agent Skills fields and lists them for the model", async () => {
    const text = [
      "---",
      "name: refunds",
      "description: Issue a refund.",
      "license: Apache-2.0",
      "compatibility: needs network access",
      "allowed-tools: [read_file, grep]",
      "metadata:",
      "  author: ops",
      "  version: 2",
      "---",
      "",
    ].join("\n");
    expect(skillMetadataOf("/skills/refunds/SKILL.md", text)).toEqual({
      name: "refunds",
      description: "Issue a refund.",
      path: "/skills/refunds/SKILL.md",
      license: "Apache-2.0",
      compatibility: "needs network access",
      allowedTools: ["read_file", "grep"],
      metadata: { author: "ops", version: "2" },
    });
    const spaced = text.replace(
      "allowed-tools: [read_file, grep]",
      "allowed-tools: read_file grep",
    );
    expect(skillMetadataOf("/skills/refunds/SKILL.md", spaced)).toMatchObject({
      allowedTools: ["read_file", "grep"],
    });
    const bad = (field: string) => {
      const result = skillMetadataOf(
        "/skills/refunds/SKILL.md",
        text.replace("license: Apache-2.0", field),
      );
      return "reason" in result ? result.reason : "ok";
    };
    expect(bad("license: [a]")).toBe("license must be text");
    expect(bad("allowed-tools2: x")).toBe("ok");
    expect(bad(`compatibility2: ${"c".repeat(10)}`)).toBe("ok");
    const listing = renderSkills(
      [skillMetadataOf("/skills/refunds/SKILL.md", text) as never],
      () => true,
    );
    expect(listing).toContain(
      "- refunds: Issue a refund. (/skills/refunds/SKILL.md) [tools: read_file, grep; needs: needs network access; license: Apache-2.0]",
    );
    expect(listing).not.toContain("author");
  });

  it("validates name and description by the Agent Skills rules", () => {
    const check = (name: string, description = "Does things.") => {
      const result = skillMetadataOf(`/skills/${name}/SKILL.md`, skill(name, description));
      return "reason" in result ? result.reason : "ok";
    };
    expect(check("pdf-forms-2")).toBe("ok");
    expect(check("a".repeat(64))).toBe("ok");
    expect(check("a".repeat(65))).toBe("name is 65 characters (at most 64)");
    for (const bad of ["-lead", "trail-", "dou--ble", "under_score", "Upper"]) {
      expect(check(bad)).toBe(`name "${bad}" must be lowercase letters, digits and single hyphens`);
    }
    expect(check("ok", "d".repeat(1024))).toBe("ok");
    expect(
      skillMetadataOf("/s/x/SKILL.md", "---\nname: x\ndescription:\n  - a list\n---\n"),
    ).toEqual({
      reason: "description must be text",
    });
    expect(skillMetadataOf("/s/x/SKILL.md", "---\ndescription: d\n---\n")).toEqual({
      reason: "name is missing",
    });
  });
});
