import { ToolMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";
import type { InterruptOn } from "../approval/middleware.js";
import { type CompiledRules, decideCall } from "./rules.js";

/** The approval modes of `delve run --approval`. */
export type ApprovalMode = "ask" | "edits" | "yolo";

/** The tools the workspace agent gates: the ones that change the workspace or run commands. */
export const GATED_TOOLS = ["write_file", "edit_file", "delete", "execute"] as const;

/**
 * The approval policy as agent options: `interruptOn` gates that ask only for the calls the
 * rules and mode say "ask" for, and a middleware that refuses the "deny" calls with a
 * model-facing error (they never reach the tool or a human).
 */
export function approvalPolicy(
  rules: CompiledRules,
  mode: ApprovalMode,
  workspace: string,
  tools: readonly string[] = GATED_TOOLS,
) {
  const verdict = (call: { name: string; args: Record<string, unknown> }) =>
    decideCall(rules, mode, call, { workspace });
  const interruptOn: InterruptOn = {};
  for (const name of tools) {
    interruptOn[name] = {
      when: (call) => verdict(call).verdict === "ask",
      description: (call) =>
        `${call.name} needs approval: ${verdict({ name: call.name, args: call.args }).reason}`,
    };
  }
  const denyMiddleware = createMiddleware({
    name: "RunRulesMiddleware",
    wrapToolCall: async (request, handler) => {
      const call = request.toolCall;
      const decision = verdict({
        name: call.name,
        args: (call.args ?? {}) as Record<string, unknown>,
      });
      if (decision.verdict !== "deny") return handler(request);
      return new ToolMessage({
        content: `Error: ${call.name} is not allowed here (${decision.rule ? `rule ${decision.rule}` : decision.reason}); it did not run. Do not retry it; find another way or tell the user.`,
        tool_call_id: call.id ?? "",
        name: call.name,
        status: "error",
      });
    },
  });
  return { interruptOn, middleware: denyMiddleware };
}
