import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../src/errors/index.js";
import { addAllowRule, loadConfig, userConfigPath } from "../../src/run/config.js";

const run = promisify(execFile);

function workspace(project?: unknown, user?: unknown) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "delve-config-"));
  const cwd = path.join(root, "repo");
  const xdg = path.join(root, "xdg");
  fs.mkdirSync(cwd, { recursive: true });
  const put = (file: string, value: unknown) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  };
  if (project !== undefined) put(path.join(cwd, ".delve", "config.json"), project);
  if (user !== undefined) put(path.join(xdg, "delve", "config.json"), user);
  return { cwd, env: { XDG_CONFIG_HOME: xdg, HOME: root } as NodeJS.ProcessEnv, root };
}

function configError(fn: () => unknown): ConfigurationError {
  try {
    fn();
  } catch (error) {
    if (ConfigurationError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a ConfigurationError");
}

describe("loadConfig", () => {
  it("returns an empty config and no files when there is none", () => {
    const { cwd, env } = workspace();
    expect(loadConfig({ cwd, env })).toEqual({ config: {}, files: [] });
  });

  it("lets the project beat the user: scalars override, rules concatenate, maps merge", () => {
    const { cwd, env } = workspace(
      {
        model: "openai:gpt-4.1",
        rules: { allow: ["execute(npm test*)"], deny: ["execute(rm -rf*)"] },
        prices: { "openai:gpt-4.1": { input: 1, output: 2 } },
        mcpServers: { docs: { command: "docs-mcp" } },
      },
      {
        model: "anthropic:claude-sonnet-4-6",
        approval: "edits",
        rules: { allow: ["execute(git status*)", "execute(npm test*)"] },
        prices: { "openai:gpt-4.1": { input: 9, output: 9 }, "ollama:x": { input: 0, output: 0 } },
        mcpServers: { docs: { command: "old" }, web: { url: "http://x" } },
      },
    );
    const { config, files } = loadConfig({ cwd, env });
    expect(files).toEqual([
      path.join(env.XDG_CONFIG_HOME!, "delve", "config.json"),
      path.join(cwd, ".delve", "config.json"),
    ]);
    expect(config.model).toBe("openai:gpt-4.1");
    expect(config.approval).toBe("edits");
    expect(config.rules).toEqual({
      allow: ["execute(git status*)", "execute(npm test*)"],
      deny: ["execute(rm -rf*)"],
    });
    expect(config.prices).toEqual({
      "openai:gpt-4.1": { input: 1, output: 2 },
      "ollama:x": { input: 0, output: 0 },
    });
    expect(config.mcpServers).toEqual({ docs: { command: "docs-mcp" }, web: { url: "http://x" } });
  });

  it('takes askUser (the project beating the user) and the model "human"', () => {
    const { cwd, env } = workspace({ askUser: false, model: "human" }, { askUser: true });
    expect(loadConfig({ cwd, env }).config).toMatchObject({ askUser: false, model: "human" });
    const bad = workspace(undefined, { askUser: "yes" });
    expect(() => loadConfig(bad)).toThrow(/"askUser" is invalid/);
  });

  it("falls back to ~/.config/delve when XDG_CONFIG_HOME is unset", () => {
    expect(userConfigPath({ HOME: "/home/u" })).toBe("/home/u/.config/delve/config.json");
    expect(userConfigPath({ HOME: "/home/u", XDG_CONFIG_HOME: "relative" })).toBe(
      "/home/u/.config/delve/config.json",
    );
    expect(userConfigPath({ XDG_CONFIG_HOME: "/x" })).toBe("/x/delve/config.json");
  });

  it("names the file, the unknown key and the nearest valid one", () => {
    const { cwd, env } = workspace({ aproval: "ask" });
    const e = configError(() => loadConfig({ cwd, env }));
    expect(e.code).toBe("INVALID_CONFIG");
    expect(e.message).toContain(path.join(cwd, ".delve", "config.json"));
    expect(e.message).toContain('"aproval" is not a config key. Did you mean "approval"?');
    expect(e.details).toMatchObject({ key: "aproval", suggestion: "approval" });
  });

  it("suggests keys inside rules and prices too", () => {
    const rules = workspace(undefined, { rules: { alow: [] } });
    expect(configError(() => loadConfig(rules)).message).toMatch(
      /"rules\.alow" is not a config key\. Did you mean "allow"\?/,
    );
    const prices = workspace({ prices: { "openai:x": { input: 1, output: 1, cachedRead: 1 } } });
    expect(configError(() => loadConfig(prices)).message).toMatch(/Did you mean "cacheRead"\?/);
  });

  it.each([
    [{ approval: "always" }, /"approval" is invalid/],
    [{ sandbox: "docker" }, /"sandbox" is invalid/],
    [{ model: "gpt-4o" }, /"model" is invalid: write "provider:model"/],
    [{ rules: { allow: "execute(ls)" } }, /"rules\.allow" is invalid/],
    [{ prices: { "openai:x": { input: -1, output: 1 } } }, /"prices\.openai:x\.input" is invalid/],
    ["{ not json", /is not valid JSON/],
    ["[]", /is invalid/],
  ])("refuses %j with the key and the fix", (content, why) => {
    const { cwd, env } = workspace(content);
    const e = configError(() => loadConfig({ cwd, env }));
    expect(e.message).toContain(".delve/config.json");
    expect(e.message).toMatch(why);
  });

  it("compiles rules at load, so a bad rule fails naming its file", () => {
    const { cwd, env } = workspace(undefined, { rules: { deny: ["execute(rm -rf*"] } });
    const e = configError(() => loadConfig({ cwd, env }));
    expect(e.code).toBe("INVALID_RULE");
    expect(e.message).toContain(path.join(env.XDG_CONFIG_HOME!, "delve", "config.json"));
  });
});

describe("addAllowRule", () => {
  it("creates the project config, keeps other keys and never duplicates", () => {
    const { cwd, env } = workspace({ model: "openai:gpt-4.1", rules: { deny: ["delete"] } });
    addAllowRule(cwd, "execute(git status)");
    addAllowRule(cwd, "execute(git status)");
    addAllowRule(cwd, "write_file(src/app.ts)");
    const { config } = loadConfig({ cwd, env });
    expect(config).toEqual({
      model: "openai:gpt-4.1",
      rules: { deny: ["delete"], allow: ["execute(git status)", "write_file(src/app.ts)"] },
    });
    expect(fs.readdirSync(path.join(cwd, ".delve"))).toEqual(["config.json"]);
  });

  it("creates .delve when the workspace has none", () => {
    const { cwd, env } = workspace();
    addAllowRule(cwd, "execute(ls)");
    expect(loadConfig({ cwd, env }).config.rules).toEqual({ allow: ["execute(ls)"] });
  });

  it("refuses a bad rule and leaves the file untouched", () => {
    const { cwd } = workspace({ model: "openai:gpt-4.1" });
    const before = fs.readFileSync(path.join(cwd, ".delve", "config.json"), "utf8");
    expect(configError(() => addAllowRule(cwd, "execute(")).code).toBe("INVALID_RULE");
    expect(fs.readFileSync(path.join(cwd, ".delve", "config.json"), "utf8")).toBe(before);
  });

  it("refuses to rewrite a config that is not JSON", () => {
    const { cwd } = workspace("{ broken");
    expect(configError(() => addAllowRule(cwd, "execute(ls)")).message).toMatch(
      /cannot be updated/,
    );
    expect(fs.readFileSync(path.join(cwd, ".delve", "config.json"), "utf8")).toBe("{ broken");
  });

  it("loses no rule when several processes add rules at once", async () => {
    const { cwd, env } = workspace({ model: "openai:gpt-4.1" });
    const script = path.join(import.meta.dirname, "add-allow-rule-process.ts");
    const startAt = String(Date.now() + 3000);
    await Promise.all(
      ["a", "b", "c"].map((id) =>
        run(process.execPath, ["--import", "tsx", script, cwd, id, "40", startAt], {
          cwd: process.cwd(),
        }),
      ),
    );
    const allow = loadConfig({ cwd, env }).config.rules?.allow ?? [];
    expect(allow).toHaveLength(120);
    expect(new Set(allow).size).toBe(120);
  }, 60_000);
});
