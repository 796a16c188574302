import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { connectMcp, type McpConnection } from "delve/mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAlive } from "../helpers/process-alive.js";

// Hostile servers: ones that ignore SIGTERM and their stdin closing, ones started through
// `sh -c` (the real server is a grandchild), ones that start children of their own, and a
// parent that dies by SIGKILL (no exit hook runs). No server process may survive any of it.

const require = createRequire(import.meta.url);
const FIXTURE = `
const { spawn } = require("node:child_process");
const { McpServer } = require(${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/server/mcp.js"))});
const { StdioServerTransport } = require(${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/server/stdio.js"))});
const text = (t) => ({ content: [{ type: "text", text: t }] });
const server = new McpServer({ name: "stubborn", version: "1.0.0" });
server.registerTool("pid", { description: "The server's pid." }, async () => text(String(process.pid)));
server.registerTool("spawn_child", { description: "Starts a child." }, async () =>
  text(String(spawn("sleep", ["300"], { stdio: "ignore" }).pid)));
// Deaf to everything but SIGKILL.
process.on("SIGTERM", () => {});
process.on("SIGHUP", () => {});
setInterval(() => {}, 1000);
server.connect(new StdioServerTransport());
`;
const REPO = fileURLToPath(new URL("../../", import.meta.url));
let dir: string;
let fixture: string;
const leftovers: number[] = [];
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-mcp-orphans-"));
  fixture = path.join(dir, "stubborn-server.cjs");
  fs.writeFileSync(fixture, FIXTURE);
});
afterAll(() => {
  for (const pid of leftovers) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

const GRACE = 300;
const direct = () => ({
  transport: "stdio" as const,
  command: process.execPath,
  args: [fixture],
  shutdownGraceMs: GRACE,
});
// `; true` keeps sh from exec-ing node: the server is sh's child, our grandchild.
const throughShell = () => ({
  transport: "stdio" as const,
  command: "sh",
  args: ["-c", `trap '' TERM; "${process.execPath}" "${fixture}"; true`],
  shutdownGraceMs: GRACE,
});

async function goneWithin(pids: number[], ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!pids.some(isAlive)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !pids.some(isAlive);
}

async function pidsOf(mcp: McpConnection): Promise<number[]> {
  const tool = (name: string) => mcp.tools.find((t) => t.name === name)!;
  const pids = [Number(await tool("pid").invoke({})), Number(await tool("spawn_child").invoke({}))];
  leftovers.push(...pids);
  expect(pids.every(isAlive)).toBe(true);
  return pids;
}

describe("close() with hostile servers", () => {
  for (const [label, server] of [
    ["a server that ignores SIGTERM and its stdin closing", direct],
    ["a server started through sh -c (a grandchild), with sh ignoring SIGTERM", throughShell],
  ] as const) {
    it(`${label}: close() returns within its bound and the server and its child are gone`, async () => {
      const mcp = await connectMcp({ s: server() });
      const pids = await pidsOf(mcp);
      const started = Date.now();
      await mcp.close();
      expect(Date.now() - started).toBeLessThan(2 * GRACE + 3000);
      expect(await goneWithin(pids, 1000)).toBe(true);
    }, 30_000);
  }

  it("a server that exits on its own takes its children with it", async () => {
    const mcp = await connectMcp({
      s: { ...throughShell(), args: ["-c", `"${process.execPath}" "${fixture}"; true`] },
    });
    const [server, child] = await pidsOf(mcp);
    process.kill(server!, "SIGKILL");
    expect(await goneWithin([child!], 2 * GRACE + 3000)).toBe(true);
    await mcp.close();
  }, 30_000);
});

describe("start-up", () => {
  it("a command that does not exist is a connect error naming the spawn failure, at once", async () => {
    const started = Date.now();
    const error = await connectMcp({
      s: { transport: "stdio", command: "no-such-mcp-server-xyz" },
    }).catch((e) => e);
    expect(error.message).toBe(
      'Could not connect to MCP server "s" (no-such-mcp-server-xyz): spawn no-such-mcp-server-xyz ENOENT.',
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe("a parent that dies without cleaning up", () => {
  // A real Node parent connects, prints the server's pids, and is then killed by the test.
  const parentSource = `
import { connectMcp } from ${JSON.stringify(new URL("../../src/mcp/index.ts", import.meta.url).href)};
const server = JSON.parse(process.argv[2]);
const mcp = await connectMcp({ s: server });
const tool = (name) => mcp.tools.find((t) => t.name === name);
console.log(JSON.stringify([Number(await tool("pid").invoke({})), Number(await tool("spawn_child").invoke({}))]));
setInterval(() => {}, 1000);
`;
  for (const [label, server, wholeGroup] of [
    ["the parent gets SIGKILL", throughShell, false],
    ["the parent's whole process group gets SIGKILL", direct, true],
  ] as const) {
    it(`${label}: the server and its child are gone within seconds`, async () => {
      const parentFile = path.join(dir, "parent.mts");
      fs.writeFileSync(parentFile, parentSource);
      const parent = spawn(
        process.execPath,
        ["--import", "tsx", parentFile, JSON.stringify(server())],
        { cwd: REPO, stdio: ["ignore", "pipe", "inherit"], detached: wholeGroup },
      );
      const exited = new Promise((resolve) => parent.once("exit", resolve));
      const pids = await new Promise<number[]>((resolve, reject) => {
        let out = "";
        parent.stdout.on("data", (chunk) => {
          out += chunk;
          if (out.includes("\n")) resolve(JSON.parse(out));
        });
        parent.once("exit", () => reject(new Error("the parent exited early")));
      });
      leftovers.push(...pids);
      expect(pids.every(isAlive)).toBe(true);
      if (wholeGroup) process.kill(-parent.pid!, "SIGKILL");
      else parent.kill("SIGKILL");
      await exited;
      expect(await goneWithin(pids, 2 * GRACE + 3000)).toBe(true);
    }, 30_000);
  }
});
