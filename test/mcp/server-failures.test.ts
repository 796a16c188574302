import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolMessage } from "@langchain/core/messages";
import { ConfigurationError, createDeepAgent } from "delve";
import { connectMcp, type McpConnection, type McpStdioServer, toolText } from "delve/mcp";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixtureServer } from "../helpers/mcp-fixture-server.js";
import { isAlive } from "../helpers/process-alive.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
let dir: string;
let fixture: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-mcp-"));
  fixture = writeFixtureServer(dir);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function fixtureServer(extra: Partial<McpStdioServer> = {}): McpStdioServer {
  return {
    transport: "stdio",
    command: process.execPath,
    args: [fixture],
    exclude: ["read_file"],
    ...extra,
  };
}

async function call(mcp: McpConnection, name: string, args: Record<string, unknown> = {}) {
  const tool = mcp.tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return (await tool.invoke({ type: "tool_call", id: `call-${name}`, name, args })) as ToolMessage;
}

async function waitUntilGone(pid: number, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !isAlive(pid);
}

// Processes of ours still running the fixture (its path is on their command line).
function fixtureProcesses(): number[] {
  return fs
    .readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes(fixture);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("results", () => {
  it("an isError result becomes an error tool message carrying the server's text", async () => {
    const mcp = await connectMcp({ fx: fixtureServer() });
    try {
      const message = await call(mcp, "fail");
      expect(message.status).toBe("error");
      expect(toolText(message)).toBe("quota exceeded for today");
    } finally {
      await mcp.close();
    }
  });

  it("text, image and resource blocks are kept, in one block shape; toolText gives the text", async () => {
    const mcp = await connectMcp({ fx: fixtureServer({ include: ["chart"] }) });
    try {
      const message = await call(mcp, "chart");
      expect(message.status).toBe("success");
      const blocks = message.content as any[];
      // The shape read_file uses: provider classes read it once, with its real media type.
      expect(blocks.map((b) => b.type)).toEqual(["text", "image", "text"]);
      expect(blocks[1]).toEqual({ type: "image", mimeType: "image/png", data: expect.any(String) });
      expect(blocks[2]).toEqual({ type: "text", text: "note body" });
      expect(toolText(message)).toBe("Sales by month\nnote body");
    } finally {
      await mcp.close();
    }
  });
});

describe("names that would collide", () => {
  it("a server tool named read_file is refused with a hint, and the server is stopped", async () => {
    const error = await connectMcp({ fx: fixtureServer({ exclude: [] }) }).catch((e) => e);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect(error.code).toBe("MCP_TOOL_SHADOWS_BUILTIN");
    expect(error.message).toContain('prefix: "fx_"');
    expect(error.message).toContain('exclude: ["read_file"]');
    expect(fixtureProcesses()).toEqual([]);
  });

  it("the same tool name on two servers is refused; a prefix resolves it", async () => {
    const error = await connectMcp({ a: fixtureServer(), b: fixtureServer() }).catch((e) => e);
    expect(error.code).toBe("MCP_TOOL_CONFLICT");
    expect(error.message).toMatch(/servers "a" and "b" both expose a tool named "pid"/);
    expect(error.message).toContain('prefix: "b_"');
    expect(fixtureProcesses()).toEqual([]);

    const mcp = await connectMcp({
      a: fixtureServer({ include: ["echo"] }),
      b: fixtureServer({ include: ["echo", "read_file"], exclude: [], prefix: "b_" }),
    });
    try {
      expect(mcp.tools.map((t) => [t.name, t.metadata?.mcpServer])).toEqual([
        ["echo", "a"],
        ["b_echo", "b"],
        ["b_read_file", "b"],
      ]);
      expect(toolText(await call(mcp, "b_read_file", { path: "/x" }))).toBe("remote /x");
    } finally {
      await mcp.close();
    }
  });
});

describe("a server that fails during the run", () => {
  it("a server killed during a call gives an error result; the next call restarts it", async () => {
    const mcp = await connectMcp({ fx: fixtureServer() });
    try {
      const first = Number(toolText(await call(mcp, "pid")));
      const pending = call(mcp, "sleep", { ms: 10_000 });
      await new Promise((r) => setTimeout(r, 100));
      process.kill(first, "SIGKILL");
      const failed = await pending;
      expect(failed.status).toBe("error");
      expect(toolText(failed)).toMatch(
        /^Error: MCP server "fx" is unavailable \(.*Connection closed\)\. The call can be retried/,
      );
      const second = await call(mcp, "pid");
      expect(second.status).toBe("success");
      expect(Number(toolText(second))).not.toBe(first);
    } finally {
      await mcp.close();
    }
  });

  it("a server that died between calls is restarted by the next call", async () => {
    const mcp = await connectMcp({ fx: fixtureServer() });
    try {
      const first = Number(toolText(await call(mcp, "pid")));
      process.kill(first, "SIGKILL");
      expect(await waitUntilGone(first)).toBe(true);
      await new Promise((r) => setTimeout(r, 100));
      const next = await call(mcp, "echo", { text: "back" });
      expect([next.status, toolText(next)]).toEqual(["success", "back"]);
    } finally {
      await mcp.close();
    }
  });

  it("a call past its timeout gives the model an error result and the run goes on", async () => {
    const mcp = await connectMcp({ fx: fixtureServer({ timeoutMs: 300 }) });
    try {
      const before = Number(toolText(await call(mcp, "pid")));
      const model = new ScriptedChatModel([
        { toolCalls: [{ name: "sleep", args: { ms: 5000 } }] },
        { toolCalls: [{ name: "pid", args: {} }] },
        (messages) => `pid is ${toolText(messages.at(-1))}`,
      ]);
      const agent = createDeepAgent({ model, tools: mcp.tools });
      const started = Date.now();
      const result = await agent.invoke({ messages: [{ role: "user", content: "go" }] });
      expect(Date.now() - started).toBeLessThan(4000);
      const [timedOut, pid] = result.messages.filter((m: any) => m.getType() === "tool") as any[];
      expect(timedOut.status).toBe("error");
      expect(toolText(timedOut)).toBe(
        'Error: MCP server "fx" is unavailable: no answer to sleep within 300 ms. The call can be retried: the server is restarted on the next call.',
      );
      // The hung server was replaced, not reused.
      expect(pid.status).toBe("success");
      expect(Number(toolText(pid))).not.toBe(before);
      expect(await waitUntilGone(before)).toBe(true);
      expect(result.messages.at(-1)?.text).toBe(`pid is ${toolText(pid)}`);
    } finally {
      await mcp.close();
    }
  });
});

describe("no orphans", () => {
  it("close() ends the server process, and later calls neither work nor restart it", async () => {
    const mcp = await connectMcp({ fx: fixtureServer() });
    const pid = Number(toolText(await call(mcp, "pid")));
    await mcp.close();
    expect(isAlive(pid)).toBe(false);
    const after = await call(mcp, "pid");
    expect(after.status).toBe("error");
    expect(toolText(after)).toMatch(/disconnected \(close\(\) was called\)/);
    expect(fixtureProcesses()).toEqual([]);
  });

  // The parent is a real Node process that connects, prints the server's pid, then ends in
  // the given way without calling close(). The server ignores its stdin closing (LINGER),
  // so only the parent's own clean-up can end it.
  const parentSource = `
import { connectMcp } from ${JSON.stringify(new URL("../../src/mcp/index.ts", import.meta.url).href)};
const [fixture, mode] = process.argv.slice(2);
const mcp = await connectMcp({ fx: { transport: "stdio", command: process.execPath, args: [fixture], env: { FIXTURE_LINGER: "1" }, exclude: ["read_file"] } });
const pid = await mcp.tools.find((t) => t.name === "pid").invoke({});
console.log(String(pid));
// Ends when told to (a line on stdin), so the test can first see the server alive.
process.stdin.once("data", () => {
  if (mode === "exit") process.exit(0);
  if (mode === "throw") throw new Error("boom");
});
`;

  for (const [mode, signal] of [
    ["exit", undefined],
    ["throw", undefined],
    ["signal", "SIGTERM"],
    ["signal", "SIGINT"],
  ] as const) {
    it(`the server ends when its parent ${signal ? `gets ${signal}` : mode === "exit" ? "calls process.exit" : "dies of an uncaught error"}`, async () => {
      const parentFile = path.join(dir, "parent.mts");
      fs.writeFileSync(parentFile, parentSource);
      const parent = spawn(process.execPath, ["--import", "tsx", parentFile, fixture, mode], {
        cwd: REPO,
        stdio: ["pipe", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      parent.stderr.on("data", (c) => {
        err += c;
      });
      const serverPid = await new Promise<number>((resolve, reject) => {
        parent.stdout.on("data", (c) => {
          out += c;
          if (/^\d+\n/.test(out)) resolve(Number(out.trim()));
        });
        parent.on("exit", () => reject(new Error(`parent exited early: ${err}`)));
      });
      try {
        expect(isAlive(serverPid)).toBe(true);
        const exited = new Promise<number | string | null>((resolve) =>
          parent.on("exit", (code, sig) => resolve(code ?? sig)),
        );
        if (signal) parent.kill(signal);
        else parent.stdin?.write("go\n");
        expect(await exited).toBe(signal ?? (mode === "exit" ? 0 : 1));
        expect(await waitUntilGone(serverPid, 3000)).toBe(true);
      } finally {
        if (isAlive(serverPid)) process.kill(serverPid, "SIGKILL"); // Do not leave one behind.
      }
    }, 20_000);
  }
});
