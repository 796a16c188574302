import { DelveError } from "./delve-error.js";

/**
 * The Delve error inside `error`, when LangChain wrapped it (each middleware layer wraps a
 * thrown error once, as a `MiddlewareError` whose `cause` is the original); otherwise
 * `error` itself. A caller then catches the Delve error, and `isInstance` holds on it.
 *
 * @example
 * try { await agent.invoke(input) } catch (e) { throw unwrapDelveError(e) }
 */
export function unwrapDelveError(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 20 && current !== null && typeof current === "object"; depth++) {
    if (DelveError.isInstance(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return error;
}

/**
 * Makes `invoke` and `stream` of a LangGraph runnable throw the Delve error itself rather
 * than its wrappers, both when the call starts and while a stream is read.
 */
export function withUnwrappedErrors<T extends object>(runnable: T): T {
  const target = runnable as {
    invoke?: (...args: unknown[]) => Promise<unknown>;
    stream?: (...args: unknown[]) => Promise<{ next?: (...args: unknown[]) => Promise<unknown> }>;
  };
  const invoke = target.invoke?.bind(runnable);
  const stream = target.stream?.bind(runnable);
  if (invoke) {
    target.invoke = async (...args) => {
      try {
        return await invoke(...args);
      } catch (error) {
        throw unwrapDelveError(error);
      }
    };
  }
  if (stream) {
    target.stream = async (...args) => {
      let result: Awaited<ReturnType<typeof stream>>;
      try {
        result = await stream(...args);
      } catch (error) {
        throw unwrapDelveError(error);
      }
      const next = result?.next?.bind(result);
      if (next) {
        result.next = async (...nextArgs) => {
          try {
            return await next(...nextArgs);
          } catch (error) {
            throw unwrapDelveError(error);
          }
        };
      }
      return result;
    };
  }
  return runnable;
}
