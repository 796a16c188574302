import { DelveError, hasErrorMarker } from "../errors/delve-error.js";

const MARKER = Symbol.for("delve.error.McpConnectionError");

/**
 * Every `code` a `McpConnectionError` can carry: the server did not start or answer
 * (`MCP_CONNECT_FAILED`), refused the credentials (`MCP_UNAUTHORIZED`), or the connection was
 * closed by `close()` (`MCP_CLOSED`).
 */
export const MCP_CONNECTION_ERROR_CODES = [
  "MCP_CLOSED",
  "MCP_CONNECT_FAILED",
  "MCP_UNAUTHORIZED",
] as const;

/** The code of a `McpConnectionError` (one of `MCP_CONNECTION_ERROR_CODES`). */
export type McpConnectionErrorCode = (typeof MCP_CONNECTION_ERROR_CODES)[number];

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
export class McpConnectionError extends DelveError<McpConnectionErrorCode> {
  /** The codes this class can carry. */
  static readonly codes: readonly McpConnectionErrorCode[] = MCP_CONNECTION_ERROR_CODES;
  readonly [MARKER] = true;
  /** The server's key in the map given to `connectMcp`. */
  readonly server: string;

  constructor(
    code: McpConnectionErrorCode,
    server: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.name = "McpConnectionError";
    this.server = server;
  }

  /** True for a `McpConnectionError` (or subclass), from this copy of the package or another. */
  static override isInstance(value: unknown): value is McpConnectionError {
    return hasErrorMarker(value, MARKER);
  }
}
