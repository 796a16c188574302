import { ConfigurationError } from "../../errors/configuration-error.js";
import type { BackendProtocol } from "./protocol.js";

/** The methods every backend must have; `delete` and `execute` are optional capabilities. */
export const REQUIRED_BACKEND_METHODS = [
  "ls",
  "read",
  "write",
  "edit",
  "grep",
  "glob",
  "uploadFiles",
  "downloadFiles",
] as const;

const OPTIONAL_BACKEND_METHODS = ["delete", "execute"] as const;

/**
 * Throws a `ConfigurationError` unless `value` is a backend instance. A function (a backend
 * factory such as `(runtime) => new StateBackend(runtime)`, or the class itself) is refused
 * with code `BACKEND_FACTORY`; an object missing protocol methods with code `INVALID_BACKEND`
 * naming them. `where` names the option in the message ("backend", "routes[\"/memories/\"]").
 *
 * @example
 * assertBackendInstance(options.backend, "backend"); // throws for `backend: () => new StateBackend()`
 */
export function assertBackendInstance(
  value: unknown,
  where: string,
): asserts value is BackendProtocol {
  if (typeof value === "function") {
    const name = value.name || "StateBackend";
    const isClass = /^class[\s{]/.test(Function.prototype.toString.call(value));
    const hint = isClass
      ? `you passed the class ${name} itself; pass an instance: new ${name}(...)`
      : "backend factory functions are not supported; pass an instance such as new StateBackend()";
    throw new ConfigurationError(
      "BACKEND_FACTORY",
      `${where} must be a backend instance, not a function: ${hint}.`,
      { where },
    );
  }
  if (typeof value !== "object" || value === null) {
    throw new ConfigurationError(
      "INVALID_BACKEND",
      `${where} must be a backend instance (such as new StateBackend()), got ${value === null ? "null" : typeof value}.`,
      { where, missing: [...REQUIRED_BACKEND_METHODS] },
    );
  }
  const record = value as Record<string, unknown>;
  const missing = REQUIRED_BACKEND_METHODS.filter((m) => typeof record[m] !== "function");
  const malformed = OPTIONAL_BACKEND_METHODS.filter(
    (m) => record[m] !== undefined && typeof record[m] !== "function",
  );
  if (missing.length > 0 || malformed.length > 0) {
    const problems = [
      missing.length > 0 ? `missing method(s) ${missing.join(", ")}` : "",
      malformed.length > 0 ? `${malformed.join(", ")} present but not a function` : "",
    ].filter(Boolean);
    throw new ConfigurationError(
      "INVALID_BACKEND",
      `${where} does not implement the backend protocol: ${problems.join("; ")}.`,
      { where, missing, malformed },
    );
  }
}
