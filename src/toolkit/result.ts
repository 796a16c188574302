import { ToolMessage } from "@langchain/core/messages";
import { isCommand } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { ConfigurationError } from "../errors/configuration-error.js";

/** A failure code: SCREAMING_SNAKE_CASE, e.g. `NOT_FOUND`, `FORBIDDEN`, `INVALID_TRANSITION`. */
export const FAILURE_CODE_PATTERN = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

/** What a tool passes to `fail`. */
export interface FailureSpec {
  /** A stable SCREAMING_SNAKE_CASE code the model and your code can branch on: `NOT_FOUND`. */
  code: string;
  /** What went wrong, in one sentence. */
  message: string;
  /** The next step that can work: the valid range, the tool to use first, the id that exists. */
  hint?: string;
  /** Whether the same call may succeed later (a timeout, a lock). Default false. */
  retryable?: boolean;
}

/** The structured failure a tool returns: `{ ok: false, code, message, hint?, retryable }`. */
export interface Failure {
  readonly ok: false;
  readonly code: string;
  readonly message: string;
  readonly hint?: string;
  readonly retryable: boolean;
}

/** A successful result: `{ ok: true, ...data }`. */
export type Success<T extends object = Record<string, never>> = { readonly ok: true } & T;

/**
 * A successful tool result. Returned from a tool, the model receives it as compact JSON,
 * `{"ok":true,...data}`. Data must be a plain object (wrap lists: `ok({ items, total })`)
 * and must not have its own `ok` key.
 *
 * @example
 * return ok({ incident_id: "INC-1024", status: "open" }); // {"ok":true,"incident_id":"INC-1024","status":"open"}
 */
export function ok<T extends object = Record<string, never>>(data?: T): Success<T> {
  if (data === undefined) return { ok: true } as Success<T>;
  if (!isPlainObject(data)) {
    throw new ConfigurationError(
      "INVALID_RESULT",
      "ok(data) takes a plain object; wrap lists and values in one, e.g. ok({ items, total }).",
    );
  }
  if (Object.hasOwn(data, "ok")) {
    throw new ConfigurationError("INVALID_RESULT", 'ok(data): data must not have an "ok" key.');
  }
  return { ok: true, ...data } as Success<T>;
}

/**
 * A structured failure, returned (not thrown) from a tool: the model receives compact JSON
 * `{"ok":false,"code":...,"message":...,"hint":...,"retryable":...}` and, in a Delve agent,
 * the tool message is marked `status: "error"`. `code` must be SCREAMING_SNAKE_CASE.
 *
 * @example
 * if (!order) return fail({ code: "NOT_FOUND", message: `No order ${id}.`, hint: "Find ids with search_orders." });
 */
export function fail(spec: FailureSpec): Failure {
  if (!spec || typeof spec.code !== "string" || !FAILURE_CODE_PATTERN.test(spec.code)) {
    throw new ConfigurationError(
      "INVALID_RESULT",
      `fail(): code must be SCREAMING_SNAKE_CASE such as NOT_FOUND (got ${JSON.stringify(spec?.code)}).`,
    );
  }
  if (typeof spec.message !== "string" || spec.message.trim() === "") {
    throw new ConfigurationError("INVALID_RESULT", `fail(${spec.code}): message is required.`);
  }
  // Key order is the wire format: ok, code, message, hint, retryable.
  return {
    ok: false,
    code: spec.code,
    message: spec.message,
    ...(spec.hint ? { hint: spec.hint } : {}),
    retryable: spec.retryable === true,
  };
}

/**
 * The JSON object a tool result carries: the object itself, or a string (or a single text
 * block) holding one. Undefined for anything else (plain text, arrays, media). Use it to read
 * an `ok()`/`fail()` result back from a tool message's content.
 *
 * @example
 * resultObjectOf(toolMessage.content)?.code // "NOT_FOUND" for a fail() result
 */
export function resultObjectOf(value: unknown): Record<string, unknown> | undefined {
  if (isPlainObject(value)) return value as Record<string, unknown>;
  const text = textOf(value);
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) return undefined;
  try {
    const parsed = JSON.parse(trimmed);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when a tool result is a structured failure: an object (or its JSON text) with
 * `ok: false` and a string `code`, whether built by `fail()` or written by hand. Use it in
 * code that inspects tool results (audits, tests, your own middleware).
 *
 * @example
 * isFailure('{"ok":false,"code":"NOT_FOUND","message":"No order ORD-9."}') // true
 */
export function isFailure(value: unknown): value is Failure {
  const object = resultObjectOf(value);
  return object?.ok === false && typeof object.code === "string";
}

/**
 * Marks a structured failure as an error in place: a `ToolMessage` whose content is an
 * `{"ok":false,...}` object gets `status: "error"`, also inside a `Command`'s messages.
 * Returns its argument, so a `wrapToolCall` of your own can mark results the way
 * `failureStatusMiddleware` does.
 *
 * @example
 * createMiddleware({
 *   name: "Audit",
 *   wrapToolCall: async (request, handler) => markFailures(await handler(request)),
 * });
 */
export function markFailures<T>(output: T): T {
  if (ToolMessage.isInstance(output)) {
    if (output.status !== "error" && isFailure(output.content)) output.status = "error";
    return output;
  }
  if (isCommand(output)) {
    const update = (output as { update?: unknown }).update;
    const messages = isPlainObject(update) ? (update as { messages?: unknown }).messages : update;
    if (Array.isArray(messages)) for (const message of messages) markFailures(message);
  }
  return output;
}

/** The name of the middleware that marks structured failures. */
export const FAILURE_STATUS_MIDDLEWARE_NAME = "FailureStatusMiddleware";

/**
 * A tool-call layer that turns `fail()` results (any `{"ok":false,"code":...}` result) into
 * error tool messages, so traces, UIs and providers see the failure. A `createDeepAgent`
 * agent already does this in its tool-error layer, so you need this only with LangChain's own
 * `createAgent`, or when you replace `ToolErrorsMiddleware`. LangChain's `tool()` serialises
 * a returned object to compact JSON before any middleware runs, which is why the mark is read
 * from the message content.
 *
 * @example
 * // LangChain's createAgent (from "langchain"); a Delve agent needs no extra layer.
 * createAgent({ model, tools: [getOrder], middleware: [failureStatusMiddleware()] });
 */
export function failureStatusMiddleware() {
  return createMiddleware({
    name: FAILURE_STATUS_MIDDLEWARE_NAME,
    wrapToolCall: async (request, handler) => markFailures(await handler(request)),
  });
}

function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.length === 1) {
    const block = value[0] as { type?: unknown; text?: unknown };
    if (block?.type === "text" && typeof block.text === "string") return block.text;
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
