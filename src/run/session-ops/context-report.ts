// What fills the model's window on the thread's next call: the system prompt and tools (as the
// surface inspector measures them, so figures match `delve surface`), the messages, and the
// file contents inside them.
import type { BaseMessage } from "@langchain/core/messages";
import { contextWindowAtCall, DEFAULT_CONTEXT_WINDOW } from "../../context/context-window.js";
import { messageTokens, textTokens } from "../../context/token-estimate.js";
import { LazyChatModel } from "../../models/lazy-chat-model.js";
import { inspectSurface } from "../../surface/index.js";
import type { RunSession } from "../engine.js";
import { contentText } from "../stream-events.js";

/** One part of the window: its characters and estimated tokens. */
export interface ContextPart {
  /** "system prompt", a tool's name, "messages", a file's path. */
  name: string;
  chars: number;
  tokens: number;
}

/** What `contextReport` returns: parts that do not overlap, so they add up to `total`. */
export interface ContextReport {
  /**
   * The model's input window in tokens: its LangChain profile's, or (with `windowAssumed`)
   * the 128k that summarization assumes for a model whose profile gives none.
   */
  window: number;
  windowAssumed: boolean;
  systemPrompt: ContextPart;
  /** Each tool the model is shown (name, description, schema), largest first. */
  tools: ContextPart[];
  /** The conversation, without the file contents counted under `files`. */
  messages: ContextPart & { count: number };
  /** File contents in the conversation (read_file results, write_file contents) per path. */
  files: ContextPart[];
  /** The sum of every part. */
  total: { chars: number; tokens: number };
}

/** What fills the window of the thread's next model call, part by part. */
export async function contextReport(session: RunSession): Promise<ContextReport> {
  const [surface, state, known] = await Promise.all([
    inspectSurface(session.agent),
    session.agent.getState(session.config),
    windowOf(session.model),
  ]);
  const messages: BaseMessage[] = state?.values?.messages ?? [];
  const files = new Map<string, ContextPart>();
  const conversation = { name: "messages", chars: 0, tokens: 0, count: messages.length };
  const readCalls = new Map<string, string>();
  for (const m of messages) {
    let chars = contentText(m.content).length;
    let tokens = messageTokens(m);
    for (const call of (m as { tool_calls?: ToolCall[] }).tool_calls ?? []) {
      chars += `${call.name}${JSON.stringify(call.args ?? {})}`.length;
      const file = String(call.args?.file_path ?? "");
      if (call.name === "read_file" && call.id) readCalls.set(call.id, file);
      if (call.name === "write_file" && typeof call.args?.content === "string") {
        const moved = addFile(files, file, call.args.content);
        chars -= moved.chars;
        tokens -= moved.tokens;
      }
    }
    const answered = readCalls.get(String((m as { tool_call_id?: string }).tool_call_id ?? ""));
    if (
      m.getType() === "tool" &&
      answered !== undefined &&
      (m as { status?: string }).status !== "error"
    ) {
      const moved = addFile(files, answered, contentText(m.content));
      chars -= moved.chars;
      tokens -= moved.tokens;
    }
    conversation.chars += Math.max(0, chars);
    conversation.tokens += Math.max(0, tokens);
  }
  const systemPrompt = {
    name: "system prompt",
    chars: surface.systemPromptChars,
    tokens: textTokens(surface.systemPrompt),
  };
  const tools = surface.tools
    .map((t) => ({ name: t.name, chars: t.chars, tokens: t.tokens }))
    .sort((a, b) => b.tokens - a.tokens);
  const fileParts = [...files.values()].sort((a, b) => b.tokens - a.tokens);
  const parts = [systemPrompt, ...tools, conversation, ...fileParts];
  return {
    window: known ?? DEFAULT_CONTEXT_WINDOW,
    windowAssumed: known === undefined,
    systemPrompt,
    tools,
    messages: conversation,
    files: fileParts,
    total: {
      chars: parts.reduce((sum, p) => sum + p.chars, 0),
      tokens: parts.reduce((sum, p) => sum + p.tokens, 0),
    },
  };
}

interface ToolCall {
  id?: string;
  name: string;
  args?: Record<string, any>;
}

// Counts a file's content under its path; returns what it moved out of the message's figures.
function addFile(files: Map<string, ContextPart>, file: string, text: string) {
  const moved = { chars: text.length, tokens: textTokens(text) };
  const name = file.replace(/^\/+/, "") || "(unnamed)";
  const part = files.get(name) ?? { name, chars: 0, tokens: 0 };
  part.chars += moved.chars;
  part.tokens += moved.tokens;
  files.set(name, part);
  return moved;
}

// The window the model's profile declares; a "provider:model" string is resolved for it.
async function windowOf(model: unknown): Promise<number | undefined> {
  const resolved = typeof model === "string" ? safeLazy(model) : model;
  return resolved === undefined ? undefined : contextWindowAtCall(resolved);
}

function safeLazy(model: string): unknown {
  try {
    return new LazyChatModel(model);
  } catch {
    return undefined;
  }
}
