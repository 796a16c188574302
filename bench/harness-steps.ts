/**
 * Harness time per step: a scripted model calls one cheap tool per step for N steps, then
 * answers; the whole `invoke` divided by N is the per-step cost of the harness (graph,
 * middleware, tool node), since the model and the tool cost almost nothing. No
 * checkpointer. Three contenders on the same `ScriptedChatModel` class: Delve's
 * `createDeepAgent`, deepagents' `createDeepAgent` (its default StateBackend), and bare
 * `langchain` `createAgent` with only the tool, the floor any harness on it pays.
 * Two workloads: `get_ticket` (a user tool) and `write_file` (a file tool through the
 * state backend, a new path each step; bare `createAgent` has no file tools).
 *
 * @example
 * const report = await runHarnessStepsBench({ smoke: true });
 */
import { HumanMessage } from "@langchain/core/messages";
import * as deepagents from "deepagents";
import { createAgent } from "langchain";
import { createDeepAgent } from "../src/index.js";
import { ScriptedChatModel, type ScriptedStep } from "../src/models/scripted-model.js";
import { getTicketTool } from "../test/helpers/tickets.js";
import {
  type BenchOptions,
  type BenchReport,
  formatMs,
  formatRatio,
  type Table,
  type TargetCheck,
  target,
} from "./lib/report.js";
import { interleaved, median, spread } from "./lib/timing.js";

type Workload = "get_ticket" | "write_file";

function script(workload: Workload, steps: number): ScriptedChatModel {
  const replies: ScriptedStep[] = [];
  for (let i = 0; i < steps; i++) {
    replies.push({
      toolCalls: [
        workload === "get_ticket"
          ? { name: "get_ticket", args: { ticket_id: "T-1001" } }
          : {
              name: "write_file",
              args: { file_path: `/notes/step-${i}.md`, content: `# Step ${i}\n\nnothing new.\n` },
            },
      ],
    });
  }
  replies.push("done");
  return new ScriptedChatModel(replies);
}

/** Builds one contender's agent on the scripted model. */
export type Builder = (model: ScriptedChatModel) => {
  invoke: (input: any, config: any) => Promise<any>;
};

// Budgets and the loop guard on, set so they never trip: the identical get_ticket calls of
// this workload are a loop the default guard would stop at the 6th step.
export const NEVER_TRIPPING_LIMITS = {
  modelCalls: 1e6,
  toolCalls: 1e6,
  tokens: 1e12,
  loop: { repeats: 1e6, stallTurns: 1e6 },
};

const BUILDERS: Record<string, Builder> = {
  delve: (model) =>
    createDeepAgent({ model, tools: [getTicketTool()], limits: NEVER_TRIPPING_LIMITS }) as any,
  // The same agent without LimitsMiddleware: delve/this is the budget and guard layers' cost.
  "delve-no-limits": (model) =>
    createDeepAgent({
      model,
      tools: [getTicketTool()],
      profile: { excludedMiddleware: ["LimitsMiddleware"] },
    }) as any,
  deepagents: (model) =>
    deepagents.createDeepAgent({ model: model as any, tools: [getTicketTool()] }) as any,
  bare: (model) => createAgent({ model, tools: [getTicketTool()] }) as any,
};

/**
 * One timed invoke: the agent is built outside the timing; the run must reach the answer.
 * Returns wall ms per step; with `cpu`, also appends this process's CPU ms per step to it
 * (steadier than wall time when other work loads the machine).
 */
export function contender(build: Builder, workload: Workload, steps: number, cpu?: number[]) {
  return async (): Promise<number> => {
    const model = script(workload, steps);
    const agent = build(model);
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    const out = await agent.invoke(
      { messages: [new HumanMessage("Work through the tickets.")] },
      { recursionLimit: steps * 10 + 50 },
    );
    const ms = performance.now() - start;
    const used = process.cpuUsage(cpuStart);
    cpu?.push((used.user + used.system) / 1000 / steps);
    if (model.used !== steps + 1 || out.messages.at(-1)?.text !== "done") {
      throw new Error(`a ${workload} run stopped after ${model.used} of ${steps + 1} model calls`);
    }
    const written = Object.keys(out.files ?? {}).length;
    if (workload === "write_file" && written !== steps) {
      throw new Error(`a write_file run left ${written} files instead of ${steps}`);
    }
    return ms / steps;
  };
}

/**
 * Times both workloads and checks, per step on `get_ticket`, delve/deepagents (<= 1.0) and
 * delve/bare `createAgent` (<= 1.3).
 */
export async function runHarnessStepsBench(options: BenchOptions): Promise<BenchReport> {
  const steps = options.smoke ? 10 : 200;
  const plan = options.smoke ? { runs: 1, warmup: 1 } : { runs: 9, warmup: 2 };
  const tables: Table[] = [];
  const targets: TargetCheck[] = [];
  for (const workload of ["get_ticket", "write_file"] as const) {
    const names =
      workload === "get_ticket"
        ? ["delve", "delve-no-limits", "deepagents", "bare"]
        : ["delve", "deepagents"];
    const cpu: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    const samples = await interleaved(
      Object.fromEntries(names.map((n) => [n, contender(BUILDERS[n]!, workload, steps, cpu[n])])),
      plan,
    );
    const med = Object.fromEntries(names.map((n) => [n, median(samples[n]!)]));
    // Every round appended a CPU figure; the warm-up rounds' come first.
    const cpuMed = Object.fromEntries(
      names.map((n) => [n, median(cpu[n]!.slice(plan.warmup ?? 0))]),
    );
    const rows = names.map((n) => [
      n,
      formatMs(med[n]!),
      spread(samples[n]!),
      formatRatio(med.delve!, med[n]!),
      formatMs(cpuMed[n]!),
      formatRatio(cpuMed.delve!, cpuMed[n]!),
    ]);
    tables.push({
      caption: `${workload}: ${steps} steps, ${plan.runs} runs interleaved, median`,
      headers: ["harness", "ms/step", "min..max", "delve/this", "cpu ms/step", "cpu delve/this"],
      rows,
    });
    if (workload === "get_ticket") {
      targets.push(
        target("steps: delve/deepagents (get_ticket)", med.delve! / med.deepagents!, 1, "x"),
        target("steps: delve/bare createAgent (get_ticket)", med.delve! / med.bare!, 1.3, "x"),
      );
    }
  }
  return {
    title: `2. Harness time per step (${steps} scripted tool-call steps, no checkpointer)`,
    tables,
    targets,
    notes: [
      "ms/step = whole invoke / steps; agents are built outside the timing. cpu ms/step: this process's CPU time over the same invoke (steadier when other work loads the machine; targets use wall time).",
      "delve/bare is the overhead over langchain createAgent with the same tool (issue 22's target: at most 1.3x).",
      "delve/delve-no-limits is the per-step cost of the budget and loop-guard layer (LimitsMiddleware).",
    ],
  };
}
