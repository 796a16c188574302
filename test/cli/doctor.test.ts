import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { probeBubblewrap } from "../../src/backends/sandbox/bwrap-args.js";
import { doctorLines } from "../../src/cli/doctor.js";

function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "delve-doctor-"));
  const cwd = path.join(root, "repo");
  fs.mkdirSync(cwd);
  return { cwd, env: { XDG_CONFIG_HOME: path.join(root, "xdg"), HOME: root } as NodeJS.ProcessEnv };
}

const line = (lines: { ok: boolean; text: string }[], prefix: string) =>
  lines.find((l) => l.text.startsWith(prefix));

describe("doctorLines", () => {
  it("says which provider packages and keys are there, never printing a key", async () => {
    const { cwd, env } = workspace();
    env.ANTHROPIC_API_KEY = "sk-ant-secret-value";
    env.OPENAI_BASE_URL = "http://user:hunter2@127.0.0.1:9999/v1";
    const lines = await doctorLines({ cwd, env });
    const all = lines.map((l) => l.text).join("\n");
    expect(all).not.toContain("sk-ant-secret-value");
    expect(all).not.toContain("hunter2");
    expect(line(lines, "anthropic:")).toMatchObject({ ok: true });
    expect(line(lines, "anthropic:")!.text).toMatch(
      /@langchain\/anthropic \d+\.\d+\.\d+, ANTHROPIC_API_KEY set/,
    );
    expect(line(lines, "openai:")).toMatchObject({ ok: false });
    expect(line(lines, "openai:")!.text).toContain(
      "OPENAI_BASE_URL points to http://127.0.0.1:9999",
    );
    expect(line(lines, "openai:")!.text).toContain("To use it: set OPENAI_API_KEY");
    expect(line(lines, "model:")).toEqual({
      ok: true,
      text: "model: delve run would use anthropic:claude-sonnet-4-6 (ANTHROPIC_API_KEY is set).",
    });
  });

  it("with no key and no model, the model line names every fix", async () => {
    const { cwd, env } = workspace();
    const lines = await doctorLines({ cwd, env });
    const model = line(lines, "model:")!;
    expect(model.ok).toBe(false);
    for (const fix of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "--model", "DELVE_MODEL"])
      expect(model.text).toContain(fix);
  });

  it("reports each config file, and a bad one with its file, key and fix", async () => {
    const { cwd, env } = workspace();
    expect(line(await doctorLines({ cwd, env }), "config:")!.text).toMatch(/^config: none/);
    fs.mkdirSync(path.join(cwd, ".delve"));
    fs.writeFileSync(
      path.join(cwd, ".delve", "config.json"),
      JSON.stringify({ modle: "openai:gpt-4.1" }),
    );
    const lines = await doctorLines({ cwd, env });
    const config = line(lines, "config:")!;
    expect(config.ok).toBe(false);
    expect(config.text).toContain(path.join(cwd, ".delve", "config.json"));
    expect(config.text).toContain('Did you mean "model"?');
    expect(line(lines, "model:")!.ok).toBe(false);
  });

  it("counts the threads, and says what to do with a broken database", async () => {
    const { cwd, env } = workspace();
    expect(line(await doctorLines({ cwd, env }), "threads:")).toMatchObject({
      ok: true,
      text: expect.stringMatching(/none yet/),
    });
    fs.mkdirSync(path.join(cwd, ".delve"));
    const file = path.join(cwd, ".delve", "threads.db");
    const db = new Database(file);
    db.exec(
      "CREATE TABLE delve_threads (id TEXT PRIMARY KEY, title TEXT, created_at TEXT, updated_at TEXT, settings TEXT)",
    );
    db.prepare("INSERT INTO delve_threads VALUES (?, 't', '', '', '{}')").run("a");
    db.prepare("INSERT INTO delve_threads VALUES (?, 't', '', '', '{}')").run("b");
    db.close();
    expect(line(await doctorLines({ cwd, env }), "threads:")).toEqual({
      ok: true,
      text: `threads: 2 in ${file}.`,
    });
    fs.writeFileSync(file, "not a database at all, just text ".repeat(100));
    const broken = line(await doctorLines({ cwd, env }), "threads:")!;
    expect(broken.ok).toBe(false);
    expect(broken.text).toMatch(/cannot be read as a SQLite database.*Move it away/);
  });

  it("reports the sandbox as the probe finds it", async () => {
    const { cwd, env } = workspace();
    const sandbox = line(await doctorLines({ cwd, env }), "sandbox:")!;
    expect(sandbox.ok).toBe(probeBubblewrap().ok);
    if (!sandbox.ok) expect(sandbox.text).toMatch(/--sandbox none/);
  });

  it("says how to install bubblewrap when it is not on PATH", async () => {
    const { cwd, env } = workspace();
    const saved = process.env.PATH;
    process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), "delve-empty-path-"));
    try {
      const sandbox = line(await doctorLines({ cwd, env }), "sandbox:")!;
      expect(sandbox).toMatchObject({ ok: false });
      expect(sandbox.text).toMatch(/not on PATH\. Install bubblewrap.*--sandbox none/);
    } finally {
      process.env.PATH = saved;
    }
  });
});
