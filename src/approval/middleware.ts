import { AIMessage, type BaseMessage, type ToolCall, ToolMessage } from "@langchain/core/messages";
import { deepCompareStrict, Validator } from "@langchain/core/utils/json_schema";
import { interopSafeParseAsync, isInteropZodSchema } from "@langchain/core/utils/types";
import { interrupt, StateSchema } from "@langchain/langgraph";
import {
  type ActionRequest,
  createMiddleware,
  type Decision,
  type HITLRequest,
  type HITLResponse,
  type ReviewConfig,
} from "langchain";
import { z } from "zod";
import { withEditedArgs } from "./edited-message.js";
import { claimDecisions, runApprovedOnce } from "./once.js";
import { editNotice, rejectionText, withNotice } from "./review-notes.js";
import { type PathApproval, type PathApprovalGate, runWithApproval } from "./scope.js";

export type { ActionRequest, Decision, HITLRequest, HITLResponse, ReviewConfig };

/** What a reviewer may answer for one gated call. */
export type ApprovalDecisionType = "approve" | "edit" | "reject";

/**
 * How one tool is gated: the decisions a reviewer may make (default all three) and the text
 * shown with each request (a string, or a function of the call).
 *
 * @example
 * const refund: InterruptOnConfig = {
 *   allowedDecisions: ["approve", "reject"],
 *   description: (call) => `Refund ${call.args.amount} EUR on ${call.args.order_id}?`,
 * };
 */
export interface InterruptOnConfig {
  allowedDecisions?: ApprovalDecisionType[];
  description?: string | ((call: ToolCall) => string | Promise<string>);
  /** Gate only the calls it returns true for (default: every call). Must be deterministic. */
  when?: (call: { name: string; args: Record<string, unknown> }) => boolean;
}

/** Tool name -> `true` (gate with every decision), `false` (no gate) or its config. */
export type InterruptOn = Record<string, boolean | InterruptOnConfig>;

/**
 * The interrupt payload: LangChain's `HITLRequest` (one action request and one review config
 * per gated call, in the order of the model's calls), the tool call id of each, in the same
 * order, plus, after a resume that could not be applied, `error` saying what was wrong.
 * Nothing ran; resume again.
 */
export interface ApprovalRequest extends HITLRequest {
  /** The model's tool call id of each action request, in the same order. */
  toolCallIds?: string[];
  error?: string;
}

/** A validated `interruptOn`: only gated tools, each with its allowed decisions. */
export type NormalizedInterruptOn = ReadonlyMap<
  string,
  {
    allowedDecisions: ApprovalDecisionType[];
    description?: InterruptOnConfig["description"];
    when?: InterruptOnConfig["when"];
  }
>;

/** The name the approval middleware registers under. */
export const APPROVAL_MIDDLEWARE_NAME = "ApprovalMiddleware";

/** The state key holding the calls a human approved in the current model turn. */
export const APPROVALS_KEY = "delveApprovals";

/** Every decision a reviewer can make, in LangChain's order. */
export const DECISIONS: readonly ApprovalDecisionType[] = ["approve", "edit", "reject"];

interface Gate {
  allowedDecisions: ApprovalDecisionType[];
  description?: InterruptOnConfig["description"];
  path?: PathApproval;
}

interface GatedCall {
  call: ToolCall;
  gate: Gate;
}

// `edited`: what the reviewer changed, told to the model with the result.
type ApprovedRecord = { name: string; args: Record<string, unknown>; edited?: string };
const recordSchema = z.object({
  name: z.string(),
  args: z.record(z.string(), z.any()),
  edited: z.string().optional(),
});
const approvalsSchema = z
  .object({ messageId: z.string(), calls: z.record(z.string(), recordSchema) })
  .nullable()
  .optional();

/**
 * Human approval, decided per call. After each model turn, every call gated by `interruptOn`
 * or by an `interrupt` path rule (`pathGate`) is listed in ONE interrupt
 * (`{ actionRequests, reviewConfigs }`, LangChain's HITL shape). Resume with
 * `new Command({ resume: { decisions } })`, one decision per listed call, in order:
 * `approve`; `edit` with `editedAction: { name, args }` (same tool; the arguments are
 * validated against the tool's schema and the path rules apply to them again); `reject` with
 * `message` (the call's error result is "Rejected by a reviewer; the call did not run." plus
 * the note). An edited call's result starts with what the reviewer changed. Ungated calls of
 * the turn run once the gated ones are decided. A resume that
 * cannot be applied (wrong count, unknown or disallowed decision, a rename, invalid
 * arguments) raises a fresh interrupt whose `error` says why, and nothing runs. Only an
 * approved call, with exactly its approved arguments, runs inside the approval scope that
 * lets the file tools pass `interrupt` paths; a tool's own checks still run.
 *
 * Each approval is decided and run once, even when the same interrupt is resumed twice at
 * once (in one process or several sharing a SQLite or PostgreSQL checkpointer): the first
 * resume's decisions stand (a resume with other decisions gets a fresh interrupt whose
 * `error` starts "Already decided"), and an approved call runs in one resume only (the
 * others' result for it starts "Already decided"). The claims live in a `delve_claims` table
 * of the checkpointer's database; with MemorySaver or another checkpointer, in this process.
 *
 * @example
 * const agent = createDeepAgent({ model, tools: [deleteOrder], interruptOn: { delete_order: true }, checkpointer: new MemorySaver() });
 * const paused = await agent.invoke(input, config); // paused.__interrupt__[0].value.actionRequests
 * await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config);
 */
export function approvalMiddleware(options: {
  interruptOn: NormalizedInterruptOn;
  /** The agent's registered tools: edited arguments are validated against their schemas. */
  tools: readonly unknown[];
  pathGate?: PathApprovalGate;
}) {
  const tools = new Map<string, any>();
  for (const t of options.tools as any[]) if (typeof t?.name === "string") tools.set(t.name, t);

  const gateOf = (call: { name: string; args: unknown }): Gate | undefined => {
    const found = options.interruptOn.get(call.name);
    const config =
      found?.when && !found.when(call as { name: string; args: Record<string, unknown> })
        ? undefined
        : found;
    const path = options.pathGate?.(call);
    if (!config && !path) return undefined;
    const { when: _, ...rest } = config ?? {};
    return { allowedDecisions: [...DECISIONS], ...rest, ...(path ? { path } : {}) };
  };

  return createMiddleware({
    name: APPROVAL_MIDDLEWARE_NAME,
    stateSchema: new StateSchema({ [APPROVALS_KEY]: approvalsSchema }),
    afterModel: {
      canJumpTo: ["model"],
      hook: async (state: any) => {
        const messages: BaseMessage[] = state.messages ?? [];
        const clear = state[APPROVALS_KEY] ? { [APPROVALS_KEY]: null } : undefined;
        const index = messages.findLastIndex((m) => AIMessage.isInstance(m));
        const ai = messages[index] as AIMessage | undefined;
        if (!ai?.tool_calls?.length) return clear;
        const answered = new Set(
          messages
            .slice(index + 1)
            .flatMap((m) => (ToolMessage.isInstance(m) ? [m.tool_call_id] : [])),
        );
        const pending = ai.tool_calls.filter((c) => !answered.has(c.id ?? ""));
        const gated: GatedCall[] = [];
        for (const call of pending) {
          const gate = gateOf(call);
          if (gate) gated.push({ call, gate });
        }
        if (gated.length === 0) return clear;
        // This code runs again on every resume (LangGraph replays the node): it must be
        // deterministic, and it must never throw after interrupt() (the resume value is
        // saved and would be replayed into the throw forever).
        const request: ApprovalRequest = {
          actionRequests: await Promise.all(gated.map(actionRequestOf)),
          reviewConfigs: gated.map(({ call, gate }) => ({
            actionName: call.name,
            allowedDecisions: gate.allowedDecisions,
          })),
          toolCallIds: gated.map(({ call }) => call.id ?? ""),
        };
        let error: string | undefined;
        for (;;) {
          const response = interrupt<ApprovalRequest, unknown>(
            error ? { ...request, error } : request,
          );
          const outcome = await applyDecisions(response, ai, gated, pending, tools);
          if ("error" in outcome) {
            error = outcome.error;
            continue;
          }
          // A concurrent resume of this same interrupt may have decided first.
          error = await claimDecisions(ai.id ?? "", (response as HITLResponse).decisions);
          if (!error) return outcome.update;
        }
      },
    },
    wrapToolCall: async (request, handler) => {
      const call = request.toolCall as ToolCall;
      const gate = gateOf(call);
      // Every call sets the scope, so an approval never reaches tools running inside another
      // call (a subagent's).
      if (!gate) return runWithApproval(undefined, () => handler(request));
      if (!isApproved(request.state, call)) {
        return new ToolMessage({
          content: `Error: ${call.name} needs human approval and this call has none; it did not run.`,
          tool_call_id: call.id ?? "",
          name: call.name,
          status: "error",
        });
      }
      const approved = {
        toolCallId: call.id ?? "",
        name: call.name,
        paths: gate.path ? [gate.path] : [],
      };
      const approvals = (request.state as any)[APPROVALS_KEY];
      const edited: string | undefined = approvals.calls[approved.toolCallId]?.edited;
      return runApprovedOnce(
        approvals.messageId,
        approved.toolCallId,
        async () =>
          withNotice(
            await runWithApproval(approved, () => handler(request)),
            approved.toolCallId,
            edited,
          ),
        () =>
          new ToolMessage({
            content: `Already decided: this approved ${call.name} call was run by another resume of the same approval; it did not run again.`,
            tool_call_id: approved.toolCallId,
            name: call.name,
            status: "error",
          }),
      );
    },
  });
}

async function actionRequestOf({ call, gate }: GatedCall): Promise<ActionRequest> {
  const lines: string[] = [];
  const { description } = gate;
  if (typeof description === "function") lines.push(await description(call));
  else if (typeof description === "string") lines.push(description);
  else if (!gate.path) lines.push(`${call.name} needs approval before it runs.`);
  if (gate.path) lines.push(capitalize(gate.path.reason));
  return { name: call.name, args: call.args, description: lines.join("\n") };
}

type Outcome = { update: Record<string, unknown> } | { error: string };

async function applyDecisions(
  response: unknown,
  ai: AIMessage,
  gated: GatedCall[],
  pending: ToolCall[],
  tools: ReadonlyMap<string, any>,
): Promise<Outcome> {
  const count = `${gated.length} decision${gated.length === 1 ? "" : "s"}`;
  const decisions = (response as Partial<HITLResponse> | null)?.decisions;
  if (!Array.isArray(decisions)) {
    return {
      error: `Resume with { decisions: [...] }: ${count}, one per action request, in order.`,
    };
  }
  if (decisions.length !== gated.length) {
    return {
      error: `Expected ${count} (one per action request, in order), got ${decisions.length}. Nothing ran; resume again.`,
    };
  }
  const problems: string[] = [];
  const edits = new Map<string, Record<string, unknown>>();
  const rejections: ToolMessage[] = [];
  const approved: Record<string, ApprovedRecord> = {};
  for (let i = 0; i < gated.length; i++) {
    const { call, gate } = gated[i]!;
    const decision = decisions[i] as Partial<Decision> & Record<string, any>;
    const at = `decisions[${i}] (${call.name})`;
    const type = decision?.type;
    if (typeof type !== "string" || !DECISIONS.includes(type as ApprovalDecisionType)) {
      problems.push(
        `${at} has unknown type ${JSON.stringify(type)}; use "approve", "edit" or "reject".`,
      );
      continue;
    }
    if (!gate.allowedDecisions.includes(type as ApprovalDecisionType)) {
      problems.push(
        `${at}: "${type}" is not allowed here; allowed: ${gate.allowedDecisions.join(", ")}.`,
      );
      continue;
    }
    if (type === "approve") {
      approved[call.id ?? ""] = { name: call.name, args: call.args };
    } else if (type === "reject") {
      if (decision.message !== undefined && typeof decision.message !== "string") {
        problems.push(`${at}: message must be a string.`);
        continue;
      }
      rejections.push(
        new ToolMessage({
          content: rejectionText(decision.message),
          tool_call_id: call.id ?? "",
          name: call.name,
          status: "error",
        }),
      );
    } else {
      const edited = decision.editedAction;
      const args = edited?.args;
      if (
        typeof edited !== "object" ||
        edited === null ||
        typeof args !== "object" ||
        args === null ||
        Array.isArray(args)
      ) {
        problems.push(`${at}: an edit needs editedAction: { name, args } with args an object.`);
        continue;
      }
      if (edited.name !== undefined && edited.name !== call.name) {
        problems.push(
          `${at} renames the call to ${JSON.stringify(edited.name)}; an edit may change the arguments, not the tool. Reject it instead.`,
        );
        continue;
      }
      const invalid = await argumentProblem(tools.get(call.name), args);
      if (invalid) {
        problems.push(`${at}: the edited arguments do not match the tool's schema: ${invalid}.`);
        continue;
      }
      edits.set(call.id ?? "", args);
      const notice = editNotice(call.args, args);
      approved[call.id ?? ""] = { name: call.name, args, ...(notice ? { edited: notice } : {}) };
    }
  }
  if (problems.length) return { error: `${problems.join(" ")} Nothing ran; resume again.` };

  const update: Record<string, unknown> = {
    [APPROVALS_KEY]: { messageId: ai.id ?? "", calls: approved },
  };
  if (edits.size || rejections.length) {
    update.messages = [...(edits.size ? [withEditedArgs(ai, edits)] : []), ...rejections];
  }
  const rejected = new Set(rejections.map((m) => m.tool_call_id));
  if (pending.every((c) => rejected.has(c.id ?? ""))) update.jumpTo = "model";
  return { update };
}

const WRAPPING_KEYWORDS = ["properties", "items", "$ref", "allOf", "additionalItems"];

// Validates like the tool itself will (zod, or JSON schema as @langchain/core does).
async function argumentProblem(tool: any, args: unknown): Promise<string | undefined> {
  const schema = tool?.schema;
  if (!schema || typeof schema !== "object") return undefined;
  if (isInteropZodSchema(schema)) {
    const result = await interopSafeParseAsync(schema, args);
    if (result.success) return undefined;
    return (result.error as any).issues
      .slice(0, 3)
      .map((issue: any) => `${issue.path?.join(".") || "(arguments)"}: ${issue.message}`)
      .join("; ");
  }
  const result = new Validator(schema as any).validate(args);
  if (result.valid) return undefined;
  // The validator also reports each enclosing object ("Property x does not match schema"):
  // keep the specific errors.
  const specific = result.errors.filter((e) => !WRAPPING_KEYWORDS.includes(e.keyword));
  return (specific.length ? specific : result.errors)
    .slice(0, 3)
    .map((e) => {
      const at = e.instanceLocation.replace(/^#\/?/, "").replaceAll("/", ".") || "(arguments)";
      return `${at}: ${e.error.replace(/\.$/, "")}`;
    })
    .join("; ");
}

// An approval counts only for the call it was given to: same id, same tool, exactly the
// approved arguments, in the model turn that was reviewed.
function isApproved(state: any, call: ToolCall): boolean {
  const approvals = state?.[APPROVALS_KEY];
  const record: ApprovedRecord | undefined = approvals?.calls?.[call.id ?? ""];
  if (
    !record ||
    record.name !== call.name ||
    !deepCompareStrict(record.args as any, call.args as any)
  ) {
    return false;
  }
  const messages: BaseMessage[] = state?.messages ?? [];
  const owner = messages.findLast(
    (m) => AIMessage.isInstance(m) && (m.tool_calls ?? []).some((c) => c.id === call.id),
  );
  return owner !== undefined && (owner.id ?? "") === approvals.messageId;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
