import { freshId, type WireTurn } from "./wire-rules.js";

// The streamed (server-sent events) answers of the fake providers, in the real APIs' event
// order, and the checks the real APIs make of a streaming request. A scripted turn's text
// arrives in `deltas` pieces (default: a word each); tool-call arguments arrive split in
// small fragments, so a client must reassemble them.

/** One server-sent event: `event:` name (Anthropic names each one) and its JSON data. */
export interface SseEvent {
  event?: string;
  data: unknown;
  /** A piece of the turn's text (a turn's `holdAfter` counts these). */
  piece?: boolean;
}

/** The text of a scripted turn in the pieces it streams in. */
export function textPieces(turn: WireTurn): string[] {
  if (!("text" in turn) || turn.text === undefined) return [];
  if ("deltas" in turn && turn.deltas) {
    if (turn.deltas.join("") !== turn.text)
      throw new Error("a turn's deltas must join to its text");
    return turn.deltas;
  }
  return turn.text.match(/\S+\s*|\s+/g) ?? [turn.text];
}

/** A JSON string in fragments of a few characters (how providers stream tool arguments). */
export function fragments(json: string, size = 7): string[] {
  const out: string[] = [];
  for (let i = 0; i < json.length; i += size) out.push(json.slice(i, i + size));
  return out.length ? out : [""];
}

const callsOf = (turn: WireTurn) => ("toolCalls" in turn && turn.toolCalls ? turn.toolCalls : []);

/** Chat Completions: `stream` a boolean; `stream_options` only with `stream`, only `include_usage`. */
export function completionsStreamProblem(body: any): string | undefined {
  if (body.stream !== undefined && typeof body.stream !== "boolean")
    return `Invalid type for 'stream': expected a boolean, but got ${typeof body.stream} instead.`;
  const options = body.stream_options;
  if (options === undefined || options === null) return undefined;
  if (body.stream !== true)
    return "The 'stream_options' parameter is only allowed when 'stream' is enabled.";
  if (typeof options !== "object" || Array.isArray(options))
    return `Invalid type for 'stream_options': expected an object, but got ${typeof options} instead.`;
  for (const [key, value] of Object.entries(options)) {
    if (key !== "include_usage" && key !== "include_obfuscation")
      return `Unknown parameter: 'stream_options.${key}'.`;
    if (typeof value !== "boolean")
      return `Invalid type for 'stream_options.${key}': expected a boolean, but got ${typeof value} instead.`;
  }
  return undefined;
}

/**
 * Chat Completions chunks: the role, the text deltas, each tool call (id and name first, then
 * its argument fragments), the finish reason, the usage chunk (with `include_usage`), then
 * `data: [DONE]` (the caller writes it).
 */
export function completionsChunks(turn: WireTurn, body: any): SseEvent[] {
  const id = freshId("chatcmpl-");
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: unknown, finish: string | null = null) => ({
    data: {
      id,
      object: "chat.completion.chunk",
      created,
      model: body.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    },
  });
  const out: SseEvent[] = [chunk({ role: "assistant", content: "", refusal: null })];
  for (const piece of textPieces(turn)) out.push({ ...chunk({ content: piece }), piece: true });
  for (const [index, call] of callsOf(turn).entries()) {
    const callId = call.id ?? freshId("call_");
    out.push(
      chunk({
        tool_calls: [
          { index, id: callId, type: "function", function: { name: call.name, arguments: "" } },
        ],
      }),
    );
    for (const part of fragments(JSON.stringify(call.args)))
      out.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  }
  out.push(chunk({}, callsOf(turn).length ? "tool_calls" : "stop"));
  if (body.stream_options?.include_usage) {
    out.push({
      data: {
        id,
        object: "chat.completion.chunk",
        created,
        model: body.model,
        choices: [],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      },
    });
  }
  return out;
}

/** Messages: `stream` a boolean. */
export function messagesStreamProblem(body: any): string | undefined {
  if (body.stream !== undefined && typeof body.stream !== "boolean")
    return "stream: Input should be a valid boolean";
  return undefined;
}

/**
 * Messages events: message_start (input usage), per block content_block_start / _delta /
 * _stop (text deltas, tool input as partial JSON), message_delta (stop reason, output
 * usage), message_stop.
 */
export function messagesEvents(turn: WireTurn, body: any): SseEvent[] {
  const ev = (event: string, data: Record<string, unknown>): SseEvent => ({
    event,
    data: { type: event, ...data },
  });
  const calls = callsOf(turn);
  const out: SseEvent[] = [
    ev("message_start", {
      message: {
        id: freshId("msg_"),
        type: "message",
        role: "assistant",
        model: body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    }),
  ];
  let index = 0;
  const pieces = textPieces(turn);
  if (pieces.length) {
    out.push(ev("content_block_start", { index, content_block: { type: "text", text: "" } }));
    out.push(ev("ping", {}));
    for (const text of pieces)
      out.push({
        ...ev("content_block_delta", { index, delta: { type: "text_delta", text } }),
        piece: true,
      });
    out.push(ev("content_block_stop", { index }));
    index++;
  }
  for (const call of calls) {
    out.push(
      ev("content_block_start", {
        index,
        content_block: {
          type: "tool_use",
          id: call.id ?? freshId("toolu_"),
          name: call.name,
          input: {},
        },
      }),
    );
    for (const partial_json of fragments(JSON.stringify(call.args)))
      out.push(
        ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } }),
      );
    out.push(ev("content_block_stop", { index }));
    index++;
  }
  out.push(
    ev("message_delta", {
      delta: { stop_reason: calls.length ? "tool_use" : "end_turn", stop_sequence: null },
      usage: { output_tokens: 5 },
    }),
  );
  out.push(ev("message_stop", {}));
  return out;
}

/** Responses: `stream` a boolean; `stream_options` only with `stream`, only `include_obfuscation`. */
export function responsesStreamProblem(body: any): string | undefined {
  if (body.stream !== undefined && typeof body.stream !== "boolean")
    return `Invalid type for 'stream': expected a boolean, but got ${typeof body.stream} instead.`;
  const options = body.stream_options;
  if (options === undefined || options === null) return undefined;
  if (body.stream !== true)
    return "The 'stream_options' parameter is only allowed when 'stream' is enabled.";
  for (const key of Object.keys(options)) {
    if (key !== "include_obfuscation") return `Unknown parameter: 'stream_options.${key}'.`;
  }
  return undefined;
}

/**
 * Responses events for `final` (the unstreamed response of the same turn): created and
 * in_progress; per output item, its added event, the text deltas (a message) or argument
 * deltas (a function call), their done events and the item's done; then completed with
 * the whole response and its usage. Every event carries its `sequence_number`.
 */
export function responsesEvents(final: any, turn: WireTurn): SseEvent[] {
  let sequence = 0;
  const ev = (type: string, data: Record<string, unknown>, piece = false): SseEvent => ({
    event: type,
    data: { type, sequence_number: sequence++, ...data },
    ...(piece ? { piece } : {}),
  });
  const started = { ...final, status: "in_progress", output: [], usage: null };
  const out: SseEvent[] = [
    ev("response.created", { response: started }),
    ev("response.in_progress", { response: started }),
  ];
  for (const [output_index, item] of (final.output as any[]).entries()) {
    if (item.type === "message") {
      const part = item.content[0];
      const at = { item_id: item.id, output_index, content_index: 0 };
      out.push(
        ev("response.output_item.added", {
          output_index,
          item: { ...item, status: "in_progress", content: [] },
        }),
        ev("response.content_part.added", { ...at, part: { ...part, text: "" } }),
      );
      for (const delta of textPieces(turn))
        out.push(ev("response.output_text.delta", { ...at, delta, logprobs: [] }, true));
      out.push(
        ev("response.output_text.done", { ...at, text: part.text, logprobs: [] }),
        ev("response.content_part.done", { ...at, part }),
      );
    } else {
      out.push(
        ev("response.output_item.added", {
          output_index,
          item: { ...item, arguments: "", status: "in_progress" },
        }),
      );
      for (const delta of fragments(item.arguments))
        out.push(
          ev("response.function_call_arguments.delta", { item_id: item.id, output_index, delta }),
        );
      out.push(
        ev("response.function_call_arguments.done", {
          item_id: item.id,
          output_index,
          arguments: item.arguments,
        }),
      );
    }
    out.push(ev("response.output_item.done", { output_index, item }));
  }
  out.push(ev("response.completed", { response: final }));
  return out;
}
