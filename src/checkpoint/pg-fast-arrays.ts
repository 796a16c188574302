// PostgresSaver reads a checkpoint's values and writes as `bytea[]` arrays (one query per
// `getTuple`), and node-postgres parses that array text one character at a time in
// JavaScript: a checkpoint holding a 5 MB channel took over a second to decode. The saver's
// pool is given a stand-in whose queries decode `bytea[]` text directly (the same Buffers),
// and hand anything unusual to the client's own parser.

/** The `pg` pool surface the stand-in wraps (any pool with `connect` and `query`). */
interface PgPool {
  connect(): Promise<PgClient>;
  query(...args: any[]): Promise<any>;
}

interface PgClient {
  query(config: any): Promise<any>;
  release(error?: unknown): void;
  getTypeParser?(oid: number, format?: string): (text: string) => unknown;
}

const BYTEA_ARRAY_OID = 1001;
const FAST = Symbol.for("delve.fast_pg_arrays");
const QUOTE = 34; // "
const BACKSLASH = 92;
const COMMA = 44;
const OPEN = 123; // {
const CLOSE = 125; // }

/**
 * Decodes PostgreSQL's text form of a `bytea[]` (any number of dimensions) in hex output,
 * giving what node-postgres gives: nested arrays of Buffers, `null` for NULL. Undefined when
 * the text is in another form (escape output, bounds decoration), for the client's parser.
 */
export function parseByteaArray(text: string): unknown[] | undefined {
  if (text.charCodeAt(0) !== OPEN) return undefined;
  let at = 0;
  const parseArray = (): unknown[] | undefined => {
    at += 1; // past "{"
    const out: unknown[] = [];
    if (text.charCodeAt(at) === CLOSE) {
      at += 1;
      return out;
    }
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === OPEN) {
        const inner = parseArray();
        if (!inner) return undefined;
        out.push(inner);
      } else if (c === QUOTE) {
        // A hex element is quoted with its backslash doubled: "\\x0a1b".
        if (
          text.charCodeAt(at + 1) !== BACKSLASH ||
          text.charCodeAt(at + 2) !== BACKSLASH ||
          text.charCodeAt(at + 3) !== 120 // x
        ) {
          return undefined;
        }
        const end = text.indexOf('"', at + 4);
        if (end < 0) return undefined;
        const hex = text.slice(at + 4, end);
        const bytes = Buffer.from(hex, "hex");
        if (bytes.length * 2 !== hex.length) return undefined; // not all hex digits
        out.push(bytes);
        at = end + 1;
      } else if (text.startsWith("NULL", at)) {
        out.push(null);
        at += 4;
      } else {
        return undefined;
      }
      const next = text.charCodeAt(at);
      at += 1;
      if (next === CLOSE) return out;
      if (next !== COMMA) return undefined;
    }
  };
  const result = parseArray();
  return result && at === text.length ? result : undefined;
}

function typesFor(client: PgClient) {
  return {
    getTypeParser(oid: number, format = "text") {
      const own = client.getTypeParser!(oid, format);
      if (oid !== BYTEA_ARRAY_OID || format !== "text") return own;
      return (text: string) => parseByteaArray(text) ?? own(text);
    },
  };
}

/**
 * A stand-in for a saver's `pg` pool whose `query` decodes `bytea[]` columns fast; everything
 * else (`connect`, `end`, events, counts) is the pool's own. Returned as it is when the pool
 * is not a node-postgres pool.
 */
export function withFastByteaArrays<T>(pool: T): T {
  const p = pool as unknown as PgPool & { [FAST]?: boolean };
  if (!p || typeof p.connect !== "function" || typeof p.query !== "function" || p[FAST]) {
    return pool;
  }
  const query = async (text: unknown, values?: unknown, callback?: unknown) => {
    if (
      typeof text !== "string" ||
      typeof callback === "function" ||
      typeof values === "function"
    ) {
      return (p.query as any)(text, values, callback);
    }
    const client = await p.connect();
    if (typeof client.getTypeParser !== "function") {
      client.release();
      return p.query(text, values);
    }
    try {
      const result = await client.query({ text, values, types: typesFor(client) });
      client.release();
      return result;
    } catch (error) {
      client.release(error);
      throw error;
    }
  };
  return new Proxy(p, {
    get(target, key, receiver) {
      if (key === "query") return query;
      if (key === FAST) return true;
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as unknown as T;
}
