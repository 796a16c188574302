import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

/** A tool call a scripted step makes; the id is generated when omitted. */
export interface ScriptedToolCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
}

/** Token counts a scripted reply reports as its usage metadata, as a provider would. */
export interface ScriptedUsage {
  input_tokens: number;
  output_tokens: number;
}

/** A scripted reply given as an object. */
export interface ScriptedReply {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  usage?: ScriptedUsage;
}

/** One scripted reply: text, tool calls, or a function of the conversation so far. */
export type ScriptedStep =
  | string
  | ScriptedReply
  | ((messages: BaseMessage[], call: { tools: string[] }) => string | ScriptedReply);

/**
 * A chat model that replies from a script, for tests, demos and benchmarks with no provider.
 * Each call takes the next step; a step can be a function of the messages received so it
 * can answer from real tool results (it also gets the names of the tools bound). Past the
 * end of the script it throws, so a test notices an unexpected extra call. `calls` records
 * what each call received; `used` counts the steps taken. A step with `usage` reports those
 * token counts as usage metadata (model name "scripted"). Also exported from `delve/testing`.
 *
 * @example
 * const model = new ScriptedChatModel([
 *   { toolCalls: [{ name: "read_file", args: { file_path: "/kb/faq.md" } }] },
 *   (messages) => `The FAQ says: ${messages.at(-1)?.text}`,
 * ]);
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly steps: ScriptedStep[];
  /** Per call: the messages and the names of the tools bound. */
  readonly calls: Array<{ messages: BaseMessage[]; tools: string[]; boundTools: unknown[] }> = [];
  private next = 0;
  private boundTools: unknown[] = [];
  private counter = 0;

  constructor(steps: ScriptedStep[]) {
    super({});
    this.steps = steps;
  }

  _llmType(): string {
    return "scripted";
  }

  override bindTools(tools: any[]): any {
    const bound = Object.create(this) as ScriptedChatModel;
    bound.boundTools = [...tools];
    return bound;
  }

  /** How many steps have been consumed. */
  get used(): number {
    return this.root().next;
  }

  private root(): ScriptedChatModel {
    let model: ScriptedChatModel = this;
    while (!Object.hasOwn(model, "next")) model = Object.getPrototypeOf(model);
    return model;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const root = this.root();
    const tools = this.boundTools.map((t: any) => t?.name ?? t?.function?.name ?? t?.type ?? "?");
    root.calls.push({ messages: [...messages], tools, boundTools: this.boundTools });
    const step = root.steps[root.next++];
    if (step === undefined) {
      throw new Error(
        `ScriptedChatModel: no step ${root.next} (the script has ${root.steps.length}).`,
      );
    }
    const reply = typeof step === "function" ? step(messages, { tools }) : step;
    const {
      text = "",
      toolCalls = [],
      usage,
    } = typeof reply === "string" ? { text: reply } : reply;
    const message = new AIMessage({
      content: text,
      ...(usage
        ? {
            response_metadata: { model_name: "scripted" },
            usage_metadata: {
              ...usage,
              total_tokens: usage.input_tokens + usage.output_tokens,
            },
          }
        : {}),
      tool_calls: toolCalls.map((c) => ({
        name: c.name,
        args: c.args,
        id: c.id ?? `call_${++root.counter}`,
        type: "tool_call" as const,
      })),
    });
    return { generations: [{ text, message }] };
  }
}
