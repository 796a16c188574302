import { isGraphBubbleUp } from "@langchain/langgraph";
import {
  type AgentMiddleware,
  createMiddleware,
  MiddlewareError,
  modelRetryMiddleware,
} from "langchain";
import { ConfigurationError } from "../errors/configuration-error.js";
import { DelveError } from "../errors/delve-error.js";
import { ModelCallError } from "../errors/model-call-error.js";
import { llmTypeOf } from "../langchain-seam/chat-models.js";

/** The name of the layer that retries failed model calls. */
export const MODEL_RETRY_MIDDLEWARE_NAME = "ModelRetryMiddleware";

/**
 * Retries of a failed model call (429, 408, 409, 5xx, a dropped connection, no answer in
 * `attemptTimeoutMs`): exponential backoff from `initialDelayMs`, doubled each time up to
 * `maxDelayMs`, with ±25% jitter, and never sooner than a 429's Retry-After.
 */
export interface ModelRetrySettings {
  /** Retries after the first attempt (default 4; 0: none). */
  maxRetries?: number;
  /** The first retry's delay in ms (default 1000). */
  initialDelayMs?: number;
  /** The longest delay between attempts in ms (default 30000). */
  maxDelayMs?: number;
  /** An attempt with no answer within this many ms is cancelled and retried (default 600000). */
  attemptTimeoutMs?: number;
}

/** The defaults of `modelRetry`. */
export const DEFAULT_MODEL_RETRY: Required<ModelRetrySettings> = {
  maxRetries: 4,
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  attemptTimeoutMs: 600_000,
};

const RETRY_KEYS = Object.keys(DEFAULT_MODEL_RETRY);

/** Checks `modelRetry` at construction; undefined means the defaults, false none. */
export function validateModelRetry(value: unknown): Required<ModelRetrySettings> | false {
  if (value === false) return false;
  if (value === undefined) return DEFAULT_MODEL_RETRY;
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw invalid(
      "modelRetry must be false or { maxRetries, initialDelayMs, maxDelayMs, attemptTimeoutMs }.",
    );
  for (const [key, n] of Object.entries(value)) {
    if (!RETRY_KEYS.includes(key))
      throw invalid(`modelRetry.${key} is not a setting. Known: ${RETRY_KEYS.join(", ")}.`);
    const min = key === "attemptTimeoutMs" ? 1 : 0;
    if (typeof n !== "number" || !Number.isInteger(n) || n < min)
      throw invalid(`modelRetry.${key} must be a whole number >= ${min}.`);
  }
  return { ...DEFAULT_MODEL_RETRY, ...(value as ModelRetrySettings) };
}

function invalid(message: string): ConfigurationError {
  return new ConfigurationError("INVALID_OPTION", message);
}

/** An attempt that got no answer in time (retried like a dropped connection). */
class AttemptTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "ModelAttemptTimeout";
  }
}

const RETRY_STATUS = new Set([408, 409, 429]);

// The provider's error under the layers' wrappers (each middleware wraps a thrown error
// once): its status, headers and Retry-After are on it.
function unwrapped(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 20 && MiddlewareError.isInstance(current); depth++) {
    const cause = (current as { cause?: unknown }).cause;
    if (cause === undefined) break;
    current = cause;
  }
  return current;
}

function statusOf(error: unknown): number | undefined {
  const e = error as { status?: unknown; response?: { status?: unknown } } | undefined;
  const status = e?.status ?? e?.response?.status;
  return typeof status === "number" ? status : undefined;
}

// A failure of the transport or the provider's service, not of the request or the code.
function isTransportFailure(error: unknown): boolean {
  if (error instanceof AttemptTimeout) return true;
  if (DelveError.isInstance(error) || isGraphBubbleUp(error)) return false;
  const status = statusOf(error);
  if (status !== undefined) return RETRY_STATUS.has(status) || status >= 500;
  const e = error as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown };
  const text = `${String(e?.name)} ${String(e?.code)} ${String(e?.message)}`;
  if (/AbortError|Cancel/.test(text)) return false;
  return (
    /Connection|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|socket|terminated|fetch failed|premature|timed out/i.test(
      text,
    ) ||
    (e?.cause !== undefined && e.cause !== error && isTransportFailure(e.cause))
  );
}

function requestIdOf(error: unknown): string | undefined {
  const e = error as { requestID?: unknown; request_id?: unknown; headers?: unknown } | undefined;
  const id = e?.requestID ?? e?.request_id;
  if (typeof id === "string" && id) return id;
  const headers = e?.headers as
    | { get?: (k: string) => unknown }
    | Record<string, unknown>
    | undefined;
  for (const key of ["x-request-id", "request-id"]) {
    const value = typeof headers?.get === "function" ? headers.get(key) : (headers as any)?.[key];
    if (typeof value === "string" && value) return value;
  }
  return undefined;
}

function providerOf(model: unknown): string {
  return llmTypeOf(model).replace(/^lazy:/, "") || "model";
}

type Handler = (request: any) => Promise<unknown>;

// One attempt, cancelled (its signal aborted, so the HTTP request is dropped) when it
// gets no answer within `ms`, or when the run is cancelled.
async function attemptWithin(request: any, handler: Handler, ms: number): Promise<unknown> {
  const controller = new AbortController();
  const run: AbortSignal | undefined = request.runtime?.signal;
  // The run's cancel reaches the attempt's signal (a listener: cheaper per call than
  // AbortSignal.any, which every model call would pay).
  const forward = () => controller.abort(run?.reason);
  if (run?.aborted) forward();
  else run?.addEventListener("abort", forward, { once: true });
  const signal = controller.signal;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const timeout = new AttemptTimeout(ms);
      controller.abort(timeout);
      reject(timeout);
    }, ms);
  });
  // The attempt's signal goes with the call, so a timed-out attempt's request is dropped.
  // ChatOpenAI keeps bound settings as defaults that the run's own signal replaces at call
  // time, so the attempt's deadline also goes as `timeout` (a standard call option, which
  // the provider SDKs apply to the HTTP request): the request is closed, not abandoned.
  const modelSettings = { ...request.modelSettings, signal, timeout: ms };
  const call = handler({ ...request, modelSettings });
  try {
    return await Promise.race([call, expired]);
  } catch (error) {
    if (controller.signal.aborted && !run?.aborted) throw controller.signal.reason;
    throw unwrapped(error);
  } finally {
    clearTimeout(timer);
    run?.removeEventListener("abort", forward);
    call.catch(() => {});
  }
}

// Rejects as soon as the run is cancelled, also while LangChain's retry sleeps.
function untilCancelled<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const cancel = () => reject(signal.reason ?? new DOMException("aborted", "AbortError"));
    if (signal.aborted) return cancel();
    signal.addEventListener("abort", cancel, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", cancel));
  });
}

/**
 * Retries failed model calls with LangChain's `modelRetryMiddleware` (which turns the
 * provider class's own retries off for the call, so one layer retries), adding a timeout
 * per attempt; after the last retry the run stops with a `ModelCallError` naming the
 * provider, the status and the request id. Other errors pass through untouched.
 */
export function modelRetryLayer(settings: Required<ModelRetrySettings>): AgentMiddleware {
  const { maxRetries, initialDelayMs, maxDelayMs, attemptTimeoutMs } = settings;
  const retry = modelRetryMiddleware({
    maxRetries,
    initialDelayMs,
    maxDelayMs,
    backoffFactor: 2,
    jitter: true,
    onFailure: "error",
    retryOn: isTransportFailure,
  });
  const retrying = retry.wrapModelCall as unknown as (
    request: any,
    handler: Handler,
  ) => Promise<unknown>;
  return createMiddleware({
    name: MODEL_RETRY_MIDDLEWARE_NAME,
    wrapModelCall: async (request, handler) => {
      let attempts = 0;
      const attempt: Handler = (req) => {
        attempts++;
        return attemptWithin(req, handler as Handler, attemptTimeoutMs);
      };
      const signal = (request as { runtime?: { signal?: AbortSignal } }).runtime?.signal;
      try {
        return (await untilCancelled(retrying(request, attempt), signal)) as never;
      } catch (error) {
        if (signal?.aborted || !isTransportFailure(error)) throw error;
        const code = error instanceof AttemptTimeout ? "MODEL_CALL_TIMEOUT" : "MODEL_CALL_FAILED";
        const status = statusOf(error);
        const requestId = requestIdOf(error);
        throw new ModelCallError(
          code,
          {
            provider: providerOf(request.model),
            attempts,
            ...(status !== undefined ? { status } : {}),
            ...(requestId ? { requestId } : {}),
          },
          error,
        );
      }
    },
  }) as AgentMiddleware;
}
