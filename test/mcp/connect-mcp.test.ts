import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolMessage } from "@langchain/core/messages";
import { ConfigurationError } from "delve";
import {
  connectMcp,
  type McpCall,
  type McpConnection,
  McpConnectionError,
  type McpHttpServer,
  toolText,
} from "delve/mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ticketDeskStdio } from "../../examples/ticket-desk/agent.js";
import { openTicketStore, seedTicketDb } from "../../examples/ticket-desk/database.js";
import { startTicketHttpServer } from "../../examples/ticket-desk/http-server.js";

// The example ticket desk server, for real: over stdio as a child process, and over HTTP
// as a separate process on a loopback port with a bearer token.
const REPO = fileURLToPath(new URL("../../", import.meta.url));
const TOKEN = "desk-token-123";
let dir: string;
let dbPath: string;
let httpServer: ChildProcess;
let url: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-mcp-desk-"));
  dbPath = path.join(dir, "tickets.db");
  seedTicketDb(dbPath);
  httpServer = spawn(
    process.execPath,
    ["--import", "tsx", path.join(REPO, "examples/ticket-desk/server-http.ts"), dbPath],
    {
      cwd: REPO,
      env: { ...process.env, TICKET_DESK_TOKEN: TOKEN },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    httpServer.stdout?.on("data", (chunk) => {
      out += chunk;
      const found = /listening on (\S+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    httpServer.on("exit", (code) => reject(new Error(`HTTP server exited with ${code}`)));
  });
});

afterAll(() => {
  httpServer?.kill();
  fs.rmSync(dir, { recursive: true, force: true });
});

const http = (extra: Partial<McpHttpServer> = {}): McpHttpServer => ({
  transport: "http",
  url,
  headers: { Authorization: `Bearer ${TOKEN}` },
  ...extra,
});

async function call(mcp: McpConnection, name: string, args: Record<string, unknown> = {}) {
  const tool = mcp.tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${mcp.tools.map((t) => t.name)}`);
  return (await tool.invoke({ type: "tool_call", id: `call-${name}`, name, args })) as ToolMessage;
}

describe("the ticket desk over stdio", () => {
  let mcp: McpConnection;
  beforeAll(async () => {
    mcp = await connectMcp({ ticket: ticketDeskStdio(dbPath) });
  });
  afterAll(() => mcp?.close());

  it("gives LangChain tools that name their server and keep the server's annotations", () => {
    expect(mcp.tools.map((t) => t.name)).toEqual(["get_ticket", "search_tickets"]);
    expect(mcp.tools[0]!.metadata).toMatchObject({
      mcpServer: "ticket",
      mcpTool: "get_ticket",
      annotations: { readOnlyHint: true },
    });
    const schema = mcp.tools[1]!.schema as any;
    expect(schema.properties.status.enum).toEqual(["unassigned", "processing", "closed"]);
    expect(schema.properties.page_size.maximum).toBe(20);
  });

  it("a lookup returns the ticket, and an unknown id a structured not_found error result", async () => {
    const found = await call(mcp, "get_ticket", { ticket_id: "T-1001" });
    expect(found.status).toBe("success");
    expect(JSON.parse(toolText(found))).toMatchObject({
      status: "processing",
      category: "logistics",
      summary: "express delayed two days",
    });
    const missing = await call(mcp, "get_ticket", { ticket_id: "T-9999" });
    expect(missing.status).toBe("error");
    expect(missing.tool_call_id).toBe("call-get_ticket");
    expect(JSON.parse(toolText(missing))).toEqual({
      error: "not_found",
      message: "No ticket T-9999.",
      hint: expect.stringContaining("search_tickets"),
    });
  });

  it("search pages with a total", async () => {
    const page = await call(mcp, "search_tickets", { status: "unassigned", page_size: 2 });
    const body = JSON.parse(toolText(page));
    expect(body).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(body.items.map((t: any) => t.ticket_id)).toEqual(["T-1003", "T-1005"]);
  });

  it("lists the server's resources and prompts, readable through the connection", async () => {
    const [guide] = await mcp.resources();
    expect(guide).toMatchObject({ server: "ticket", uri: "ticket-desk://guide" });
    expect((await guide!.read())[0]!.text).toContain("unassigned: nobody owns");
    const [prompt] = await mcp.prompts();
    expect(prompt).toMatchObject({ server: "ticket", name: "status_brief" });
    const [message] = await prompt!.get({ status: "closed" });
    expect(message!.text).toBe("Search all closed tickets and write a short brief to /brief.md.");
  });
});

describe("choosing and naming tools", () => {
  it("include and exclude pick a server's tools; prefix renames them (over HTTP)", async () => {
    const mcp = await connectMcp({
      a: http({ include: ["get_ticket"] }),
      b: http({ exclude: ["get_ticket"], prefix: "crm_" }),
    });
    try {
      expect(mcp.tools.map((t) => [t.name, t.metadata?.mcpServer])).toEqual([
        ["get_ticket", "a"],
        ["crm_search_tickets", "b"],
      ]);
      const result = await call(mcp, "crm_search_tickets", { keyword: "REFUND" });
      expect(JSON.parse(toolText(result)).total).toBe(2);
    } finally {
      await mcp.close();
    }
  });

  it("an include naming a tool the server lacks is refused, listing what it offers", async () => {
    const error = await connectMcp({ a: http({ include: ["get_tickets"] }) }).catch((e) => e);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect(error.code).toBe("UNKNOWN_MCP_TOOL");
    expect(error.message).toContain("It offers: get_ticket, search_tickets");
  });

  it("a malformed entry is refused before anything starts", async () => {
    const wrongKey = await connectMcp({ a: { ...http(), prefx: "x_" } as any }).catch((e) => e);
    expect(wrongKey.code).toBe("INVALID_MCP_SERVER");
    expect(wrongKey.message).toContain('unknown key "prefx"');
    const noTransport = await connectMcp({ a: { url } as any }).catch((e) => e);
    expect(noTransport.message).toContain('needs transport: "stdio" or "http"');
  });
});

describe("connection failures", () => {
  it("an HTTP server without the bearer token refuses the connection, and the error says so", async () => {
    for (const headers of [undefined, { Authorization: "Bearer wrong" }]) {
      const error = await connectMcp({ crm: http({ headers }) }).catch((e) => e);
      expect(McpConnectionError.isInstance(error)).toBe(true);
      expect(error.code).toBe("MCP_UNAUTHORIZED");
      expect(error.server).toBe("crm");
      expect(error.message).toMatch(/refused the connection: HTTP 401 Unauthorized/);
      expect(error.message).toContain("Authorization");
    }
  });

  it("an unreachable URL and a server that dies at start-up are connect errors with the reason", async () => {
    const unreachable = await connectMcp({
      crm: { transport: "http", url: "http://127.0.0.1:9/mcp" },
    }).catch((e) => e);
    expect(unreachable.code).toBe("MCP_CONNECT_FAILED");
    expect(unreachable.message).toContain('MCP server "crm" at http://127.0.0.1:9/mcp');

    const badDb = await connectMcp({
      ticket: ticketDeskStdio(path.join(dir, "missing.db")),
    }).catch((e) => e);
    expect(badDb.code).toBe("MCP_CONNECT_FAILED");
    expect(badDb.message).toMatch(
      /Its stderr ended with: ticket-desk: cannot open the database .*missing.db: unable to open/,
    );
  });

  it("an HTTP server that goes away gives error results; the call after it is back reconnects", async () => {
    const store = openTicketStore(dbPath);
    const first = await startTicketHttpServer({ store, token: TOKEN });
    const port = Number(new URL(first.url).port);
    const mcp = await connectMcp({ crm: http({ url: first.url }) });
    try {
      await first.close();
      const down = await call(mcp, "get_ticket", { ticket_id: "T-1001" });
      expect(down.status).toBe("error");
      expect(toolText(down)).toMatch(
        /^Error: MCP server "crm" is unavailable \(.+\)\. The call can be retried: the server is reconnected/,
      );
      const again = await call(mcp, "get_ticket", { ticket_id: "T-1001" });
      expect(again.status).toBe("error");
      const second = await startTicketHttpServer({ store, token: TOKEN, port });
      try {
        const back = await call(mcp, "get_ticket", { ticket_id: "T-1001" });
        expect(back.status).toBe("success");
      } finally {
        await second.close();
      }
    } finally {
      await mcp.close();
      store.close();
    }
  });
});

describe("interceptors", () => {
  it("before can rewrite arguments and headers, after sees every result; first is outermost", async () => {
    const log: string[] = [];
    const mcp = await connectMcp({
      crm: http({
        interceptors: [
          {
            before: (call) => {
              log.push(`audit ${call.name} ${JSON.stringify(call.args)}`);
            },
            after: (call, result) => {
              log.push(`audit ${call.name} -> ${result.status}`);
            },
          },
          {
            // Narrows every search to one result, and sends a stale token on lookups.
            before: (call: McpCall) =>
              call.tool === "search_tickets"
                ? { ...call, args: { ...call.args, page_size: 1 } }
                : { ...call, headers: { Authorization: "Bearer stale" } },
            after: (call, result) => {
              log.push(`inner ${call.name} -> ${result.status}`);
            },
          },
        ],
      }),
    });
    try {
      const search = await call(mcp, "search_tickets", { status: "closed" });
      expect(JSON.parse(toolText(search))).toMatchObject({ total: 3, page_size: 1 });
      const lookup = await call(mcp, "get_ticket", { ticket_id: "T-1001" });
      expect(lookup.status).toBe("error");
      expect(log).toEqual([
        'audit search_tickets {"status":"closed"}',
        "inner search_tickets -> success",
        "audit search_tickets -> success",
        'audit get_ticket {"ticket_id":"T-1001"}',
        "inner get_ticket -> error",
        "audit get_ticket -> error",
      ]);
    } finally {
      await mcp.close();
    }
  });

  it("after may replace a result, and a before that throws refuses the call", async () => {
    const mcp = await connectMcp({
      crm: http({
        include: ["get_ticket"],
        interceptors: {
          before: (call) => {
            if (call.args.ticket_id === "T-1002") throw new Error("T-1002 is restricted");
          },
          after: (_call, result) => ({ ...result, content: `[redacted] ${result.status}` }),
        },
      }),
    });
    try {
      expect(toolText(await call(mcp, "get_ticket", { ticket_id: "T-1001" }))).toBe(
        "[redacted] success",
      );
      await expect(call(mcp, "get_ticket", { ticket_id: "T-1002" })).rejects.toThrow(
        "T-1002 is restricted",
      );
    } finally {
      await mcp.close();
    }
  });
});
