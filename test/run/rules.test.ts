import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../src/errors/index.js";
import { compileRules, decideCall, narrowestRule, narrowestRules } from "../../src/run/rules.js";

const ctx = { workspace: "/work/project" };
const call = (name: string, args: Record<string, unknown>) => ({ name, args });
const sh = (command: string) => call("execute", { command });

describe("compileRules", () => {
  it("names the bad rule, its list, the file and the fix", () => {
    const cases: [unknown, RegExp][] = [
      ["execute(git status", /no closing parenthesis/],
      ["(x)", /names no tool/],
      ["execute()", /empty pattern/],
      ["task(research*)", /only takes bare rules.*write "task" alone/],
      ["write_file(../x)", /climbs out/],
      ["bad tool name", /is not a tool name/],
      [42, /is not a string/],
    ];
    for (const [rule, why] of cases) {
      let error: unknown;
      try {
        compileRules({ allow: ["execute(ls)", rule as string] }, "/p/.delve/config.json");
      } catch (e) {
        error = e;
      }
      expect(ConfigurationError.isInstance(error), String(rule)).toBe(true);
      const e = error as ConfigurationError;
      expect(e.code).toBe("INVALID_RULE");
      expect(e.message).toMatch(why);
      expect(e.message).toContain("rules.allow in /p/.delve/config.json");
      expect(e.details.rule).toBe(rule);
    }
  });

  it("accepts bare tools, commands and path globs", () => {
    const compiled = compileRules({
      allow: ["execute(git status*)", "write_file(src/**)", "web_search"],
      ask: ["execute(git push*)"],
      deny: ["delete"],
    });
    expect(compiled.allow.map((r) => r.tool)).toEqual(["execute", "write_file", "web_search"]);
  });
});

describe("decideCall precedence", () => {
  const rules = compileRules({
    allow: ["execute(git*)", "write_file(src/**)", "web_search"],
    ask: ["execute(git push*)", "write_file(src/generated/**)"],
    deny: ["execute(git push --force*)", "write_file(src/secret.ts)"],
  });

  it("deny beats ask beats allow", () => {
    expect(decideCall(rules, "ask", sh("git push --force origin"), ctx)).toMatchObject({
      verdict: "deny",
      rule: "execute(git push --force*)",
    });
    expect(decideCall(rules, "yolo", sh("git push origin"), ctx)).toMatchObject({
      verdict: "ask",
      rule: "execute(git push*)",
    });
    expect(decideCall(rules, "ask", sh("git log"), ctx)).toMatchObject({
      verdict: "allow",
      rule: "execute(git*)",
    });
    const w = (file_path: string) => call("write_file", { file_path, content: "" });
    expect(decideCall(rules, "yolo", w("src/secret.ts"), ctx).verdict).toBe("deny");
    expect(decideCall(rules, "edits", w("src/generated/a.ts"), ctx).verdict).toBe("ask");
    expect(decideCall(rules, "ask", w("src/a.ts"), ctx).verdict).toBe("allow");
  });

  it("a bare rule matches every call of its tool", () => {
    expect(decideCall(rules, "ask", call("web_search", { q: "x" }), ctx).verdict).toBe("allow");
  });
});

describe("decideCall modes", () => {
  const none = compileRules({});
  const write = call("write_file", { file_path: "/src/a.ts", content: "x" });
  const edit = call("edit_file", { file_path: "README.md", old_string: "a", new_string: "b" });
  const read = call("read_file", { file_path: "/src/a.ts" });

  it("ask mode asks for writes, execute and unknown tools, and lets reads through", () => {
    expect(decideCall(none, "ask", write, ctx).verdict).toBe("ask");
    expect(decideCall(none, "ask", edit, ctx).verdict).toBe("ask");
    expect(decideCall(none, "ask", sh("ls"), ctx).verdict).toBe("ask");
    expect(decideCall(none, "ask", call("mcp_deploy", {}), ctx).verdict).toBe("ask");
    expect(decideCall(none, "ask", read, ctx).verdict).toBe("allow");
    expect(decideCall(none, "ask", call("grep", { pattern: "x" }), ctx).verdict).toBe("allow");
    expect(decideCall(none, "ask", call("task", { description: "x" }), ctx).verdict).toBe("allow");
  });

  it("edits mode lets workspace writes through and still asks for execute", () => {
    expect(decideCall(none, "edits", write, ctx).verdict).toBe("allow");
    expect(decideCall(none, "edits", edit, ctx).verdict).toBe("allow");
    expect(decideCall(none, "edits", sh("ls"), ctx).verdict).toBe("ask");
  });

  it("yolo mode lets everything through that no rule stops", () => {
    expect(decideCall(none, "yolo", sh("rm -rf build"), ctx).verdict).toBe("allow");
    expect(decideCall(none, "yolo", call("mcp_deploy", {}), ctx).verdict).toBe("allow");
    expect(decideCall(none, "yolo", write, ctx).reason).toBe("yolo mode");
  });

  it("tools declared read-only by the caller are allowed", () => {
    const d = decideCall(none, "ask", call("mcp_lookup", {}), {
      ...ctx,
      readOnlyTools: ["mcp_lookup"],
    });
    expect(d.verdict).toBe("allow");
  });
});

describe("narrowestRule", () => {
  it("is the exact command, and allows only that command again", () => {
    const rule = narrowestRule(sh("git   status --short"), ctx);
    expect(rule).toBe("execute(git status --short)");
    const compiled = compileRules({ allow: [rule] });
    expect(decideCall(compiled, "ask", sh("git status --short"), ctx).verdict).toBe("allow");
    expect(decideCall(compiled, "ask", sh("git status --short; rm x"), ctx).verdict).toBe("ask");
    expect(decideCall(compiled, "ask", sh("git status --short x"), ctx).verdict).toBe("ask");
  });

  it("quotes words with spaces and escapes stars", () => {
    const rule = narrowestRule(sh("git commit -m 'fix *all* bugs'"), ctx);
    expect(rule).toBe("execute(git commit -m 'fix \\*all\\* bugs')");
    const compiled = compileRules({ allow: [rule] });
    expect(decideCall(compiled, "ask", sh('git commit -m "fix *all* bugs"'), ctx).verdict).toBe(
      "allow",
    );
    expect(decideCall(compiled, "ask", sh("git commit -m 'fix xall bugs'"), ctx).verdict).toBe(
      "ask",
    );
  });

  it("gives one rule per command of a compound line", () => {
    const line = sh("npm ci && npm test | tee out.txt");
    expect(narrowestRules(line, ctx)).toEqual([
      "execute(npm ci)",
      "execute(npm test)",
      "execute(tee out.txt)",
    ]);
    expect(narrowestRule(line, ctx)).toBe("execute(npm ci)");
    const compiled = compileRules({ allow: narrowestRules(line, ctx) });
    expect(decideCall(compiled, "ask", line, ctx).verdict).toBe("allow");
  });

  it("is the exact path for file tools, with glob characters escaped", () => {
    expect(narrowestRule(call("write_file", { file_path: "/src/app.ts" }), ctx)).toBe(
      "write_file(src/app.ts)",
    );
    const odd = call("write_file", { file_path: "/src/[id]/*.ts" });
    const rule = narrowestRule(odd, ctx);
    const compiled = compileRules({ allow: [rule] });
    expect(decideCall(compiled, "ask", odd, ctx).verdict).toBe("allow");
    const other = call("write_file", { file_path: "/src/i/a.ts" });
    expect(decideCall(compiled, "ask", other, ctx).verdict).toBe("ask");
  });

  it("is the bare tool for other tools", () => {
    expect(narrowestRule(call("mcp_deploy", { env: "prod" }), ctx)).toBe("mcp_deploy");
  });
});
