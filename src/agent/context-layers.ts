import { StateBackend } from "../backends/file-map/state.js";
import type { BackendProtocol } from "../backends/protocol/protocol.js";
import { DEFAULT_CONTEXT_WINDOW } from "../context/context-window.js";
import {
  EVICTED_RESULTS_DIR,
  EVICTION_MIDDLEWARE_NAME,
  evictionMiddleware,
} from "../context/eviction/middleware.js";
import { ThreadScopedBackend } from "../context/eviction/thread-scoped.js";
import { HarnessMountedBackend } from "../context/harness-mounts.js";
import { MEMORY_MIDDLEWARE_NAME, memoryMiddleware } from "../context/memory/middleware.js";
import {
  PATCH_TOOL_CALLS_MIDDLEWARE_NAME,
  patchToolCallsMiddleware,
} from "../context/patch-tool-calls.js";
import { SKILLS_MIDDLEWARE_NAME, skillsMiddleware } from "../context/skills/middleware.js";
import {
  SUMMARIZATION_MIDDLEWARE_NAME,
  type SummarizationOptions,
  summarizationMiddleware,
} from "../context/summarization/middleware.js";
import type { StackMiddleware } from "./langchain-types.js";

/** Where summarization appends full transcripts. */
export const TRANSCRIPT_DIR = "/conversation_history";

/** The context-management options of `createDeepAgent`. */
export interface ContextSettings {
  /** Files loaded into the system prompt, reloaded when they change. */
  memory?: string[];
  /** Directories whose `*\/SKILL.md` files are listed in the system prompt. */
  skills?: string[];
  /** Tool results above this many (estimated) tokens are saved to a file. Null disables. */
  toolTokenLimitBeforeEvict?: number | null;
  /** Cap on evicted results kept per thread, oldest deleted first. */
  maxEvictedBytesPerThread?: number;
  /** The model's input window in tokens, when its LangChain profile does not say. */
  contextWindow?: number;
  /** Summarization settings, or false to turn it off. */
  summarization?:
    | false
    | Pick<SummarizationOptions, "model" | "trigger" | "keep" | "contextWindow" | "transcriptDir">;
  /**
   * Where harness files (evicted results, transcripts) go. Default: the thread's state. A
   * shared backend (not a `StateBackend`) keeps each thread in its own `/threads/<thread_id>/`.
   */
  harnessBackend?: BackendProtocol;
}

/** Where harness files live and the backend the file tools use to read them back. */
export interface HarnessRouting {
  harness: BackendProtocol;
  /** The agent's backend, with the harness directories mounted when they live elsewhere. */
  agentBackend: BackendProtocol;
}

/**
 * Harness files go to the thread's in-state files by default, never silently onto a user's
 * disk. When the agent's own backend is something else, the harness directories are mounted
 * into it (at the same paths) so `read_file` can still read evicted results back. A given
 * `harnessBackend` other than a `StateBackend` is shared by every thread, so each thread
 * sees only its own folder of it (`/threads/<thread_id>/`).
 */
export function harnessRouting(
  base: BackendProtocol,
  harness: BackendProtocol | undefined,
  settings: ContextSettings = {},
): HarnessRouting {
  const target =
    harness === undefined
      ? base instanceof StateBackend
        ? base
        : new StateBackend()
      : harness instanceof StateBackend
        ? harness
        : new ThreadScopedBackend(harness);
  if (target === base) return { harness: target, agentBackend: base };
  const dirs = harnessDirs(settings);
  if (dirs.length === 0) return { harness: target, agentBackend: base };
  return { harness: target, agentBackend: new HarnessMountedBackend(base, target, dirs) };
}

// The directories the enabled context layers write harness files to.
function harnessDirs(settings: ContextSettings): string[] {
  const dirs: string[] = [];
  if (settings.toolTokenLimitBeforeEvict !== null) dirs.push(EVICTED_RESULTS_DIR);
  if (settings.summarization !== false) {
    const custom = settings.summarization?.transcriptDir?.replace(/\/+$/, "");
    dirs.push(custom || TRANSCRIPT_DIR);
  }
  return dirs;
}

/** The registered name of each context layer; a user middleware with it replaces the layer. */
export const CONTEXT_LAYER_NAMES = {
  eviction: EVICTION_MIDDLEWARE_NAME,
  patch: PATCH_TOOL_CALLS_MIDDLEWARE_NAME,
  skills: SKILLS_MIDDLEWARE_NAME,
  memory: MEMORY_MIDDLEWARE_NAME,
  summarization: SUMMARIZATION_MIDDLEWARE_NAME,
} as const;

/** The layers with any user middleware of the same name put in their place. */
export function withReplacements(
  layers: ContextLayers,
  replacement: (name: string) => StackMiddleware | undefined,
): ContextLayers {
  const out: ContextLayers = { ...layers };
  for (const key of Object.keys(CONTEXT_LAYER_NAMES) as (keyof ContextLayers)[]) {
    const mine = replacement(CONTEXT_LAYER_NAMES[key]);
    if (mine) out[key] = mine;
  }
  return out;
}

/** The context middleware of one agent, each placed by `buildStack`. */
export interface ContextLayers {
  eviction?: StackMiddleware;
  patch: StackMiddleware;
  skills?: StackMiddleware;
  memory?: StackMiddleware;
  summarization?: StackMiddleware;
}

/**
 * Builds the context middleware of one agent: eviction (outside the file tools), dangling
 * tool-call patching, skills and memory prompt sections, and summarization (innermost).
 */
export function contextLayers(
  settings: ContextSettings,
  at: {
    model: unknown;
    harness: BackendProtocol;
    files: BackendProtocol;
    mentions: (tool: string) => boolean;
    agentName?: string;
    withMemory: boolean;
    withSkills: boolean;
  },
): ContextLayers {
  const layers: ContextLayers = { patch: patchToolCallsMiddleware() };
  if (settings.toolTokenLimitBeforeEvict !== null) {
    layers.eviction = evictionMiddleware({
      backend: at.harness,
      toolTokenLimitBeforeEvict: settings.toolTokenLimitBeforeEvict,
      maxEvictedBytesPerThread: settings.maxEvictedBytesPerThread,
      mentions: at.mentions,
    });
  }
  if (at.withSkills && settings.skills?.length) {
    layers.skills = skillsMiddleware({
      sources: settings.skills,
      backend: at.files,
      mentions: at.mentions,
    });
  }
  if (at.withMemory && settings.memory?.length) {
    layers.memory = memoryMiddleware({
      sources: settings.memory,
      backend: at.files,
      mentions: at.mentions,
    });
  }
  if (settings.summarization !== false) {
    const explicit = settings.summarization ?? {};
    const window = explicit.contextWindow ?? settings.contextWindow;
    layers.summarization = summarizationMiddleware({
      ...explicit,
      contextWindow: window,
      backend: at.harness,
      agentName: at.agentName,
      agentModel: at.model,
      mentions: at.mentions,
      // Configured explicitly, an unknown window is an error; by default, assume a common one.
      defaultContextWindow: settings.summarization || window ? undefined : DEFAULT_CONTEXT_WINDOW,
    });
  }
  return layers;
}
