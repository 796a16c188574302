import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { ScriptedChatModel, type ScriptedStep, type ScriptedToolCall } from "delve";
import { toolText } from "delve/mcp";
import { chooseModel } from "./agent.js";
import { deskModel } from "./desk-model.js";

/**
 * The served graph's model: the demo's choice (a provider when its key is set), except that
 * the offline fallback is `servedDeskModel()`, which many threads can share.
 *
 * @example
 * servedModel({ OPENAI_API_KEY: "sk-..." }); // "openai:gpt-5.5"
 */
export function servedModel(env: NodeJS.ProcessEnv = process.env): string | BaseChatModel {
  const chosen = chooseModel(env);
  return chosen instanceof ScriptedChatModel ? servedDeskModel() : chosen;
}

/**
 * The scripted desk model for a server: where `deskModel()` counts its calls (one script,
 * one run), this one reads the step from the thread itself (the number of model replies
 * since the last user message), so any number of threads, resumes, forks and restarts can
 * share it. A user message made of `call <tool> <json args>` lines calls those tools in
 * parallel and then reports their results (arguments that are not JSON get a one-line
 * answer); any other message runs the seed's desk task.
 *
 * @example
 * // user: call write_file {"file_path":"/notes.md","content":"hello"}
 * // model: write_file(...), then "write_file: Wrote /notes.md (1 line)."
 * createDeepAgent({ model: servedDeskModel(), tools: mcp.tools });
 */
export function servedDeskModel(): BaseChatModel {
  return new ThreadScriptedModel();
}

class ThreadScriptedModel extends BaseChatModel {
  constructor() {
    super({});
  }

  _llmType(): string {
    return "scripted-thread";
  }

  override bindTools(): any {
    return this; // the script names its tools itself
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const start = messages.findLastIndex((m) => m.getType() === "human");
    const turn = messages.slice(start);
    const step = scriptFor(turn[0]?.text ?? "")[turn.filter((m) => m.getType() === "ai").length];
    const reply =
      step === undefined ? "Done." : typeof step === "function" ? step(turn, { tools: [] }) : step;
    const { text = "", toolCalls = [] } = typeof reply === "string" ? { text: reply } : reply;
    const message = new AIMessage({
      content: text,
      tool_calls: toolCalls.map((c, i) => ({
        name: c.name,
        args: c.args,
        // unique within the thread: the position of this reply in it, then the call's index
        id: c.id ?? `call_${messages.length}_${i}`,
        type: "tool_call" as const,
      })),
    });
    return { generations: [{ text, message }] };
  }
}

const CALL_LINE = /^call\s+([A-Za-z0-9_-]+)\s+(\{.*\})\s*$/;

function scriptFor(request: string): readonly ScriptedStep[] {
  const lines = request.split("\n").filter((line) => line.trim() !== "");
  const calls = lines.map((line) => CALL_LINE.exec(line.trim()));
  if (calls.length === 0 || calls.some((c) => c === null)) return deskModel().steps;
  let toolCalls: ScriptedToolCall[];
  try {
    toolCalls = calls.map((c) => ({ name: c![1]!, args: JSON.parse(c![2]!) }));
  } catch (error) {
    return [`The arguments are not JSON: ${(error as Error).message}`];
  }
  return [
    { toolCalls },
    (turn) =>
      turn
        .filter((m) => m.getType() === "tool")
        .map((m) => `${(m as { name?: string }).name}: ${toolText(m)}`)
        .join("\n"),
  ];
}
