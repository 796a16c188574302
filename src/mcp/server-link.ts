import { McpConnectionError } from "./mcp-connection-error.js";
import type { CheckedServer } from "./server-config.js";
import { McpSession } from "./server-session.js";

/**
 * The lasting handle on one server across reconnects. Tools hold the link, never a session,
 * so a call always reaches the current connection: after a crash, a timeout or a failed
 * request the next call opens a new session (stdio: a new process). Concurrent callers share
 * one connection attempt. After `close()` nothing reconnects, so no server outlives it.
 *
 * @example
 * const link = new McpServerLink(server, 30_000);
 * const session = await link.session(); // connects, or reuses the live session
 */
export class McpServerLink {
  readonly server: CheckedServer;
  private readonly connectTimeoutMs: number;
  private current: Promise<McpSession> | undefined;
  private closed = false;

  constructor(server: CheckedServer, connectTimeoutMs: number) {
    this.server = server;
    this.connectTimeoutMs = connectTimeoutMs;
  }

  /** True once `close()` was called. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** The live session, connecting (again) when there is none. Throws McpConnectionError. */
  async session(): Promise<McpSession> {
    for (;;) {
      if (this.closed) throw this.closedError();
      const pending = this.current ?? this.connect();
      let session: McpSession;
      try {
        session = await pending;
      } catch (error) {
        if (this.current === pending) this.current = undefined;
        throw error;
      }
      if (this.closed) {
        await session.close();
        throw this.closedError();
      }
      if (session.usable) return session;
      if (this.current === pending) this.current = undefined;
    }
  }

  /** Closes the current session, waiting for a connection attempt in progress. */
  async close(): Promise<void> {
    this.closed = true;
    const pending = this.current;
    this.current = undefined;
    const session = await pending?.catch(() => undefined);
    await session?.close();
  }

  private connect(): Promise<McpSession> {
    const pending = McpSession.open(this.server, this.connectTimeoutMs);
    this.current = pending;
    return pending;
  }

  private closedError(): McpConnectionError {
    return new McpConnectionError(
      "MCP_CLOSED",
      this.server.name,
      `the connection to MCP server "${this.server.name}" was closed by close()`,
    );
  }
}
