// Relies on: LangGraph's savers' own tables, read with raw SQL. SqliteSaver keeps
// checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type,
// checkpoint, metadata) and writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx,
// channel, type, value), a checkpoint as JSON text with `channel_values` inline and its
// metadata's `counters_since_delta_snapshot`; PostgresSaver keeps checkpoints (a jsonb
// `checkpoint` with `channel_versions`), checkpoint_blobs (thread_id, checkpoint_ns, channel,
// version, type, blob; type 'empty' for no value) and checkpoint_writes (thread_id,
// checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob) in its schema. Not public.
// Checked against: @langchain/langgraph-checkpoint-sqlite 1.0.4,
// @langchain/langgraph-checkpoint-postgres 1.0.5, @langchain/langgraph 1.7.3.
// The one-query ancestor reads behind the fast delta history: the chain of parents of a
// checkpoint (a recursive CTE over the saver's own checkpoints table), which of the asked
// channels each one holds a value for, and its writes to them up to the nearest one that
// holds the channel (older writes are not replayed, so they are not read).
import type { StoredAncestor } from "../checkpoint/chunk-table.js";

/** The parts of a better-sqlite3 database the SQLite query uses. */
export interface SqliteQueryDb {
  prepare(sql: string): { all(...args: unknown[]): any[] };
}

/** The part of a `pg` pool the PostgreSQL query uses. */
export interface PgQueryPool {
  query(sql: string, params?: unknown[]): Promise<{ rows: any[] }>;
}

/**
 * SQLite: the walk stops at the ancestor that holds the last asked channel (older ones are
 * neither read nor parsed). Which channels a checkpoint holds comes from its JSON, parsed
 * only for the channels its metadata does not count as updated since their last snapshot
 * (LangGraph drops a channel's counters at the checkpoint that snapshots it). With
 * `sideTables`, a checkpoint compactCheckpointer cut (a skeleton SQLite cannot parse) is read
 * from `delve_checkpoint_channels`, and task paths come from `delve_task_paths`.
 */
export function sqliteAncestors(
  db: SqliteQueryDb,
  thread: string,
  ns: string,
  id: string,
  channels: readonly string[],
  sideTables: boolean,
): Promise<StoredAncestor[]> {
  // The channels still wanted past a row: its `want` less what it holds.
  const left = (row: string) =>
    `(SELECT json_group_array(j.value) FROM json_each(${row}.want) j
       WHERE j.value NOT IN (SELECT value FROM json_each(${row}.holds)))`;
  // A checkpoint stored whole is read as JSON, for the channels its metadata does not count
  // as updated since their last snapshot; a cut one (compactCheckpointer) by its side row.
  const fromJson = `SELECT json_group_array(j.value) FROM json_each(${left("chain")}) j
         WHERE json_type(CAST(c.metadata AS TEXT), '$.counters_since_delta_snapshot."' || j.value || '"') IS NULL
           AND json_type(CAST(c.checkpoint AS TEXT), '$.channel_values."' || j.value || '"') IS NOT NULL`;
  const holdsOf = sideTables
    ? `CASE WHEN m.channels IS NOT NULL THEN (
         SELECT json_group_array(j.value) FROM json_each(${left("chain")}) j
         WHERE j.value IN (SELECT value FROM json_each(m.channels)))
       WHEN substr(CAST(c.checkpoint AS TEXT), 1, 1) = '{' THEN (${fromJson}) ELSE NULL END`
    : `CASE WHEN substr(CAST(c.checkpoint AS TEXT), 1, 1) <> '{' THEN NULL ELSE (${fromJson}) END`;
  const side = sideTables
    ? `LEFT JOIN delve_task_paths p ON p.thread_id = @thread AND p.checkpoint_ns = @ns
         AND p.checkpoint_id = chain.id AND p.task_id = w.task_id`
    : "";
  const rows = db
    .prepare(
      `WITH RECURSIVE chain(id, parent, depth, want, holds) AS (
         SELECT checkpoint_id, parent_checkpoint_id, 0, @channels, '[]' FROM checkpoints
           WHERE thread_id = @thread AND checkpoint_ns = @ns AND checkpoint_id = @id
         UNION ALL
         SELECT c.checkpoint_id, c.parent_checkpoint_id, chain.depth + 1, ${left("chain")}, ${holdsOf}
         FROM chain
         JOIN checkpoints c ON c.thread_id = @thread AND c.checkpoint_ns = @ns AND c.checkpoint_id = chain.parent
         ${sideTables ? "LEFT JOIN delve_checkpoint_channels m ON m.thread_id = @thread AND m.checkpoint_ns = @ns AND m.checkpoint_id = c.checkpoint_id" : ""}
         WHERE chain.holds IS NOT NULL AND json_array_length(chain.want) > json_array_length(chain.holds))
       SELECT chain.id AS id, chain.holds AS channels,
         w.task_id AS task_id, w.channel AS channel, w.type AS type, w.value AS value, w.idx AS idx,
         ${sideTables ? "p.task_path" : "NULL"} AS task_path
       FROM chain
       LEFT JOIN writes w ON w.thread_id = @thread AND w.checkpoint_ns = @ns AND w.checkpoint_id = chain.id
         AND chain.holds IS NOT NULL AND w.channel IN (SELECT value FROM json_each(chain.want))
       ${side}
       WHERE chain.depth > 0
       ORDER BY chain.depth, w.task_id, w.idx`,
    )
    .all({ thread, ns, id, channels: JSON.stringify(channels) });
  return Promise.resolve(groupAncestors(rows));
}

/**
 * PostgreSQL: a checkpoint holds a channel's value when a non-empty blob exists at the
 * channel's version there (as `getTuple` reads it). With `taskPaths`, task paths come from
 * `delve_task_paths`.
 */
export async function postgresAncestors(
  pool: PgQueryPool,
  schema: string,
  thread: string,
  ns: string,
  id: string,
  channels: readonly string[],
  taskPaths: boolean,
): Promise<StoredAncestor[]> {
  const s = `"${schema.replace(/"/g, '""')}"`;
  const { rows } = await pool.query(
    `WITH RECURSIVE chain(id, parent, depth, versions) AS (
       SELECT checkpoint_id, parent_checkpoint_id, 0, checkpoint -> 'channel_versions' FROM ${s}.checkpoints
         WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3
       UNION ALL
       SELECT c.checkpoint_id, c.parent_checkpoint_id, chain.depth + 1, c.checkpoint -> 'channel_versions'
         FROM chain JOIN ${s}.checkpoints c
         ON c.thread_id = $1 AND c.checkpoint_ns = $2 AND c.checkpoint_id = chain.parent),
     stored AS (SELECT channel, version FROM ${s}.checkpoint_blobs
       WHERE thread_id = $1 AND checkpoint_ns = $2 AND channel = ANY($4::text[]) AND type <> 'empty'),
     held AS (SELECT chain.id, chain.depth, stored.channel AS ch FROM chain
       JOIN stored ON stored.version = chain.versions ->> stored.channel WHERE chain.depth > 0),
     seeds AS (SELECT ch, MIN(depth) AS depth FROM held GROUP BY ch),
     held_by_id AS (SELECT id, jsonb_agg(ch) AS channels FROM held GROUP BY id),
     wanted AS (SELECT chain.id AS cid, w.task_id, w.channel, w.type, w.blob, w.idx FROM chain
       JOIN ${s}.checkpoint_writes w ON w.thread_id = $1 AND w.checkpoint_ns = $2
         AND w.checkpoint_id = chain.id AND w.channel = ANY($4::text[])
       LEFT JOIN seeds ON seeds.ch = w.channel
       WHERE chain.depth > 0 AND (seeds.depth IS NULL OR chain.depth <= seeds.depth))
     SELECT chain.id AS id, COALESCE(held_by_id.channels, '[]'::jsonb) AS channels,
       wanted.task_id AS task_id, wanted.channel AS channel, wanted.type AS type,
       wanted.blob AS value, wanted.idx AS idx, ${taskPaths ? "p.task_path" : "NULL"} AS task_path
     FROM chain
     LEFT JOIN held_by_id ON held_by_id.id = chain.id
     LEFT JOIN wanted ON wanted.cid = chain.id
     ${
       taskPaths
         ? `LEFT JOIN ${s}.delve_task_paths p ON p.thread_id = $1 AND p.checkpoint_ns = $2
              AND p.checkpoint_id = chain.id AND p.task_id = wanted.task_id`
         : ""
     }
     WHERE chain.depth > 0
     ORDER BY chain.depth, wanted.task_id, wanted.idx`,
    [thread, ns, id, channels],
  );
  return groupAncestors(rows);
}

/**
 * PostgreSQL: the stored value of each (channel, checkpoint) asked, as `getTuple` would give
 * it in `channel_values` but without the checkpoint's other channels. A JSON value comes as
 * text (half the bytes of bytea's hex form; node-postgres' binary mode would re-decode the
 * bytes as UTF-8, so it is not used), any other as bytes. Channels without a value are left
 * out.
 */
export async function postgresSeeds(
  pool: PgQueryPool,
  schema: string,
  thread: string,
  ns: string,
  wanted: readonly { channel: string; checkpointId: string }[],
): Promise<{ channel: string; checkpointId: string; type: string; value: Uint8Array | string }[]> {
  if (wanted.length === 0) return [];
  const s = `"${schema.replace(/"/g, '""')}"`;
  const { rows } = await pool.query(
    `SELECT s.ch AS channel, s.id AS checkpoint_id, bl.type AS type,
        CASE WHEN bl.type = 'json' THEN convert_from(bl.blob, 'UTF8') END AS text,
        CASE WHEN bl.type <> 'json' THEN bl.blob END AS blob
      FROM unnest($3::text[], $4::text[]) AS s(ch, id)
      JOIN ${s}.checkpoints cp ON cp.thread_id = $1 AND cp.checkpoint_ns = $2 AND cp.checkpoint_id = s.id
      JOIN ${s}.checkpoint_blobs bl ON bl.thread_id = $1 AND bl.checkpoint_ns = $2
        AND bl.channel = s.ch AND bl.version = cp.checkpoint -> 'channel_versions' ->> s.ch
      WHERE bl.type <> 'empty'`,
    [thread, ns, wanted.map((w) => w.channel), wanted.map((w) => w.checkpointId)],
  );
  return rows.map((row: any) => ({
    channel: String(row.channel),
    checkpointId: String(row.checkpoint_id),
    type: String(row.type),
    value: row.text ?? row.blob,
  }));
}

/** Groups joined (ancestor, write) rows into ancestors, nearest first. */
export function groupAncestors(rows: any[]): StoredAncestor[] {
  const out: StoredAncestor[] = [];
  let current: StoredAncestor | undefined;
  for (const row of rows) {
    if (!current || current.checkpointId !== row.id) {
      const channels =
        row.channels == null
          ? null
          : typeof row.channels === "string"
            ? JSON.parse(row.channels)
            : row.channels;
      current = { checkpointId: row.id, channels, writes: [] };
      out.push(current);
    }
    if (row.task_id == null) continue;
    current.writes.push({
      taskId: row.task_id,
      channel: row.channel,
      type: row.type ?? "json",
      value: row.value,
      idx: Number(row.idx),
      taskPath: row.task_path ?? "",
    });
  }
  return out;
}
