import type { ToolCall } from "@langchain/core/messages";
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { Command, isCommand, isGraphBubbleUp } from "@langchain/langgraph";
import { createMiddleware, MiddlewareError, ToolInvocationError } from "langchain";
import { withToolCallArgs } from "../context/summarization/shorten-args.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { DelveError } from "../errors/delve-error.js";
import { unwrapDelveError } from "../errors/unwrap.js";
import { markFailures } from "../toolkit/result.js";
import { argumentProblems, withoutNullOptionals } from "./tool-args.js";

/** Formats a caught tool error into the text the model receives. */
export type ToolErrorFormatter = (error: unknown, toolCall: ToolCall) => string;

/**
 * How tool exceptions are handled: `true` catches all (default), `false` rethrows, a list
 * of error classes catches only those, a function formats every caught error.
 */
export type ToolErrorsOption =
  | boolean
  | ReadonlyArray<abstract new (...args: any[]) => Error>
  | ToolErrorFormatter;

/**
 * Tool-call arguments nested deeper than this are refused before the tool node: LangGraph
 * copies each call into a `Send` recursively, and a model that sends 5,000 levels would
 * otherwise end the run with a RangeError.
 */
export const MAX_ARGUMENT_DEPTH = 100;

// The argument a refused call carries instead of its own, read back by wrapToolCall.
const REFUSED_KEY = "_delve_refused";

/** The name of the outermost tool-error layer. */
export const TOOL_ERRORS_MIDDLEWARE_NAME = "ToolErrorsMiddleware";

/** Checks the `toolErrors` option at construction. */
export function validateToolErrorsOption(value: unknown): ToolErrorsOption {
  if (value === undefined) return true;
  if (typeof value === "boolean" || typeof value === "function") return value as ToolErrorsOption;
  if (Array.isArray(value) && value.every((c) => typeof c === "function")) return value;
  throw new ConfigurationError(
    "INVALID_TOOL_ERRORS",
    "toolErrors must be true, false, an array of error classes, or a function (error, toolCall) => string.",
  );
}

/**
 * The outermost tool-call layer: any exception from a tool (or an inner middleware) becomes
 * an error tool message saying what failed and what to do, so a tool failure never ends the
 * run. Unknown tool names and invalid arguments get the same treatment; the unknown-tool
 * message lists only the tools the model can see. LangGraph interrupts always pass through,
 * and `fail()` results are marked `status: "error"`. Arguments nested deeper than
 * `MAX_ARGUMENT_DEPTH` are replaced in the model's message (before LangGraph copies them)
 * and answered with an error result. Set it with `createDeepAgent({ toolErrors })`;
 * one passed in `middleware` replaces the default and must say which tools are visible.
 *
 * @example
 * toolErrorsMiddleware({ mode: [TimeoutError], visibleTools: () => ["get_ticket", "read_file"] })
 */
export function toolErrorsMiddleware(options: {
  mode?: ToolErrorsOption;
  visibleTools: () => readonly string[];
}) {
  const mode = options.mode ?? true;
  return createMiddleware({
    name: TOOL_ERRORS_MIDDLEWARE_NAME,
    wrapModelCall: async (request, handler) => refuseDeepArguments(await handler(request)),
    wrapToolCall: async (request, handler) => {
      const call = request.toolCall as ToolCall;
      const refused = (call.args as Record<string, unknown> | undefined)?.[REFUSED_KEY];
      if (typeof refused === "string") return errorResult(call, `${call.name}: ${refused}`);
      if (!request.tool) {
        const visible = options.visibleTools().join(", ");
        return errorResult(call, `unknown tool "${call.name}". Available tools: ${visible}.`);
      }
      // `null` for an optional argument means "not given" (strict-schema habit), for every tool.
      const args = withoutNullOptionals(request.tool, call.args ?? {});
      const given = args === call.args ? request : { ...request, toolCall: { ...call, args } };
      try {
        return markFailures(await handler(given));
      } catch (error) {
        if (isGraphBubbleUp(error)) throw error;
        // A developer error (a bad option, a missing package) reaches the caller, not the model.
        const delve = unwrapDelveError(error);
        if (DelveError.isInstance(delve)) throw delve;
        const root = rootCause(error);
        if (ToolInvocationError.isInstance(root)) {
          return errorResult(call, invalidArguments(call, root, request.tool, args));
        }
        if (!shouldCatch(mode, root)) throw root;
        const text =
          typeof mode === "function"
            ? mode(root, call)
            : `${call.name} failed: ${messageOf(root)}. Check the arguments and retry, or continue without this result.`;
        return errorResult(call, text);
      }
    },
  });
}

// A model response whose tool calls nest too deep, with those calls' arguments replaced.
function refuseDeepArguments<R>(response: R): R {
  if (AIMessage.isInstance(response)) return refuseInMessage(response) as R;
  if (!isCommand(response)) return response;
  const update = response.update as Record<string, unknown> | undefined;
  const messages = update && !Array.isArray(update) ? update.messages : undefined;
  if (!Array.isArray(messages)) return response;
  const fixed = messages.map((m) => (AIMessage.isInstance(m) ? refuseInMessage(m) : m));
  if (fixed.every((m, i) => m === messages[i])) return response;
  return new Command({
    update: { ...update, messages: fixed },
    goto: response.goto as any,
    graph: response.graph,
    resume: response.resume,
  }) as R;
}

function refuseInMessage(message: AIMessage): AIMessage {
  const refused = new Map<string, Record<string, unknown>>();
  for (const call of message.tool_calls ?? []) {
    if (call.id && nestsDeeperThan(call.args, MAX_ARGUMENT_DEPTH)) {
      const reason = `arguments nested deeper than ${MAX_ARGUMENT_DEPTH} levels were refused; send flatter arguments`;
      refused.set(call.id, { [REFUSED_KEY]: reason });
    }
  }
  return refused.size ? withToolCallArgs(message, refused) : message;
}

// Iterative, so the check itself cannot overflow the stack.
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== "object") continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

function shouldCatch(mode: ToolErrorsOption, error: unknown): boolean {
  if (mode === true || typeof mode === "function") return true;
  if (mode === false) return false;
  return (mode as ReadonlyArray<abstract new (...a: any[]) => Error>).some(
    (cls) => error instanceof cls,
  );
}

// Middleware errors wrap the real one, once per layer: report the root.
function rootCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 10 && MiddlewareError.isInstance(current); depth++) {
    const cause = (current as { cause?: unknown }).cause;
    if (cause === undefined) break;
    current = cause;
  }
  return current;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

// One wording for every tool kind: judged on the tool's JSON schema, else read from the error.
function invalidArguments(
  call: ToolCall,
  error: ToolInvocationError,
  tool: unknown,
  args: unknown,
): string {
  const judged = argumentProblems(tool, args);
  if (judged.length) {
    return `invalid arguments for ${call.name}: ${judged.join("; ")}. Fix the arguments and retry.`;
  }
  const raw = messageOf(error.toolError)
    .replace(/^Received tool input did not match expected schema\s*/i, "")
    .replace(/^Details:\s*/i, "");
  const problems = raw
    // zod's pretty errors put the path on the next line: "✖ Too big ...\n  → at days".
    .replace(/✖ (.+)\n\s*→ at (.+)/g, (_m, problem, path) => `"${path}": ${problem}`)
    .split("\n")
    .map(explainSchemaError)
    .filter((line): line is string => Boolean(line));
  const detail = problems.length ? `: ${problems.join("; ")}` : "";
  return `invalid arguments for ${call.name}${detail}. Fix the arguments and retry.`;
}

// Rewrites JSON-schema validator lines ("#/properties/x/enum: ...") into plain words.
function explainSchemaError(line: string): string | undefined {
  const text = line.trim();
  if (!text || /^#\/properties: Property ".*" does not match schema\.?$/.test(text))
    return undefined;
  const required = text.match(/^#\/required: Instance does not have required property "(.+)"\.?$/);
  if (required) return `"${required[1]}" is required`;
  const enumFail = text.match(
    /^#\/properties\/([^/]+)\/enum: Instance does not match any of (\[.*\])\.?$/,
  );
  if (enumFail) {
    const options = (JSON.parse(enumFail[2]!) as unknown[]).map(String).join(", ");
    return `"${enumFail[1]}" must be one of: ${options}`;
  }
  const typeFail = text.match(
    /^#\/properties\/([^/]+)\/type: Instance type "(.+)" is invalid\. Expected "(.+)"\.?$/,
  );
  if (typeFail) return `"${typeFail[1]}" must be ${typeFail[3]}, not ${typeFail[2]}`;
  const other = text.match(/^#\/properties\/([^/]+)\/[a-zA-Z]+: (.+?)\.?$/);
  if (other) return `"${other[1]}": ${other[2]}`;
  return text.replace(/\s+/g, " ");
}

function errorResult(call: ToolCall, text: string): ToolMessage {
  return new ToolMessage({
    content: `Error: ${text}`,
    tool_call_id: call.id ?? "",
    name: call.name,
    status: "error",
  });
}
