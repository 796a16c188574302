import { createRequire } from "node:module";
import type { MiddlewareHandler } from "../../serve/embed.js";

/** The part of a `pg` client the lock uses. */
interface LockClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  release(error?: Error | boolean): void;
}

/** The part of a `pg` pool the lock uses (`pg.Pool`). */
export interface LockPool {
  connect(): Promise<LockClient>;
  end(): Promise<void>;
}

// `pg` is installed with @langchain/langgraph-checkpoint-postgres; it ships no types here.
const pg = createRequire(import.meta.url)("pg") as {
  Pool: new (options: {
    connectionString: string;
    max: number;
    idleTimeoutMillis: number;
  }) => LockPool;
};

/**
 * A `pg` pool of at most `max` connections, idle ones closed after 5 s (a group of servers
 * shares the database's connection limit).
 */
export function pgPool(url: string, max: number): LockPool {
  return new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 5000 });
}

/** A run lock for many servers on one database: `middleware` for Hono, `close()` at exit. */
export interface RunLock {
  /** Refuses (409) a run of a thread that runs on this or any other server right now. */
  middleware: MiddlewareHandler;
  /**
   * Runs `work` while holding the advisory lock `key`, waiting for it: for the schema set-up
   * every server does at start (PostgresSaver's `setup()` is not safe to run concurrently).
   */
  exclusive<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** Ends the lock's connections (each held lock with it). */
  close(): Promise<void>;
}

/** Answered to a run of a thread that is running elsewhere. */
export const THREAD_BUSY = "thread busy: a run of it is in progress on this or another server";

/**
 * One run per thread across every server on the database, as LangGraph's platform does with
 * `multitask_strategy: "reject"`: the embed server queues a thread's runs in memory, per
 * process, so two servers would run one thread twice at once (an approval answered on both
 * would run its tool twice). A run holds a PostgreSQL session-level advisory lock on its
 * thread from the request until its stream ends; a second run meanwhile is answered 409. A
 * server that dies (SIGKILL included) loses its sessions, and with them its locks, so
 * another server can continue the thread at once. Each running thread holds one connection
 * of the lock's own pool (at most `maxRuns`, default 50: more runs at once wait for one).
 *
 * @example
 * const lock = runLock(process.env.DELVE_PG_URL!);
 * root.use("/threads/:thread_id/runs/*", lock.middleware);
 */
export function runLock(url: string, maxRuns = 50): RunLock {
  const pool = pgPool(url, maxRuns);
  const middleware: MiddlewareHandler = async (c, next) => {
    const thread = c.req.param("thread_id");
    // Only the routes that run the graph: creating a run record or cancelling one does not.
    const runs = c.req.method === "POST" && c.req.path.endsWith("/runs/stream");
    const joins = c.req.method === "GET" && /\/runs\/[^/]+\/stream$/.test(c.req.path);
    if (!thread || !(runs || joins)) return next();
    const release = await tryLock(pool, thread);
    if (!release) return c.json({ error: THREAD_BUSY }, 409);
    try {
      await next();
    } catch (error) {
      await release();
      throw error;
    }
    const body = c.res.body;
    if (!body) {
      await release();
      return;
    }
    c.res = new Response(releasedAtEnd(body, release), {
      status: c.res.status,
      headers: c.res.headers,
    });
  };
  const exclusive = async <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [key]);
      try {
        return await work();
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [key]);
      }
    } finally {
      client.release();
    }
  };
  return { middleware, exclusive, close: () => pool.end() };
}

// The lock is keyed by a 64-bit hash of the thread id; a collision only makes two threads
// wait for each other.
async function tryLock(pool: LockPool, thread: string): Promise<(() => Promise<void>) | null> {
  const client = await pool.connect();
  try {
    const { rows } = await client.query(
      "SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked",
      [thread],
    );
    if (rows[0]?.locked !== true) {
      client.release();
      return null;
    }
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  let released: Promise<void> | undefined;
  return () => {
    released ??= client.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [thread]).then(
      () => client.release(),
      (error: Error) => client.release(error), // a broken session drops its locks itself
    );
    return released;
  };
}

// The run's events stream through; the lock goes when the stream ends or the client leaves.
function releasedAtEnd(
  body: ReadableStream<Uint8Array>,
  release: () => Promise<void>,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        await release();
        return controller.error(error);
      }
      if (!chunk.done) return controller.enqueue(chunk.value);
      // The lock goes before the end reaches the client, so a run it starts next never
      // meets its own finished run's lock.
      await release();
      controller.close();
    },
    async cancel(reason) {
      try {
        await reader.cancel(reason);
      } finally {
        await release();
      }
    },
  });
}
