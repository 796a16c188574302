import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { SystemMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph";
import type { BaseCache } from "@langchain/langgraph-checkpoint";
import type { AgentMiddleware } from "langchain";
import type { InterruptOn } from "../approval/middleware.js";
import type { AskUserOption } from "../ask-user/middleware.js";
import type { BackendProtocol } from "../backends/protocol/protocol.js";
import type { DeferToolsOption } from "../deferral/defer-option.js";
import type { RunLimits } from "../limits/types.js";
import type { ModelRetrySettings } from "../models/model-retry.js";
import type { PermissionRule } from "../permissions/index.js";
import type { HarnessProfile } from "../profiles/types.js";
import type { CompiledSubAgent, SubAgent } from "../subagents/specs.js";
import type { ContextSettings } from "./context-layers.js";
import type { ToolErrorsOption } from "./tool-errors.js";
import type { AgentTool } from "./user-tools.js";

/**
 * Options of `createDeepAgent`: only `model` is required. An unknown key is refused with a
 * `ConfigurationError` naming the nearest valid one, and every value is checked when the
 * agent is built, not on its first run. docs/agent.md groups them by concern.
 *
 * @example
 * const options: CreateDeepAgentOptions = {
 *   model: "openai:gpt-5.5",
 *   tools: [getTicket],
 *   memory: ["/AGENTS.md"],
 * };
 */
export interface CreateDeepAgentOptions {
  /** A LangChain chat model instance, or `"provider:model"` resolved on its first call. */
  model: string | BaseChatModel;
  /** Extra tools: LangChain tools, `{ name, description, schema, func }`, provider dicts. */
  tools?: AgentTool[];
  /** The system prompt. Delve adds no authored prompt of its own. */
  systemPrompt?: string | SystemMessage;
  /** Extra middleware; one named like a default (e.g. FilesystemMiddleware) replaces it. */
  middleware?: AgentMiddleware[];
  /** Subagents `task` can delegate to, besides the general-purpose one. */
  subagents?: Array<SubAgent | CompiledSubAgent>;
  /** How deep subagents may nest (a subagent listing subagents is level 2). Default 1. */
  maxSubagentDepth?: number;
  /** Where the file tools' files live. Default: `new StateBackend()` (graph state). */
  backend?: BackendProtocol;
  /** Path rules for the file tools (first match wins; allow / deny). Kept when FilesystemMiddleware is replaced. */
  permissions?: PermissionRule[];
  /** A harness profile for this agent only, merged last; the registry is untouched. */
  profile?: HarnessProfile;
  /** The harness-profile key of the model, when the model instance does not reveal it. */
  profileKey?: string;
  /** Structured output, as `createAgent`'s `responseFormat`. */
  responseFormat?: any;
  /** Extra state, as `createAgent`'s `stateSchema`. */
  stateSchema?: any;
  /** Runtime context schema: values tools read at run time and the model never sees. */
  contextSchema?: any;
  /** Saves each thread's messages and files (MemorySaver, SQLite, PostgreSQL). */
  checkpointer?: BaseCheckpointSaver | boolean;
  /**
   * A checkpoint stores the messages and files a step changed, plus a full copy of each
   * every this many updates (default 500): lower reads a thread back faster, higher stores less.
   */
  checkpointSnapshotEvery?: number;
  /** A LangGraph store handed to tools and store-backed backends. */
  store?: BaseStore;
  /** Logs every model call and tool call to stderr. */
  debug?: boolean;
  /** The agent's name (graph name, streamed metadata). */
  name?: string;
  /** Tool failures: true catch all (default), false rethrow, error classes, or a formatter. */
  toolErrors?: ToolErrorsOption;
  /** A user tool named like a built-in replaces it; this says whether to warn (default), error or stay silent. */
  onToolNameConflict?: "warn" | "error" | "ignore";
  /**
   * Tools that pause for a human decision before they run: `{ delete_order: true }` or
   * `{ refund: { allowedDecisions: ["approve", "reject"], description } }`. Any tool of the
   * agent (yours, MCP, built-in). Needs a `checkpointer`; resume with
   * `new Command({ resume: { decisions } })`. The general-purpose subagent inherits it.
   */
  interruptOn?: InterruptOn;
  /** Files loaded into the system prompt (e.g. `["/AGENTS.md"]`), reloaded when they change. */
  memory?: string[];
  /** Directories whose `<name>/SKILL.md` front matter is listed in the prompt (e.g. `["/skills/"]`). */
  skills?: string[];
  /** Tool results above this many estimated tokens are saved to `/large_tool_results/` (default 20,000; null disables). */
  toolTokenLimitBeforeEvict?: number | null;
  /** Cap on evicted results kept per thread, oldest first (default 5 MB). */
  maxEvictedBytesPerThread?: number;
  /** The model's input window in tokens, when its LangChain profile does not give it. */
  contextWindow?: number;
  /** Summarization at 85% of the input window: settings, or false to turn it off. */
  summarization?: ContextSettings["summarization"];
  /**
   * Where harness files (evicted results, transcripts) go. Default: the thread's state. A
   * shared backend (not a `StateBackend`) keeps each thread in its own `/threads/<thread_id>/`.
   */
  harnessBackend?: BackendProtocol;
  /**
   * A LangGraph cache (`new InMemoryCache()` from `@langchain/langgraph-checkpoint`): a model
   * call whose conversation, files and state were seen before is answered from it, in the
   * agent and its subagents. Tools always run. See docs/agent.md.
   */
  cache?: BaseCache;
  /**
   * Tools sent only once `search_tools` loads them (an index names them): `"auto"` (default)
   * defers your and MCP tools when their definitions would exceed 5% of the model's window.
   */
  deferTools?: DeferToolsOption;
  /**
   * Adds `ask_user` (to this agent and its subagents): the model asks the user a question and
   * the run pauses until `new Command({ resume: { answer } })`. Needs a `checkpointer`.
   */
  askUser?: AskUserOption;
  /**
   * Budgets for the whole run (model calls, tool calls, tokens, cost, wall time, subagents),
   * counted across the tree and kept in the thread's state, and the loop guard (on by
   * default). Reaching one ends the run with a final message and a `limit` marker in the
   * state. See docs/limits.md.
   */
  limits?: RunLimits;
  /**
   * Retries of failed model calls (429 honouring Retry-After, 408, 409, 5xx, dropped
   * connections, an attempt with no answer in `attemptTimeoutMs`), with backoff and jitter,
   * through LangChain's `modelRetryMiddleware`; after the last one the run stops with a
   * `ModelCallError` and the thread stays resumable. Default on; `false` turns it off (the
   * provider class's own `maxRetries` then applies). See docs/limits.md.
   */
  modelRetry?: ModelRetrySettings | false;
}
