import { AsyncLocalStorage } from "node:async_hooks";

/** What a path permission asks a human about: the operation, the path, and why. */
export interface PathApproval {
  /** `delete` is a write checked against the whole subtree. */
  operation: "read" | "write" | "delete";
  /** The normalised virtual path the file tool will pass to its guard. */
  path: string;
  /** One line naming the rule that asks for approval. */
  reason: string;
}

/**
 * Finds the path permission a file tool call needs a human for, or undefined. The
 * filesystem middleware builds one from its rules; the approval middleware asks it about
 * every tool call of a model turn.
 */
export type PathApprovalGate = (call: { name: string; args: unknown }) => PathApproval | undefined;

/** One tool call a human approved, while its tool runs. */
export interface ApprovedCall {
  toolCallId: string;
  name: string;
  /** Path permissions the approval covers (empty for tools without a gated path). */
  paths: readonly PathApproval[];
}

// Entered only by the approval middleware around a tool call it approved, from its own
// record in graph state: nothing a model writes (arguments, messages) can put a value here.
const scope = new AsyncLocalStorage<ApprovedCall | undefined>();

/**
 * Runs `fn` with `approved` as the approval in force (undefined: none, which also hides any
 * approval of an enclosing call from tools running inside, such as a subagent's).
 *
 * @example
 * await runWithApproval({ toolCallId: "call_1", name: "write_file", paths }, () => handler(request));
 */
export function runWithApproval<T>(approved: ApprovedCall | undefined, fn: () => T): T {
  return scope.run(approved, fn);
}

/**
 * True when the tool call running now was approved by a human for `operation` on exactly
 * `path`. File tool guards consult it for paths whose rule mode is `interrupt`.
 *
 * @example
 * if (decision.mode === "interrupt" && isPathApproved("write", path)) return undefined;
 */
export function isPathApproved(operation: PathApproval["operation"], path: string): boolean {
  const current = scope.getStore();
  return Boolean(current?.paths.some((p) => p.operation === operation && p.path === path));
}

/**
 * Directories whose reading the running call was approved for: a listing of such a
 * directory may show entries that need approval to read.
 *
 * @example
 * approvedReadRoots() // ["/vault/private"] inside an approved ls of /vault/private
 */
export function approvedReadRoots(): string[] {
  const current = scope.getStore();
  return (current?.paths ?? []).filter((p) => p.operation === "read").map((p) => p.path);
}
