import { AsyncLocalStorage } from "node:async_hooks";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type CheckedServer, DEFAULT_SHUTDOWN_GRACE_MS } from "./server-config.js";
import { SupervisedStdioTransport } from "./supervised-stdio.js";

const STDERR_TAIL_CHARS = 2000;
const callHeaders = new AsyncLocalStorage<Record<string, string>>();

/** A transport, not yet started, and the last lines a stdio server wrote to stderr. */
export interface OpenedTransport {
  transport: Transport;
  /** The child's pid once started (stdio only). */
  pid(): number | undefined;
  /** True when the pid leads a process group of its own (signal `-pid` to reach it all). */
  group: boolean;
  /** The end of the child's stderr, to explain a server that died at start-up. */
  stderrTail(): string;
}

/**
 * Builds the transport for one server entry. A stdio server runs in its own process group
 * under a supervisor that ends the group when this process lets go of it, however it ends
 * (see `SupervisedStdioTransport`); its stderr is passed through to ours and its tail kept
 * for error messages. HTTP requests carry the entry's headers plus
 * any an interceptor set for the call in progress (see `withCallHeaders`).
 *
 * @example
 * const { transport } = openTransport(server);
 * await new Client({ name: "delve", version: "1" }).connect(transport);
 */
export function openTransport(server: CheckedServer): OpenedTransport {
  if (server.transport === "http") {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: server.headers ? { headers: server.headers } : undefined,
      fetch: fetchWithCallHeaders,
    });
    return { transport, pid: () => undefined, group: false, stderrTail: () => "" };
  }
  // Windows has no process groups: there the SDK's own transport starts the server.
  const stdio =
    process.platform === "win32"
      ? new StdioClientTransport({
          command: server.command,
          args: server.args ?? [],
          env: server.env,
          cwd: server.cwd,
          stderr: "pipe",
        })
      : new SupervisedStdioTransport({
          command: server.command,
          args: server.args ?? [],
          env: server.env,
          cwd: server.cwd,
          graceMs: server.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS,
        });
  let tail = "";
  stdio.stderr?.on("data", (chunk: Buffer) => {
    process.stderr.write(chunk);
    tail = (tail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
  });
  return {
    transport: stdio,
    pid: () => stdio.pid ?? undefined,
    group: stdio instanceof SupervisedStdioTransport,
    stderrTail: () => tail.trim(),
  };
}

/** Runs `fn` with extra HTTP headers for the requests it makes (one tool call's worth). */
export function withCallHeaders<T>(
  headers: Record<string, string> | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  return headers && Object.keys(headers).length > 0 ? callHeaders.run(headers, fn) : fn();
}

function fetchWithCallHeaders(url: string | URL, init?: RequestInit): Promise<Response> {
  const extra = callHeaders.getStore();
  if (!extra) return fetch(url, init);
  const headers = new Headers(init?.headers);
  for (const [key, value] of Object.entries(extra)) headers.set(key, value);
  return fetch(url, { ...init, headers });
}
