import { DelveError } from "../errors/delve-error.js";

/**
 * Thrown by `connectMcp` (and by `resources()` / `prompts()`) when a server cannot be reached:
 * the command does not start, the process dies during the handshake, the URL does not
 * answer, or the server refuses the credentials (`code` is then `MCP_UNAUTHORIZED`). Tool
 * calls never throw it: the model gets an error result instead.
 *
 * @example
 * try { await connectMcp({ crm: { transport: "http", url } }) }
 * catch (e) { if (McpConnectionError.isInstance(e)) console.error(e.server, e.message) }
 */
export class McpConnectionError extends DelveError {
  /** The server's key in the map given to `connectMcp`. */
  readonly server: string;

  constructor(code: string, server: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "McpConnectionError";
    this.server = server;
  }

  static override isInstance(value: unknown): value is McpConnectionError {
    return DelveError.isInstance(value) && value.name === "McpConnectionError";
  }
}
