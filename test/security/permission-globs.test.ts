/**
 * Hostile model against glob rules: a rule written with shell brace syntax must protect
 * what it names (`/logs/{2023..2025}/**` was accepted and protected nothing), `?` and
 * brackets must take one code point (an emoji is one file-name character), syntax that
 * would silently match literally or expand without bound is refused at construction, and a
 * search rooted in a denied path is refused like `ls`, identically whether it exists or not.
 */
import fs from "node:fs";
import path from "node:path";
import { createDeepAgent, decide, type PermissionRule, validatePermissions } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { afterEach, describe, expect, it } from "vitest";
import { fsTools, textOf } from "../filesystem/tools/fs-harness.js";
import { FAMILIES, type Family, type FamilyBackend, HAS_BWRAP } from "./backend-families.js";

const RANGE: PermissionRule[] = [
  { operations: ["read", "write"], paths: ["/w/logs/{2023..2025}/**"], mode: "deny" },
  { operations: ["read"], paths: ["/w/keys/?.pem", "/w/vault/[🔑🔒]*"], mode: "deny" },
];
const FILES = {
  "/w/logs/2023/app.log": "secret 2023",
  "/w/logs/2024/app.log": "secret 2024",
  "/w/logs/2025/app.log": "secret 2025",
  "/w/logs/2026/app.log": "open 2026",
  "/w/keys/🔑.pem": "secret key",
  "/w/keys/ab.pem": "open key",
  "/w/vault/🔒box": "secret box",
  "/w/vault/open": "open box",
};

const open: FamilyBackend[] = [];
afterEach(() => {
  for (const made of open.splice(0)) made.cleanup();
});

async function world(family: Family, files: Record<string, string> = FILES) {
  const made = family.make();
  open.push(made);
  await made.seed(files);
  const tools = fsTools({ backend: made.backend, permissions: RANGE });
  const text = async (name: string, args: Record<string, unknown>) =>
    textOf(await tools.call(name, args));
  return { ...tools, made, text };
}

describe.each(FAMILIES.filter((f) => f.wildcards).map((f) => [f.name, f] as const))(
  "%s: brace and code-point rules protect what they name",
  (_, family) => {
    it("a deny of /logs/{2023..2025}/** refuses read, grep and edit in each year", async () => {
      const { call, ok, text } = await world(family);
      for (const year of ["2023", "2024", "2025"]) {
        const file = `/w/logs/${year}/app.log`;
        const read = await call("read_file", { file_path: file });
        expect(read.status).toBe("error");
        expect(textOf(read)).toContain("blocked by rule 1 (deny read /w/logs/{2023..2025}/**)");
        const edit = await call("edit_file", {
          file_path: file,
          old_string: "secret",
          new_string: "leaked",
        });
        expect(edit.status).toBe("error");
      }
      expect(await ok("grep", { pattern: "secret", path: "/w/logs" })).toBe("No matches found.");
      expect(await ok("glob", { pattern: "**/*.log", path: "/w" })).toBe("/w/logs/2026/app.log");
      expect(await ok("read_file", { file_path: "/w/logs/2026/app.log" })).toContain("open 2026");
      expect(await text("grep", { pattern: "secret", path: "/w/logs/2024" })).toBe(
        `Error: Permission denied: read of /w/logs/2024 is blocked by rule 1 (deny read /w/logs/{2023..2025}/**).`,
      );
    });

    it("? and brackets take an emoji whole, as one character of the name", async () => {
      const { call, ok } = await world(family);
      for (const file of ["/w/keys/🔑.pem", "/w/vault/🔒box"]) {
        expect((await call("read_file", { file_path: file })).status).toBe("error");
      }
      expect(await ok("read_file", { file_path: "/w/keys/ab.pem" })).toContain("open key");
      const found = await ok("grep", { pattern: "key", path: "/w" });
      expect(found).toBe("/w/keys/ab.pem");
      expect(await ok("glob", { pattern: "*", path: "/w/vault" })).toBe("/w/vault/open");
    });

    it("a search rooted in a denied path says the same whether it exists or not", async () => {
      const present = await world(family);
      const absent = await world(family, { "/w/logs/2026/app.log": "open 2026" });
      for (const [name, args] of [
        ["ls", { path: "/w/logs/2024" }],
        ["glob", { pattern: "**", path: "/w/logs/2024" }],
        ["grep", { pattern: "secret", path: "/w/logs/2024" }],
        ["grep", { pattern: "secret", path: "/w/logs/2024/app.log", output_mode: "count" }],
        ["glob", { pattern: "*", path: "/w/keys/🔑.pem" }],
      ] as const) {
        const here = await present.call(name, args);
        const gone = await absent.call(name, args);
        expect(here.status, `${name} ${args.path}`).toBe("error");
        expect(textOf(here)).toMatch(
          /^Error: Permission denied: read of \/w\/.* is blocked by rule/,
        );
        expect(textOf(gone)).toBe(textOf(here));
      }
    });
  },
);

describe("disk: a rule is decided on the real path, through links", () => {
  it("a link to /logs/2024 is refused by the range rule", async () => {
    const disk = FAMILIES.find((f) => f.name === "disk")!;
    const { made, call, ok } = await world(disk);
    fs.symlinkSync("logs/2024", path.join(made.root!, "w", "recent"));
    expect((await call("read_file", { file_path: "/w/recent/app.log" })).status).toBe("error");
    expect(await ok("grep", { pattern: "secret", path: "/w" })).toBe("No matches found.");
  });
});

describe.skipIf(!HAS_BWRAP)("sandbox: a brace rule is mounted as its literal paths", () => {
  it("execute cannot read a year the range denies, and reads the others", async () => {
    const sandbox = FAMILIES.find((f) => f.name === "sandbox")!;
    const made = sandbox.make();
    open.push(made);
    await made.seed(FILES);
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          {
            name: "execute",
            args: { command: "cat w/logs/2024/app.log; cat w/logs/2026/app.log" },
          },
          { name: "read_file", args: { file_path: "/w/logs/2025/app.log" } },
        ],
      },
      "done",
    ]);
    const agent = createDeepAgent({
      model,
      backend: made.backend,
      permissions: [
        { operations: ["read", "write"], paths: ["/w/logs/{2023..2025}/**"], mode: "deny" },
      ],
    });
    const out = await agent.invoke({ messages: [{ role: "user", content: "read the logs" }] });
    const text = out.messages.map((m: { content: unknown }) => String(m.content)).join("\n");
    expect(text).toContain("open 2026");
    expect(text).not.toMatch(/secret 202[345]/);
  });
});

describe("rule syntax is either matched in full or refused at construction", () => {
  const refusal = (paths: string[]) => {
    try {
      validatePermissions([{ operations: ["read"], paths, mode: "deny" }]);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };

  it.each([
    ["/logs/{1..999999}/**", /expands to more than 256 patterns.*use a wildcard such as \*/],
    [`/a/${"{x,y}".repeat(9)}`, /expands to more than 256 patterns/],
    ["/logs/{2024}", /the group "\{2024\}" has no comma or range.*\[\{\] and \[\}\]/],
    ["/logs/{2023,2024", /an unclosed "\{" matches literally/],
    ["/keys/[ab.pem", /an unclosed "\[" matches literally.*\[\[\]/],
  ])("%s is refused, naming the fix", (rule, reason) => {
    const started = performance.now();
    expect(refusal([rule])).toMatch(reason);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it.each([
    ["/logs/{01..03}/**", "/logs/02/a", "/logs/2/a"],
    ["/logs/{1..9..4}", "/logs/5", "/logs/3"],
    ["/logs/{c..a}", "/logs/b", "/logs/d"],
    ["/a/{x,{y,z}}/**", "/a/z/k", "/a/w/k"],
    ["/a/[[:digit:]]*", "/a/7up", "/a/up7"],
    ["/a/[{]literal[}]", "/a/{literal}", "/a/literal"],
    ["/a/(draft)|+(x)", "/a/(draft)|+(x)", "/a/draft"],
  ])("%s covers %s and not %s", (rule, covered, open) => {
    const rules = validatePermissions([{ operations: ["read"], paths: [rule], mode: "deny" }]);
    expect(decide(rules, "read", covered).mode).toBe("deny");
    expect(decide(rules, "read", open).mode).toBe("allow");
  });
});
