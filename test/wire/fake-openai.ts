import {
  completionsChunks,
  completionsStreamProblem,
  responsesEvents,
  responsesStreamProblem,
} from "./fake-streams.js";
import {
  type FakeApi,
  freshId,
  imageUrlProblem,
  jsonArgsProblem,
  startFake,
  strictSchemaProblem,
  toolNameProblem,
  type WireTurn,
} from "./wire-rules.js";

// A local imitation of OpenAI's HTTP API: POST /v1/chat/completions and POST /v1/responses
// (both also streamed), refusing what the real API refuses with its 400 shape, answering
// from a script.

const openAiError = (message: string) => ({
  error: { message, type: "invalid_request_error", param: null, code: null },
});

/** Starts the fake OpenAI API; point `ChatOpenAI({ configuration: { baseURL: fake.url } })` at it. */
export function startFakeOpenAi(): Promise<FakeApi> {
  return startFake({
    basePath: "/v1",
    errorBody: openAiError,
    routes: {
      "/chat/completions": {
        validate: validateCompletions,
        answer: completionsAnswer,
        stream: { problem: completionsStreamProblem, events: completionsChunks },
        done: true,
      },
      "/responses": {
        validate: validateResponses,
        answer: responsesAnswer,
        stream: {
          problem: responsesStreamProblem,
          events: (turn, body) => responsesEvents(responsesAnswer(turn, body), turn),
        },
      },
    },
  });
}

const TEXT_PARTS = ["text"];
const USER_PARTS = ["text", "image_url", "input_audio", "file"];

function partsProblem(content: unknown, allowed: string[], where: string): string | undefined {
  if (typeof content === "string" || content === null) return undefined;
  if (!Array.isArray(content)) return `Invalid type for '${where}': expected a string or array.`;
  for (const [i, part] of content.entries()) {
    if (!allowed.includes(part?.type)) {
      return `Invalid value: '${part?.type}'. Supported values are: ${allowed.map((a) => `'${a}'`).join(" and ")}. (at '${where}[${i}].type')`;
    }
    if (part.type === "text" && typeof part.text !== "string") {
      return `Missing required parameter: '${where}[${i}].text'.`;
    }
    if (part.type === "image_url") {
      const problem = imageUrlProblem(part.image_url?.url, `${where}[${i}].image_url.url`);
      if (problem) return problem;
    }
  }
  return undefined;
}

function completionsToolsProblem(tools: any[] | undefined): string | undefined {
  for (const [i, tool] of (tools ?? []).entries()) {
    if (tool.type !== "function") continue;
    const fn = tool.function ?? {};
    const bad = toolNameProblem(fn.name, `tools[${i}].function.name`);
    if (bad) return bad;
    if (fn.strict !== undefined && typeof fn.strict !== "boolean") {
      return `Invalid type for 'tools[${i}].function.strict': expected a boolean, but got ${fn.strict === null ? "null" : typeof fn.strict} instead.`;
    }
    if (fn.strict === true) {
      const problem = strictSchemaProblem(fn.parameters);
      if (problem) return `Invalid schema for function '${fn.name}': In context=(), ${problem}.`;
    }
  }
  return undefined;
}

/** Chat Completions: roles, part types per role, tool-call pairing, tool rules. */
export function validateCompletions(body: any): string | undefined {
  const toolsProblem = completionsToolsProblem(body.tools);
  if (toolsProblem) return toolsProblem;
  const messages: any[] = body.messages ?? [];
  if (messages.length === 0) return "Invalid 'messages': empty array.";
  let open: string[] = [];
  for (const [i, m] of messages.entries()) {
    const where = `messages[${i}]`;
    if (m.role === "tool") {
      if (!open.includes(m.tool_call_id)) {
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (${where})`;
      }
      open = open.filter((id) => id !== m.tool_call_id);
      const problem = partsProblem(m.content, TEXT_PARTS, `${where}.content`);
      if (problem) return problem;
      continue;
    }
    if (open.length > 0) {
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(", ")}`;
    }
    if (m.role === "system" || m.role === "developer") {
      const problem = partsProblem(m.content, TEXT_PARTS, `${where}.content`);
      if (problem) return problem;
    } else if (m.role === "user") {
      const problem = partsProblem(m.content, USER_PARTS, `${where}.content`);
      if (problem) return problem;
    } else if (m.role === "assistant") {
      const problem = partsProblem(m.content, ["text", "refusal"], `${where}.content`);
      if (problem) return problem;
      for (const [j, call] of (m.tool_calls ?? []).entries()) {
        const args = jsonArgsProblem(
          call.function?.arguments,
          `${where}.tool_calls[${j}].function.arguments`,
        );
        if (args) return args;
        if (typeof call.id !== "string")
          return `Missing required parameter: '${where}.tool_calls[${j}].id'.`;
        open.push(call.id);
      }
    } else {
      return `Invalid value: '${m.role}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'function', and 'developer'. (at '${where}.role')`;
    }
  }
  if (open.length > 0) {
    return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(", ")}`;
  }
  return undefined;
}

function completionsAnswer(turn: WireTurn, body: any) {
  const calls = "toolCalls" in turn && turn.toolCalls ? turn.toolCalls : [];
  return {
    id: freshId("chatcmpl-"),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: ("text" in turn ? turn.text : undefined) ?? null,
          ...(calls.length
            ? {
                tool_calls: calls.map((c) => ({
                  id: c.id ?? freshId("call_"),
                  type: "function",
                  function: { name: c.name, arguments: JSON.stringify(c.args) },
                })),
              }
            : {}),
        },
        finish_reason: calls.length ? "tool_calls" : "stop",
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

const INPUT_PARTS = ["input_text", "input_image", "input_file"];

function responsesPartsProblem(content: unknown, allowed: string[], where: string) {
  if (typeof content === "string") return undefined;
  if (!Array.isArray(content)) return `Invalid type for '${where}': expected a string or array.`;
  for (const [i, part] of content.entries()) {
    if (!allowed.includes(part?.type)) {
      return `Invalid value: '${part?.type}'. Supported values are: ${allowed.map((a) => `'${a}'`).join(", ")}. (at '${where}[${i}].type')`;
    }
    if (part.type === "input_image" && part.file_id === undefined) {
      const problem = imageUrlProblem(part.image_url, `${where}[${i}].image_url`);
      if (problem) return problem;
    }
  }
  return undefined;
}

function responsesToolsProblem(tools: any[] | undefined): string | undefined {
  for (const [i, tool] of (tools ?? []).entries()) {
    if (tool.type !== "function") continue;
    const bad = toolNameProblem(tool.name, `tools[${i}].name`);
    if (bad) return bad;
    // On Responses a missing or null `strict` means strict.
    if (tool.strict !== false) {
      const problem = strictSchemaProblem(tool.parameters);
      if (problem) return `Invalid schema for function '${tool.name}': In context=(), ${problem}.`;
    }
  }
  return undefined;
}

/** Responses: input item types, parts per role, call/output pairing, tool rules. */
export function validateResponses(body: any): string | undefined {
  const toolsProblem = responsesToolsProblem(body.tools);
  if (toolsProblem) return toolsProblem;
  const input = typeof body.input === "string" ? [] : (body.input ?? []);
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const [i, item] of input.entries()) {
    const where = `input[${i}]`;
    const type = item.type ?? "message";
    if (type === "message") {
      const allowed =
        item.role === "assistant" ? ["output_text", "refusal", "input_text"] : INPUT_PARTS;
      if (!["user", "assistant", "system", "developer"].includes(item.role)) {
        return `Invalid value: '${item.role}'. Supported values are: 'user', 'assistant', 'system', and 'developer'. (at '${where}.role')`;
      }
      const problem = responsesPartsProblem(item.content, allowed, `${where}.content`);
      if (problem) return problem;
    } else if (type === "function_call") {
      const args = jsonArgsProblem(item.arguments, `${where}.arguments`);
      if (args) return args;
      calls.add(item.call_id);
    } else if (type === "function_call_output") {
      if (!calls.has(item.call_id)) {
        return `No tool call found for function call output with call_id ${item.call_id}.`;
      }
      answered.add(item.call_id);
      const problem = responsesPartsProblem(item.output, INPUT_PARTS, `${where}.output`);
      if (problem) return problem;
    } else if (type !== "reasoning" && type !== "item_reference") {
      return `Invalid value: '${type}'. (at '${where}.type')`;
    }
  }
  const unanswered = [...calls].find((id) => !answered.has(id));
  if (unanswered) return `No tool output found for function call ${unanswered}.`;
  return undefined;
}

function responsesAnswer(turn: WireTurn, body: any) {
  const calls = "toolCalls" in turn && turn.toolCalls ? turn.toolCalls : [];
  const text = "text" in turn ? turn.text : undefined;
  const output: any[] = [];
  if (text !== undefined) {
    output.push({
      type: "message",
      id: freshId("msg_"),
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text, annotations: [] }],
    });
  }
  for (const c of calls) {
    output.push({
      type: "function_call",
      id: freshId("fc_"),
      call_id: c.id ?? freshId("call_"),
      name: c.name,
      arguments: JSON.stringify(c.args),
      status: "completed",
    });
  }
  return {
    id: freshId("resp_"),
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "completed",
    model: body.model,
    output,
    usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
  };
}
