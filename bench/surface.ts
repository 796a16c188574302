/**
 * Visible tool surface of the default agent plus the seed's `get_ticket`: what every model
 * call pays for in tool definitions. Delve is measured with `inspectSurface`; deepagents by
 * capturing `request.tools` in a `wrapModelCall` middleware of its `createDeepAgent` on a
 * scripted model, and both are measured by the same function (`measureTool`: name +
 * description + JSON schema as `convertToOpenAITool` renders them). As a cross-check, Delve
 * is also captured with the same middleware, so the inspector and a real request must agree.
 *
 * @example
 * const report = await runSurfaceBench({ smoke: false });
 * printReport(report);
 */
import { HumanMessage } from "@langchain/core/messages";
import * as deepagents from "deepagents";
import { createMiddleware } from "langchain";
import { createDeepAgent, inspectSurface } from "../src/index.js";
import { ScriptedChatModel } from "../src/models/scripted-model.js";
import { measureTool } from "../src/surface/inspect-surface.js";
import { getTicketTool } from "../test/helpers/tickets.js";
import { type BenchOptions, type BenchReport, formatRatio, target } from "./lib/report.js";

/** Delve's limit on the default visible surface, in characters. */
export const SURFACE_LIMIT_CHARS = 5000;

/** A middleware that records the tools of the first model request it sees. */
function toolCapture() {
  const seen: { tools?: any[] } = {};
  const middleware = createMiddleware({
    name: "BenchToolCapture",
    wrapModelCall: async (request: any, handler: any) => {
      seen.tools ??= [...request.tools];
      return handler(request);
    },
  });
  return { middleware, seen };
}

async function capturedChars(
  build: (middleware: any, model: ScriptedChatModel) => any,
): Promise<Map<string, number>> {
  const { middleware, seen } = toolCapture();
  const agent = build(middleware, new ScriptedChatModel(["done"]));
  await agent.invoke({ messages: [new HumanMessage("hi")] }, { recursionLimit: 20 });
  if (!seen.tools) throw new Error("the capture middleware saw no model request");
  return new Map(seen.tools.map((t) => measureTool(t)).map((m) => [m.name, m.chars]));
}

/**
 * Measures both surfaces and checks Delve's total against `SURFACE_LIMIT_CHARS`. The figures
 * are deterministic, so smoke mode measures the same thing.
 */
export async function runSurfaceBench(_options: BenchOptions): Promise<BenchReport> {
  const delve = await inspectSurface(
    createDeepAgent({ model: new ScriptedChatModel([]), tools: [getTicketTool()] }),
  );
  const delveChars = new Map(delve.tools.map((t) => [t.name, t.chars]));
  const delveCaptured = await capturedChars((middleware, model) =>
    createDeepAgent({ model, tools: [getTicketTool()], middleware: [middleware] }),
  );
  const theirs = await capturedChars((middleware, model) =>
    deepagents.createDeepAgent({
      model: model as any,
      tools: [getTicketTool()],
      middleware: [middleware],
    }),
  );

  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const names = [...new Set([...delveChars.keys(), ...theirs.keys()])];
  const cell = (m: Map<string, number>, name: string) => (m.has(name) ? String(m.get(name)) : "-");
  const rows = names.map((name) => {
    const d = delveChars.get(name);
    const t = theirs.get(name);
    return [
      name,
      cell(delveChars, name),
      cell(theirs, name),
      d !== undefined && t !== undefined ? formatRatio(d, t) : "-",
    ];
  });
  const delveTotal = delve.totalChars;
  const theirTotal = sum(theirs);
  rows.push(["TOTAL", String(delveTotal), String(theirTotal), formatRatio(delveTotal, theirTotal)]);

  const notes = [
    "chars = name + description + JSON.stringify(parameters), via convertToOpenAITool (measureTool).",
    `Delve visible: ${delve.visible.length} of ${delve.registered.length} registered; hidden: ${
      delve.hidden.map((h) => h.name).join(", ") || "none"
    }. System prompt: Delve ${delve.systemPromptChars} chars.`,
    `cross-check: Delve captured by the same middleware = ${sum(delveCaptured)} chars (inspectSurface: ${delveTotal}).`,
    "reference figures: deepagents npm 1.14.1 = 8,468 (research notes); seed Python = 11,158.",
  ];
  if (sum(delveCaptured) !== delveTotal) {
    notes.push("WARNING: inspectSurface disagrees with the captured request.");
  }
  return {
    title: "1. Visible tool surface (default agent + get_ticket)",
    tables: [{ headers: ["tool", "delve chars", "deepagents chars", "ratio"], rows }],
    targets: [target("surface: delve total chars", delveTotal, SURFACE_LIMIT_CHARS, "chars")],
    notes,
  };
}
