import { messagesEvents, messagesStreamProblem } from "./fake-streams.js";
import {
  type FakeApi,
  freshId,
  imageTypeOfBase64,
  startFake,
  toolNameProblem,
  type WireTurn,
} from "./wire-rules.js";

// A local imitation of Anthropic's Messages API (POST /v1/messages, also streamed), refusing what the real
// API refuses with its 400 shape, answering from a script.

const anthropicError = (message: string) => ({
  type: "error",
  error: { type: "invalid_request_error", message },
});

/** Starts the fake Anthropic API; point `ChatAnthropic({ anthropicApiUrl: fake.url })` at it. */
export function startFakeAnthropic(): Promise<FakeApi> {
  return startFake({
    basePath: "",
    errorBody: anthropicError,
    requestIdHeader: "request-id",
    routes: {
      "/v1/messages": {
        validate: validateMessages,
        answer: messagesAnswer,
        stream: { problem: messagesStreamProblem, events: messagesEvents },
      },
    },
  });
}

const MEDIA_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];
const USER_BLOCKS = ["text", "image", "document", "tool_result"];
const ASSISTANT_BLOCKS = ["text", "tool_use", "thinking", "redacted_thinking"];
const RESULT_BLOCKS = ["text", "image", "document", "search_result"];

function imageProblem(block: any, where: string): string | undefined {
  const source = block.source ?? {};
  if (source.type === "url") return undefined;
  if (source.type !== "base64") return `${where}.source.type: Input should be 'base64' or 'url'`;
  if (!MEDIA_TYPES.includes(source.media_type)) {
    return `${where}.source.media_type: Input should be ${MEDIA_TYPES.map((t) => `'${t}'`).join(", ")}`;
  }
  const real = imageTypeOfBase64(source.data);
  if (real !== source.media_type) {
    return `${where}.source.base64.data: Image does not match the provided media type ${source.media_type}`;
  }
  return undefined;
}

function blocksProblem(content: unknown, allowed: string[], where: string): string | undefined {
  if (typeof content === "string") return undefined;
  if (!Array.isArray(content)) return `${where}: Input should be a valid list`;
  for (const [i, block] of content.entries()) {
    const at = `${where}.${i}`;
    if (!allowed.includes(block?.type)) {
      return `${at}: Input tag '${block?.type}' found using 'type' does not match any of the expected tags: ${allowed.map((a) => `'${a}'`).join(", ")}`;
    }
    if (block.type === "text" && typeof block.text !== "string")
      return `${at}.text: Field required`;
    if (block.type === "image") {
      const problem = imageProblem(block, at);
      if (problem) return problem;
    }
    if (block.type === "tool_result") {
      const problem = blocksProblem(block.content ?? "", RESULT_BLOCKS, `${at}.content`);
      if (problem) return problem;
    }
  }
  return undefined;
}

const blocksOf = (content: unknown): any[] => (Array.isArray(content) ? content : []);

/** Messages: roles, block types per role, tool_use / tool_result pairing, tool rules. */
export function validateMessages(body: any): string | undefined {
  for (const [i, tool] of (body.tools ?? []).entries()) {
    if (tool.type && tool.type !== "custom") continue;
    const bad = toolNameProblem(tool.name, `tools.${i}.custom.name`);
    if (bad) return bad;
    if (tool.input_schema?.type !== "object")
      return `tools.${i}.custom.input_schema.type: Field required`;
  }
  const messages: any[] = body.messages ?? [];
  if (messages.length === 0) return "messages: at least one message is required";
  if (messages[0].role !== "user") return 'messages: first message must use the "user" role';
  let open: string[] = [];
  for (const [i, m] of messages.entries()) {
    const where = `messages.${i}.content`;
    if (m.role !== "user" && m.role !== "assistant") {
      return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    }
    const blocks = blocksOf(m.content);
    const problem = blocksProblem(
      m.content,
      m.role === "user" ? USER_BLOCKS : ASSISTANT_BLOCKS,
      where,
    );
    if (problem) return problem;
    if (m.role === "user") {
      const results = blocks.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id);
      const stray = results.find((id) => !open.includes(id));
      if (stray) {
        return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
      const missing = open.filter((id) => !results.includes(id));
      if (missing.length) {
        return `messages.${i - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
      open = [];
    } else {
      if (open.length) {
        return `messages.${i - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${open.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
      open = blocks.filter((b) => b.type === "tool_use").map((b) => b.id);
    }
  }
  if (open.length) {
    return `messages.${messages.length - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${open.join(", ")}.`;
  }
  return undefined;
}

function messagesAnswer(turn: WireTurn, body: any) {
  const calls = "toolCalls" in turn && turn.toolCalls ? turn.toolCalls : [];
  const text = "text" in turn ? turn.text : undefined;
  return {
    id: freshId("msg_"),
    type: "message",
    role: "assistant",
    model: body.model,
    content: [
      ...(text !== undefined ? [{ type: "text", text }] : []),
      ...calls.map((c) => ({
        type: "tool_use",
        id: c.id ?? freshId("toolu_"),
        name: c.name,
        input: c.args,
      })),
    ],
    stop_reason: calls.length ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}
