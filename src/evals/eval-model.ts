import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import {
  type CassetteReplay,
  type CassetteStep,
  requestKey,
  requestParts,
  storeResponse,
} from "./cassette.js";

/** One model call as the runner saw it. */
export interface ModelCall {
  request: BaseMessage[];
  response: AIMessage;
  ms: number;
}

/** What one task run's model calls share: the call log, the tools seen, the cassette. */
export interface ModelSession {
  calls: ModelCall[];
  /** Every tool object the model was handed, by name. */
  tools: Map<string, { name: string; metadata?: unknown }>;
  /** Set when replaying: answers requests from the cassette. */
  replay?: CassetteReplay;
  /** Set when recording: the steps recorded so far. */
  record?: CassetteStep[];
}

/**
 * The model the agent under test is built with: it forwards each call to the real model
 * (live or recording) or answers it from a cassette (replay), and logs every call with
 * its request, response and time, including subagents' calls.
 */
export class EvalChatModel extends BaseChatModel {
  constructor(
    private readonly session: ModelSession,
    private readonly inner: BaseChatModel | undefined,
    private readonly tools: unknown[] = [],
    private readonly toolOptions: Record<string, unknown> = {},
  ) {
    super({});
  }

  _llmType(): string {
    return "delve-eval";
  }

  override bindTools(tools: any[], kwargs?: Record<string, unknown>): any {
    return new EvalChatModel(this.session, this.inner, [...tools], kwargs ?? {});
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): Promise<ChatResult> {
    for (const t of this.tools as Array<{ name?: unknown; metadata?: unknown }>) {
      if (typeof t?.name === "string") this.session.tools.set(t.name, t as { name: string });
    }
    const started = Date.now();
    const parts = requestParts(messages, this.tools);
    let response: AIMessage;
    if (this.session.replay) {
      response = this.session.replay.answer(parts);
    } else {
      if (!this.inner) throw new Error("EvalChatModel: no model to call.");
      const bound =
        this.tools.length > 0 && typeof this.inner.bindTools === "function"
          ? this.inner.bindTools(this.tools as any[], this.toolOptions as any)
          : this.inner;
      response = (await bound.invoke(messages, { signal: options.signal })) as AIMessage;
      this.session.record?.push({
        key: requestKey(parts),
        parts,
        response: storeResponse(response),
      });
    }
    this.session.calls.push({ request: [...messages], response, ms: Date.now() - started });
    const text = typeof response.content === "string" ? response.content : "";
    return { generations: [{ text, message: response }] };
  }
}
