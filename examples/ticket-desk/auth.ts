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

const denied = (what: string) => new HTTPException(403, { message: `${what} is not allowed` });

/**
 * Who is calling: `Authorization: Bearer <token>` looked up in TICKET_DESK_TOKENS. Every
 * resource the server exposes is decided here, and what is not named is refused (`"*"`):
 * - assistants: the served graph's assistant is the server's, shared by every user, who may
 *   read and search it but not create, update or delete assistants (an update would change
 *   every user's runs, e.g. `recursion_limit`);
 * - threads, and the runs on them: owned by the user who created them; other users get 404,
 *   and the owner stamp cannot be changed;
 * - crons: owned like threads (the dev server has none);
 * - store: only the user's own namespace, so nobody reads another user's `/user/` files.
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
  .on("*", ({ event }) => {
    throw denied(event);
  })
  .on(["assistants:read", "assistants:search"], () => true)
  .on(["assistants:create", "assistants:update", "assistants:delete"], ({ event }) => {
    throw denied(`${event} (the assistant is shared by every user)`);
  })
  .on(["threads", "crons"], ({ user, value }) => {
    // Stamp the owner on a new or updated record (thread, run, cron), and only show the
    // caller's own.
    const record = value as { metadata?: Record<string, unknown> | null };
    if (record && typeof record === "object" && "metadata" in record) {
      record.metadata = { ...(record.metadata ?? {}), owner: user.identity };
    }
    return { owner: user.identity };
  })
  .on("store", ({ user, value }) => {
    const namespace = (value as { namespace?: string[] | null }).namespace ?? [];
    const own = userPrefix(user.identity);
    if (!own.every((label, i) => namespace[i] === label)) {
      throw new HTTPException(403, { message: "only your own namespace is open" });
    }
  });
