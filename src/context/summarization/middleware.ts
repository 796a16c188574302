import { AIMessage, type BaseMessage, RemoveMessage } from "@langchain/core/messages";
import { Command, REMOVE_ALL_MESSAGES, StateSchema } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { withAgentLevelState } from "../../agent/hook-state.js";
import { filesStateValue } from "../../backends/file-map/files-state.js";
import { StateBackend } from "../../backends/file-map/state.js";
import type { BackendProtocol } from "../../backends/protocol/protocol.js";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { setMessageId } from "../../langchain-seam/messages.js";
import { LazyChatModel } from "../../models/lazy-chat-model.js";
import { PROBE_KEY } from "../../surface/probe.js";
import { contextWindowAtCall, profileContextWindow, resolvesLazily } from "../context-window.js";
import { requestTokens } from "../token-estimate.js";
import {
  applyCompaction,
  type Compaction,
  type Compactor,
  compactMessages,
  mergeCompactions,
} from "./compaction.js";
import { type KeepPolicy, validateKeep } from "./cutoff.js";
import { isContextOverflowError } from "./overflow.js";
import type { Summarizer } from "./summarize.js";
import { TRANSCRIPT_DIR, transcriptPath } from "./transcript-file.js";

export type { KeepPolicy } from "./cutoff.js";

/** The name the summarization middleware registers under. */
export const SUMMARIZATION_MIDDLEWARE_NAME = "SummarizationMiddleware";
/** Default share of the input window at which older messages are summarised. */
export const DEFAULT_SUMMARIZATION_TRIGGER = 0.85;

/** Options of the summarization layer (`createDeepAgent({ summarization })`). */
export interface SummarizationOptions {
  /**
   * The model that writes summaries (an instance or `"provider:model"`). Default: the model
   * the agent is calling.
   */
  model?: unknown;
  /**
   * The model's input window in tokens. Wins over the model's LangChain profile
   * (`profile.maxInputTokens`), which is used when this is unset.
   */
  contextWindow?: number;
  /** Share of the input window (0-1] at which to summarise. Default 0.85. */
  trigger?: number;
  /** How much recent conversation to keep verbatim. Default `{ fraction: 0.1 }` of the window. */
  keep?: KeepPolicy;
  /** Where transcripts are appended. Default: a `StateBackend` (the thread's `files`). */
  backend?: BackendProtocol;
  /** Folder of transcript files. Default "/conversation_history". */
  transcriptDir?: string;
  /** Named in subagents' transcript file names ("<thread>--<agentName>-<hex>.md"). */
  agentName?: string;
  /**
   * The window to assume when neither `contextWindow` nor the model's profile gives one.
   * Unset (the default for an explicitly configured summarization), an unknown window is a
   * `ConfigurationError`; `createDeepAgent` sets it for its default summarization.
   */
  defaultContextWindow?: number;
  /**
   * The model of the agent this layer serves, whose window decides when to summarise (a
   * separate `model` only writes the summary). Given, an agent model with no known window
   * and no `contextWindow` is a construction error; `createDeepAgent` passes it.
   */
  agentModel?: unknown;
  /** True when the named tool is visible to the model (the summary may mention read_file). */
  mentions?: (toolName: string) => boolean;
}

/**
 * Summarises older messages when a model request reaches `trigger` (85%) of the model's
 * input window, estimated offline over the system prompt, messages and tools, and when the
 * provider reports a context overflow (then the call is retried once). First, bulky
 * `write_file`/`edit_file` arguments in old messages are shortened, each kept whole in a
 * file named in its place (`/conversation_history/<thread_id>.args/...`); if
 * the request is still too large, the messages before a recent tail (never splitting a tool
 * call from its results) are appended to `/conversation_history/<thread_id>.md` and replaced
 * by one summary message naming that file. The thread's saved messages are rewritten too, so
 * checkpoints shrink.
 *
 * @example
 * createDeepAgent({ model, middleware: [summarizationMiddleware({ contextWindow: 32_000, keep: { messages: 8 } })] });
 */
export function summarizationMiddleware(options: SummarizationOptions = {}) {
  const trigger = validateTrigger(options.trigger);
  const keep = validateKeep(options.keep);
  const explicitWindow = validateWindow(options.contextWindow, "contextWindow");
  const fallbackWindow = validateWindow(options.defaultContextWindow, "defaultContextWindow");
  const summarizer = resolveSummarizer(options.model);
  // The window that matters is the agent model's: it is what overflows, not the summarizer.
  const agentModel = options.agentModel;
  if (
    agentModel !== undefined &&
    explicitWindow === undefined &&
    fallbackWindow === undefined &&
    profileContextWindow(agentModel) === undefined &&
    !resolvesLazily(agentModel)
  ) {
    throw unknownWindowError();
  }
  const backend = options.backend ?? new StateBackend();
  const dir = (options.transcriptDir ?? TRANSCRIPT_DIR).replace(/\/+$/, "") || TRANSCRIPT_DIR;
  const mentions = options.mentions ?? (() => false);

  async function windowOf(model: unknown): Promise<number> {
    const window = explicitWindow ?? (await contextWindowAtCall(model)) ?? fallbackWindow;
    if (window === undefined) throw unknownWindowError();
    return window;
  }

  return withAgentLevelState(
    createMiddleware({
      name: SUMMARIZATION_MIDDLEWARE_NAME,
      stateSchema: new StateSchema({
        files: filesStateValue(),
      }),
      wrapModelCall: async (request, handler) => {
        // A surface inspection never calls (or resolves) the model: nothing to summarise.
        if (request.runtime.configurable?.[PROBE_KEY]) return handler(request);
        const window = await windowOf(request.model);
        const systemPrompt = request.systemMessage?.text ?? request.systemPrompt;
        const size = (messages: readonly BaseMessage[]) =>
          requestTokens({ systemPrompt, messages, tools: request.tools });
        const compactor: Compactor = {
          keep,
          backend,
          mentions,
          window,
          threshold: trigger * window,
          size,
          summarizer: (summarizer ?? request.model) as Summarizer,
          transcript: (messages: readonly BaseMessage[]) =>
            transcriptPath(dir, request.runtime as any, messages, options.agentName),
        };
        let plan: Compaction | undefined;
        let messages = request.messages;
        if (size(messages) >= compactor.threshold) {
          try {
            plan = await compactMessages(messages, compactor, false);
          } catch (error) {
            // Below the window still (85%): carry on uncompacted rather than end the run.
            console.warn(
              `[delve] summarization failed, continuing without it: ${messageOf(error)}`,
            );
          }
          if (plan) messages = applyCompaction(messages, plan);
        }
        let response: unknown;
        try {
          response = await handler({ ...request, messages });
        } catch (error) {
          if (!isContextOverflowError(error)) throw error;
          const forced = await compactMessages(messages, compactor, true).catch(
            (failure: unknown) => {
              console.warn(
                `[delve] summarization after a context overflow failed: ${messageOf(failure)}`,
              );
              return undefined;
            },
          );
          if (!forced) throw error;
          plan = mergeCompactions(plan, forced);
          response = await handler({ ...request, messages: applyCompaction(messages, forced) });
        }
        // A structured response is not an AIMessage and must come back as it is.
        if (!plan || !AIMessage.isInstance(response)) return response as AIMessage;
        // Rewrite the thread in the same step (no extra graph node per step): the response
        // keeps its id, so LangChain's own append of it is replaced, not doubled.
        // The id must survive a reload of the checkpoint.
        if (response.id == null) setMessageId(response, `summarized-${crypto.randomUUID()}`);
        return new Command({
          update: {
            messages: [
              new RemoveMessage({ id: REMOVE_ALL_MESSAGES }),
              ...applyCompaction((request.state as any).messages ?? [], plan),
              response,
            ],
          },
        });
      },
    }),
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function resolveSummarizer(model: unknown): Summarizer | undefined {
  if (model === undefined) return undefined;
  if (typeof model === "string") return new LazyChatModel(model) as unknown as Summarizer;
  if (model && typeof (model as { invoke?: unknown }).invoke === "function") {
    return model as Summarizer;
  }
  throw new ConfigurationError(
    "INVALID_OPTION",
    'summarization model must be a chat model instance or a "provider:model" string.',
  );
}

function validateTrigger(value: unknown): number {
  if (value === undefined) return DEFAULT_SUMMARIZATION_TRIGGER;
  if (typeof value === "number" && value > 0 && value <= 1) return value;
  throw new ConfigurationError(
    "INVALID_OPTION",
    `summarization trigger must be a share of the context window, above 0 and at most 1 (got ${JSON.stringify(value)}).`,
  );
}

function validateWindow(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return value;
  throw new ConfigurationError(
    "INVALID_OPTION",
    `${name} must be a positive number of tokens (got ${JSON.stringify(value)}).`,
  );
}

function unknownWindowError(): ConfigurationError {
  return new ConfigurationError(
    "UNKNOWN_CONTEXT_WINDOW",
    "Summarization needs the model's input window, and the model's profile does not give one: pass contextWindow (tokens), e.g. summarization: { contextWindow: 128000 }.",
  );
}
