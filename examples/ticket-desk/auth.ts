// Custom auth for the served ticket desk (`"auth": { "path": ... }` in langgraph.json): a
// bearer token names the user. The LangGraph server then runs the graph with that user in
// `configurable.langgraph_auth_user`, which is what StoreBackend's `namespace(ctx)` receives
// as `ctx.user`. The tokens come from TICKET_DESK_TOKENS, a JSON object of token to user id,
// e.g. '{"s3cret-a":"alice","s3cret-b":"bob"}'; a demo scheme: put a real identity provider
// here in production.
import { Auth, HTTPException } from "@langchain/langgraph-sdk/auth";

function tokenTable(): Map<string, string> {
  const raw = process.env.TICKET_DESK_TOKENS;
  if (!raw) return new Map();
  const parsed = JSON.parse(raw) as Record<string, unknown>;
  return new Map(
    Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
}

const TOKENS = tokenTable();
// The store namespace of a user's files; the same prefix as the graph's StoreBackend.
const userPrefix = (user: string) => ["ticket-desk", "users", user];

/**
 * Who is calling: `Authorization: Bearer <token>` looked up in TICKET_DESK_TOKENS. Threads
 * (and their runs) belong to the user who created them, and other users get 404; the store
 * API only opens a user's own namespace, so nobody reads another user's `/user/` files
 * through it either.
 *
 * @example
 * new Client({ apiUrl, defaultHeaders: { Authorization: "Bearer s3cret-a" } });
 */
export const auth = new Auth()
  .authenticate(async (request: Request) => {
    const header = request.headers.get("authorization") ?? "";
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const user = token === undefined ? undefined : TOKENS.get(token);
    if (user === undefined) {
      const hint = TOKENS.size === 0 ? " (the server has no TICKET_DESK_TOKENS)" : "";
      throw new HTTPException(401, { message: `a valid bearer token is required${hint}` });
    }
    return { identity: user, permissions: [] };
  })
  .on("store", ({ user, value }) => {
    const namespace = (value as { namespace?: string[] | null }).namespace ?? [];
    const own = userPrefix(user.identity);
    if (!own.every((label, i) => namespace[i] === label)) {
      throw new HTTPException(403, { message: "only your own namespace is open" });
    }
  })
  .on("threads", ({ user, value }) => {
    // Stamp the owner on a new thread (and run), and only show the caller's own threads.
    // Assistants stay shared: the served graph's assistant is the server's, not a user's.
    const record = value as { metadata?: Record<string, unknown> | null };
    if (record && typeof record === "object" && "metadata" in record) {
      record.metadata = { ...(record.metadata ?? {}), owner: user.identity };
    }
    return { owner: user.identity };
  });
