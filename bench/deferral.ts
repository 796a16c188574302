/**
 * Deferred tools at scale: the three MCP servers of the test suite (the wire fixture over
 * HTTP, the stdio fixture, the ticket desk over stdio: 8 tools) plus `get_ticket` and 169
 * generated tools of realistic names, descriptions and schemas, 178 in all, on a
 * 200,000-token window. Side by side in this one run: the first request's tool definitions
 * with `deferTools: "auto"` against all tools inline (`inspectSurface`, the real request
 * path), and the harness time per step (a scripted model calling `get_ticket` N times) of
 * that 178-tool agent against the default 9-tool agent.
 *
 * @example
 * npx tsx bench/run.ts --only deferral
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ticketDeskStdio } from "../examples/ticket-desk/agent.js";
import { seedTicketDb } from "../examples/ticket-desk/database.js";
import { createDeepAgent, inspectSurface } from "../src/index.js";
import { connectMcp } from "../src/mcp/index.js";
import { ScriptedChatModel } from "../src/models/scripted-model.js";
import { generatedTools } from "../test/helpers/many-tools.js";
import { writeFixtureServer } from "../test/helpers/mcp-fixture-server.js";
import { chartTools, startMcpHttpServer } from "../test/helpers/mcp-http-server.js";
import { getTicketTool } from "../test/helpers/tickets.js";
import { type Builder, contender, NEVER_TRIPPING_LIMITS } from "./harness-steps.js";
import {
  type BenchOptions,
  type BenchReport,
  formatMs,
  formatRatio,
  target,
} from "./lib/report.js";
import { interleaved, median, spread } from "./lib/timing.js";

const WINDOW = 200_000;

const agentWith =
  (tools: () => any[]): Builder =>
  (model) =>
    createDeepAgent({
      model,
      tools: tools(),
      contextWindow: WINDOW,
      limits: NEVER_TRIPPING_LIMITS,
    }) as any;
const PNG = new Uint8Array([137, 80, 78, 71]);

/** Measures the first request's tool definitions and the step time, with 178 tools and 9. */
export async function runDeferralBench(options: BenchOptions): Promise<BenchReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-bench-deferral-"));
  const http = await startMcpHttpServer(chartTools(PNG));
  const dbPath = path.join(dir, "tickets.db");
  seedTicketDb(dbPath);
  const mcp = await connectMcp({
    wire: { transport: "http", url: http.url },
    fx: {
      transport: "stdio",
      command: process.execPath,
      args: [writeFixtureServer(dir)],
      exclude: ["read_file", "fail"],
      prefix: "fx_",
    },
    desk: { ...ticketDeskStdio(dbPath), prefix: "desk_" },
  });
  try {
    const many = () => [...mcp.tools, getTicketTool(), ...generatedTools(169)];
    const few = () => [getTicketTool()];
    const model = new ScriptedChatModel([]);
    const deferred = await inspectSurface(
      createDeepAgent({ model, tools: many(), contextWindow: WINDOW }),
    );
    const inline = await inspectSurface(
      createDeepAgent({ model, tools: many(), contextWindow: WINDOW, deferTools: false }),
    );
    const small = await inspectSurface(createDeepAgent({ model, tools: few() }));
    const registered = many().length;
    const share = deferred.totalTokens / WINDOW;

    const steps = options.smoke ? 10 : 100;
    const plan = options.smoke ? { runs: 1, warmup: 1 } : { runs: 9, warmup: 2 };
    const samples = await interleaved(
      {
        "178 tools": contender(agentWith(many), "get_ticket", steps),
        "9 tools": contender(agentWith(few), "get_ticket", steps),
      },
      plan,
    );
    const manyMs = median(samples["178 tools"]!);
    const fewMs = median(samples["9 tools"]!);
    return {
      title: `Deferred tools (${mcp.tools.length} MCP tools from 3 servers + ${registered - mcp.tools.length} others, ${WINDOW.toLocaleString("en")}-token window)`,
      tables: [
        {
          caption: "first request's tool definitions (inspectSurface)",
          headers: ["agent", "tools sent", "chars", "~tokens", "share of window", "vs inline"],
          rows: [
            [
              `${registered} tools, deferTools "auto"`,
              String(deferred.visible.length),
              String(deferred.totalChars),
              String(deferred.totalTokens),
              `${(share * 100).toFixed(2)}%`,
              formatRatio(deferred.totalTokens, inline.totalTokens),
            ],
            [
              `${registered} tools, deferTools false`,
              String(inline.visible.length),
              String(inline.totalChars),
              String(inline.totalTokens),
              `${((inline.totalTokens / WINDOW) * 100).toFixed(2)}%`,
              "1.00x",
            ],
            [
              "default agent + get_ticket",
              String(small.visible.length),
              String(small.totalChars),
              String(small.totalTokens),
              `${((small.totalTokens / WINDOW) * 100).toFixed(2)}%`,
              formatRatio(small.totalTokens, inline.totalTokens),
            ],
          ],
        },
        {
          caption: `harness time per step: ${steps} get_ticket steps, ${plan.runs} runs interleaved, median`,
          headers: ["agent", "ms/step", "min..max", "vs 9 tools"],
          rows: [
            [
              "178 tools (deferred)",
              formatMs(manyMs),
              spread(samples["178 tools"]!),
              formatRatio(manyMs, fewMs),
            ],
            ["9 tools", formatMs(fewMs), spread(samples["9 tools"]!), "1.00x"],
          ],
        },
      ],
      targets: [
        target(
          "deferral: first request's tool tokens (limit: 5% of 200k)",
          deferred.totalTokens,
          WINDOW * 0.05,
          "tokens",
        ),
        target("deferral: step time 178 tools / 9 tools", manyMs / fewMs, 1.1, "x"),
      ],
      notes: [
        `search_tools' index: ${deferred.deferred?.indexChars ?? 0} chars, ~${deferred.deferred?.indexTokens ?? 0} tokens, for ${deferred.deferred?.tools.length ?? 0} deferred tools; without deferral the same agent sends ~${deferred.deferred?.withoutDeferral.totalTokens ?? inline.totalTokens} tokens of tool definitions.`,
        "In the 178-tool agent get_ticket is deferred: its first call (before any search) loads it.",
      ],
    };
  } finally {
    await mcp.close();
    await http.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
