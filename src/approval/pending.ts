import type { RunnableConfig } from "@langchain/core/runnables";
import type { ApprovalDecisionType, ApprovalRequest } from "./middleware.js";

/** One gated call waiting for a decision, as the reviewer sees it. */
export interface PendingCall {
  /** The model's tool call id (absent in a request that did not record it). */
  id?: string;
  name: string;
  args: Record<string, unknown>;
  /** The text shown with the request (`InterruptOnConfig.description`, or the path rule). */
  description: string;
  allowedDecisions: ApprovalDecisionType[];
}

/**
 * One pending approval interrupt: resume it with one decision per call, in order
 * (`{ decisions }`, or `{ [interruptId]: { decisions } }` when several are pending).
 */
export interface PendingApproval {
  /** The interrupt's id: the key of a resume map when several interrupts are pending. */
  interruptId: string;
  calls: PendingCall[];
  /** Why the previous resume could not be applied (nothing ran), when it could not. */
  error?: string;
}

interface InterruptLike {
  id?: string;
  value?: unknown;
}

/**
 * What `readPendingApprovals` reads: a thread's state (`agent.getState(config)`, whose tasks
 * hold the interrupts, a subagent's included) or the result of a paused `invoke`.
 */
export interface PausedThread {
  tasks?: ReadonlyArray<{ interrupts?: readonly InterruptLike[] }>;
  __interrupt__?: readonly InterruptLike[];
}

/**
 * The approvals a paused thread waits for, typed, from its state or a paused `invoke`
 * result; interrupts that are not approval requests (your own `interrupt()`) are skipped.
 *
 * @example
 * const paused = await agent.invoke(input, config);
 * for (const { calls } of readPendingApprovals(paused)) console.log(calls.map((c) => c.name));
 */
export function readPendingApprovals(thread: PausedThread): PendingApproval[] {
  const interrupts =
    thread.__interrupt__ ?? (thread.tasks ?? []).flatMap((t) => t.interrupts ?? []);
  const seen = new Set<string>();
  const pending: PendingApproval[] = [];
  for (const { id, value } of interrupts) {
    const request = value as Partial<ApprovalRequest> | undefined;
    const actions = request?.actionRequests;
    const reviews = request?.reviewConfigs;
    if (!Array.isArray(actions) || !Array.isArray(reviews) || seen.has(id ?? "")) continue;
    seen.add(id ?? "");
    pending.push({
      interruptId: id ?? "",
      calls: actions.map((action, i) => ({
        ...(request?.toolCallIds?.[i] ? { id: request.toolCallIds[i] } : {}),
        name: action.name,
        args: action.args as Record<string, unknown>,
        description: action.description ?? "",
        allowedDecisions: [...(reviews[i]?.allowedDecisions ?? [])] as ApprovalDecisionType[],
      })),
      ...(request?.error ? { error: request.error } : {}),
    });
  }
  return pending;
}

/**
 * The approvals the thread of `config` waits for, read from the checkpointer: works on a
 * fresh agent instance after a restart, and lists calls paused inside subagents too.
 * Empty when the thread is not paused for approval.
 *
 * @example
 * const agent = createDeepAgent({ model, tools, interruptOn, checkpointer: SqliteSaver.fromConnString("db") });
 * const [first] = await pendingApprovals(agent, { configurable: { thread_id: "orders-1" } });
 * // first.calls[0] -> { id, name: "refund_order", args, description, allowedDecisions }
 */
export async function pendingApprovals(
  agent: { getState(config: RunnableConfig): unknown },
  config: RunnableConfig,
): Promise<PendingApproval[]> {
  // LangChain types getState's result as never; at run time it is LangGraph's StateSnapshot.
  const state = (await agent.getState(config)) as PausedThread;
  return readPendingApprovals(state);
}
