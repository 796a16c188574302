import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
} from "@langchain/core/language_models/chat_models";
import type { AIMessageChunk, BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import { initChatModel } from "langchain/chat_models/universal";
import { MissingProviderError } from "../errors/missing-provider-error.js";
import { configuredModelInstance } from "../langchain-seam/chat-models.js";
import { type ModelSpec, parseModelString } from "./providers.js";

type ResolvedModel = BaseChatModel;

/**
 * A chat model given as `"provider:model"` and resolved on its first real call, then
 * cached. Building an agent, binding tools and inspecting its surface import nothing; the
 * first call without the provider's package fails with `MissingProviderError` naming it.
 * `options` go to the provider's class. An `"openai:..."` model uses the Chat Completions
 * API unless `options.useResponsesApi` is true (ChatOpenAI itself still picks Responses for
 * models that need it, such as `*-codex`); pass a `ChatOpenAI` instance for anything else.
 *
 * @example
 * const model = new LazyChatModel("anthropic:claude-sonnet-4-6");
 * model.spec.packageName // "@langchain/anthropic"
 * const responses = new LazyChatModel("openai:gpt-5.5", { useResponsesApi: true });
 */
export class LazyChatModel extends BaseChatModel {
  readonly spec: ModelSpec;
  private readonly options: Record<string, unknown>;
  private resolving?: Promise<ResolvedModel>;

  constructor(model: string, options: Record<string, unknown> = {}) {
    super({});
    this.spec = parseModelString(model);
    this.options = options;
  }

  _llmType(): string {
    return `lazy:${this.spec?.provider ?? "unresolved"}`;
  }

  /** Imports the provider package and builds the real model, once. */
  resolve(): Promise<ResolvedModel> {
    this.resolving ??= (async () => {
      try {
        await import(this.spec.packageName);
      } catch (error) {
        this.resolving = undefined;
        throw new MissingProviderError(this.spec.provider, this.spec.packageName, error);
      }
      const universal: any = await initChatModel(this.spec.model, {
        modelProvider: this.spec.provider,
        ...this.options,
      });
      // The concrete class (ChatOpenAI, ChatAnthropic, ...), so callers can see what it speaks.
      const real = await configuredModelInstance(universal);
      return (real ?? universal) as ResolvedModel;
    })();
    return this.resolving;
  }

  override bindTools(tools: any[], kwargs?: Record<string, unknown>): any {
    return this.withConfig({ tools, ...kwargs } as any);
  }

  private async bound(options: this["ParsedCallOptions"]) {
    const real = await this.resolve();
    const { tools, tool_choice, ...rest } = options as Record<string, any>;
    const kwargs: Record<string, unknown> = { tool_choice };
    if (rest.strict !== undefined) kwargs.strict = rest.strict;
    if (rest.parallel_tool_calls !== undefined)
      kwargs.parallel_tool_calls = rest.parallel_tool_calls;
    const model = tools?.length ? (real as any).bindTools(tools, kwargs) : real;
    return { model, rest };
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): Promise<ChatResult> {
    const { model, rest } = await this.bound(options);
    const message = await model.invoke(messages, rest);
    return {
      generations: [{ text: typeof message.content === "string" ? message.content : "", message }],
    };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const { model, rest } = await this.bound(options);
    const stream = await model.stream(messages, rest);
    for await (const chunk of stream as AsyncIterable<AIMessageChunk>) {
      const text = typeof chunk.content === "string" ? chunk.content : "";
      yield new ChatGenerationChunk({ message: chunk, text });
      await runManager?.handleLLMNewToken(text);
    }
  }
}

export type { BaseChatModelCallOptions };
