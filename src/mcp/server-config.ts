import { ConfigurationError } from "../errors/configuration-error.js";
import type { McpInterceptor } from "./interceptors.js";

/** What every server entry may add: which tools to load, how to name them, how long to wait. */
export interface McpServerOptions {
  /** Load only these tools (the server's own names, before `prefix`). */
  include?: string[];
  /** Leave these tools out (the server's own names). */
  exclude?: string[];
  /** Prepended to every tool name of this server, e.g. `"crm_"` gives `crm_get_ticket`. */
  prefix?: string;
  /** Per-call limit in milliseconds; past it the model gets an error result. Default 60000. */
  timeoutMs?: number;
  /** Run before and after each tool call of this server (auth, audit), in order. */
  interceptors?: McpInterceptor | McpInterceptor[];
}

/** A server started as a child process and spoken to over its stdin and stdout. */
export interface McpStdioServer extends McpServerOptions {
  transport: "stdio";
  command: string;
  args?: string[];
  /** The child's environment, on top of a safe minimum (PATH, HOME, ...); the parent's is not inherited. */
  env?: Record<string, string>;
  cwd?: string;
  /**
   * How long `close()` waits for the server to exit after closing its stdin, and again after
   * SIGTERM to its process group, before SIGKILL. Default 2000.
   */
  shutdownGraceMs?: number;
}

/** The default of `shutdownGraceMs`. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 2000;

/** A server reached over MCP streamable HTTP. */
export interface McpHttpServer extends McpServerOptions {
  transport: "http";
  url: string;
  /** Sent with every request, e.g. `{ Authorization: "Bearer ..." }`. */
  headers?: Record<string, string>;
}

/** One entry of `connectMcp`'s servers map. */
export type McpServerConfig = McpStdioServer | McpHttpServer;

/** A server entry after checking, with defaults filled in. */
export type CheckedServer = McpServerConfig & {
  name: string;
  timeoutMs: number;
  interceptors: McpInterceptor[];
};

const COMMON_KEYS = ["transport", "include", "exclude", "prefix", "timeoutMs", "interceptors"];
const KEYS: Record<string, string[]> = {
  stdio: [...COMMON_KEYS, "command", "args", "env", "cwd", "shutdownGraceMs"],
  http: [...COMMON_KEYS, "url", "headers"],
};
const PREFIX_RULE = /^[a-zA-Z0-9_-]*$/;

/**
 * Checks the servers map at connect time, before anything is started, so a typo is an error
 * that names the server and the key rather than a child process that fails later.
 */
export function checkServers(
  servers: Record<string, McpServerConfig>,
  defaultTimeoutMs: number,
): CheckedServer[] {
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    throw invalid("connectMcp takes a map of server names to entries, e.g. { ticket: { ... } }.");
  }
  const names = Object.keys(servers);
  if (names.length === 0) throw invalid("connectMcp needs at least one server.");
  return names.map((name) => checkServer(name, servers[name], defaultTimeoutMs));
}

function checkServer(name: string, entry: unknown, defaultTimeoutMs: number): CheckedServer {
  const where = `MCP server "${name}"`;
  if (typeof entry !== "object" || entry === null) throw invalid(`${where} must be an object.`);
  const e = entry as Record<string, any>;
  const allowed = KEYS[e.transport];
  if (!allowed) {
    throw invalid(
      `${where} needs transport: "stdio" or "http" (got ${JSON.stringify(e.transport)}).`,
    );
  }
  const unknown = Object.keys(e).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw invalid(
      `${where} has unknown key ${unknown.map((k) => `"${k}"`).join(", ")}; ${e.transport} servers take ${allowed.join(", ")}.`,
    );
  }
  if (e.transport === "stdio" && (typeof e.command !== "string" || !e.command)) {
    throw invalid(`${where} needs command: the program that starts the server.`);
  }
  if (e.transport === "http" && !isHttpUrl(e.url)) {
    throw invalid(`${where} needs url: an http(s) address (got ${JSON.stringify(e.url)}).`);
  }
  for (const key of ["include", "exclude", "args"]) {
    if (e[key] !== undefined && !isStringArray(e[key])) {
      throw invalid(`${where}: ${key} must be an array of strings.`);
    }
  }
  if (e.prefix !== undefined && (typeof e.prefix !== "string" || !PREFIX_RULE.test(e.prefix))) {
    throw invalid(
      `${where}: prefix may hold only letters, digits, _ and - (got ${JSON.stringify(e.prefix)}).`,
    );
  }
  const timeoutMs = e.timeoutMs ?? defaultTimeoutMs;
  if (typeof timeoutMs !== "number" || !(timeoutMs > 0)) {
    throw invalid(`${where}: timeoutMs must be a positive number of milliseconds.`);
  }
  const grace = e.shutdownGraceMs;
  if (grace !== undefined && (typeof grace !== "number" || !(grace >= 0) || grace > 600_000)) {
    throw invalid(`${where}: shutdownGraceMs must be a number of milliseconds from 0 to 600000.`);
  }
  const interceptors = e.interceptors === undefined ? [] : [e.interceptors].flat();
  for (const i of interceptors) {
    const ok =
      typeof i === "object" &&
      i !== null &&
      (i.before === undefined || typeof i.before === "function") &&
      (i.after === undefined || typeof i.after === "function");
    if (!ok)
      throw invalid(`${where}: interceptors are objects with optional before and after functions.`);
  }
  return { ...(e as McpServerConfig), name, timeoutMs, interceptors };
}

function invalid(message: string): ConfigurationError {
  return new ConfigurationError("INVALID_MCP_SERVER", message);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
