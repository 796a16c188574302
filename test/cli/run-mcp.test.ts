import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isAlive } from "../helpers/process-alive.js";
import { type Harness, startHarness } from "./run-harness.js";

// `delve run` with MCP servers: `--mcp FILE` and `.delve/mcp.json` in the Claude Desktop format
// start a real stdio server, the model calls its tool through the CLI, and the server process
// is gone once the run ends.

vi.setConfig({ testTimeout: 120_000 });

const require = createRequire(import.meta.url);
// A stdio MCP server whose one tool answers with the server's pid (and writes it down, so the
// test can check the process even when the run fails before the tool is called).
const FIXTURE = `
const fs = require("node:fs");
const { McpServer } = require(${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/server/mcp.js"))});
const { StdioServerTransport } = require(${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/server/stdio.js"))});
fs.writeFileSync(process.argv[2], String(process.pid));
const server = new McpServer({ name: "fixture", version: "1.0.0" });
server.registerTool("server_pid", { description: "The server's process id." }, async () => ({
  content: [{ type: "text", text: "pid " + process.pid }],
}));
server.connect(new StdioServerTransport());
`;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const RUN = ["--model", "openai:delve-unpriced-model", "--approval", "yolo", "--sandbox", "none"];

/** A workspace with the fixture server and an mcp file at `mcpPath` (relative) listing it. */
function workspaceWithServer(mcpPath: string) {
  const ws = h.workspace();
  const server = path.join(ws, "fixture-server.cjs");
  const pidFile = path.join(ws, "server.pid");
  fs.writeFileSync(server, FIXTURE);
  const mcp = { mcpServers: { fixture: { command: process.execPath, args: [server, pidFile] } } };
  fs.mkdirSync(path.dirname(path.join(ws, mcpPath)), { recursive: true });
  fs.writeFileSync(path.join(ws, mcpPath), JSON.stringify(mcp));
  return { ws, pidFile };
}

describe("delve run with MCP servers", () => {
  for (const [how, mcpPath, flags] of [
    ["--mcp FILE", "servers.json", ["--mcp", "servers.json"]],
    [".delve/mcp.json", ".delve/mcp.json", []],
  ] as const) {
    it(`${how}: the model calls the server's tool and the server is gone after the run`, async () => {
      const { ws, pidFile } = workspaceWithServer(mcpPath);
      h.openai.script([
        { toolCalls: [{ id: "c1", name: "server_pid", args: {} }] },
        { text: "the server answered" },
      ]);
      const run = await h.delve(ws, [
        "run",
        "ask the server",
        ...RUN,
        ...flags,
        "--output",
        "stream-json",
      ]);
      expect(run.code, run.stderr).toBe(0);
      const pid = Number(fs.readFileSync(pidFile, "utf8"));
      const result = run.events().find((e) => e.type === "tool_result" && e.call_id === "c1");
      expect(result).toMatchObject({
        status: "success",
        output: expect.stringContaining(`pid ${pid}`),
      });
      expect(run.events().at(-1)).toMatchObject({ type: "result", answer: "the server answered" });
      expect(isAlive(pid), `MCP server ${pid} outlived delve run`).toBe(false);
    });
  }

  it("the config's mcpServers start for run, and threads show starts no server", async () => {
    const { ws, pidFile } = workspaceWithServer(".delve/servers.json");
    const servers = JSON.parse(fs.readFileSync(path.join(ws, ".delve/servers.json"), "utf8"));
    fs.writeFileSync(path.join(ws, ".delve/config.json"), JSON.stringify(servers));
    h.openai.script([
      { toolCalls: [{ id: "c1", name: "server_pid", args: {} }] },
      { text: "done" },
    ]);
    const run = await h.delve(ws, ["run", "ask", ...RUN, "--output", "json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(fs.existsSync(pidFile)).toBe(true);
    fs.rmSync(pidFile);
    const show = await h.delve(ws, ["threads", "show", JSON.parse(run.stdout).thread_id]);
    expect(show.code, show.stderr).toBe(0);
    expect(fs.existsSync(pidFile), "threads show started the MCP server").toBe(false);
  });

  it.each([
    ["not JSON", "{ mcpServers: ", /cannot read it as JSON/],
    ["no mcpServers key", '{"servers": {}}', /expected \{ "mcpServers"/],
    [
      "an entry that is not an object",
      '{"mcpServers": {"tix": 5}}',
      /mcpServers\.tix must be an object/,
    ],
    [
      "an entry without command",
      '{"mcpServers": {"tix": {"args": ["x"]}}}',
      /MCP server "tix" needs command/,
    ],
    [
      "an unknown key",
      '{"mcpServers": {"tix": {"command": "node", "argz": []}}}',
      /"tix" has unknown key "argz"/,
    ],
  ])("a bad mcp file (%s) is exit 2 naming the file and the key", async (_, text, pattern) => {
    const ws = h.workspace({ "bad-mcp.json": text });
    const run = await h.delve(ws, ["run", "task", ...RUN, "--mcp", "bad-mcp.json"]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(path.join(ws, "bad-mcp.json"));
    expect(run.stderr).toMatch(pattern);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
