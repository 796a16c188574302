import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

// A small real MCP server (plain CommonJS, so it starts fast) with the misbehaviours the
// client must survive. FIXTURE_LINGER=1 keeps it alive after its stdin closes, like a
// server holding a pool or a timer: only the client's own clean-up can end it then.
// FIXTURE_LOG=<file> adds hang_once, a tool that hangs until the client cancels it.
const require = createRequire(import.meta.url);
const FIXTURE = `
const { McpServer } = require(${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/server/mcp.js"))});
const { StdioServerTransport } = require(${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/server/stdio.js"))});
const { z } = require(${JSON.stringify(require.resolve("zod"))});
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const text = (t) => ({ content: [{ type: "text", text: t }] });
const server = new McpServer({ name: "fixture", version: "1.0.0" });
server.registerTool("pid", { description: "The server's process id." }, async () => text(String(process.pid)));
server.registerTool("echo", { description: "Echoes.", inputSchema: { text: z.string() } }, async (a) => text(a.text));
server.registerTool("sleep", { description: "Waits.", inputSchema: { ms: z.number() } }, async (a) => {
  await new Promise((r) => setTimeout(r, a.ms));
  return text("slept");
});
// FIXTURE_LOG=<file>: hang_once never answers its first call, and the client's
// cancellation of a request is written to the file.
if (process.env.FIXTURE_LOG) {
  let calls = 0;
  server.registerTool("hang_once", { description: "Hangs the first time." }, async (extra) => {
    extra.signal.addEventListener("abort", () => require("node:fs").appendFileSync(process.env.FIXTURE_LOG, "cancelled\\n"));
    if (calls++ === 0) await new Promise(() => {});
    return text("answered");
  });
}
server.registerTool("fail", { description: "Always fails." }, async () => ({ ...text("quota exceeded for today"), isError: true }));
server.registerTool("chart", { description: "A chart." }, async () => ({ content: [
  { type: "text", text: "Sales by month" },
  { type: "image", data: PNG, mimeType: "image/png" },
  { type: "resource", resource: { uri: "mem://notes.txt", mimeType: "text/plain", text: "note body" } },
] }));
server.registerTool("read_file", { description: "Reads a remote file.", inputSchema: { path: z.string() } }, async (a) => text("remote " + a.path));
if (process.env.FIXTURE_LINGER) setInterval(() => {}, 1000);
else process.stdin.on("end", () => process.exit(0));
server.connect(new StdioServerTransport());
`;

/** Writes the fixture server into `dir` and returns its path (run it with `node <path>`). */
export function writeFixtureServer(dir: string): string {
  const file = path.join(dir, "fixture-server.cjs");
  fs.writeFileSync(file, FIXTURE);
  return file;
}
