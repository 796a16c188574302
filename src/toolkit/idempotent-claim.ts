import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { BaseStore } from "@langchain/langgraph";
import { claimTableOf } from "../claims/claim-table.js";

/** What a caller may do with one idempotency key, decided by its claim row. */
export type KeyClaim =
  /**
   * This caller runs the tool, then calls `finish`: `recorded` (the record is written),
   * `failed` (nothing to record: the key is free again) or `unrecorded` (the tool succeeded
   * but its record could not be written: others will hear the outcome is unknown).
   */
  | { kind: "run"; finish(outcome: "recorded" | "failed" | "unrecorded"): Promise<void> }
  /** The tool ran and its record is in the store: replay it. */
  | { kind: "recorded" }
  /** Another call with this key and other arguments is running. */
  | { kind: "reused" }
  /** A call started at `startedAt` and stopped without recording an outcome. */
  | { kind: "unknown"; startedAt: Date; reason: "its process died" | "it stopped reporting" }
  /** Another call is still running after the wait. */
  | { kind: "busy" };

interface Running {
  state: "running";
  id: string;
  host: string;
  pid: number;
  args: string;
  startedAt: number;
  beat: number;
}

const DONE = JSON.stringify({ state: "done" });

/**
 * Claims an idempotency key before the tool runs, in the store's own database when it has
 * one (SqliteStore, PostgresStore; other stores: in this process). The first caller gets
 * `run` and keeps its claim alive with a heartbeat every `leaseMs / 3`; others wait for its
 * record. A claim whose owner died (same host, pid gone) or went `leaseMs` without a
 * heartbeat is reported as `unknown`: the tool may have acted, so it is never run again.
 */
export async function claimIdempotencyKey(
  store: BaseStore,
  claimKey: string,
  args: string,
  leaseMs: number,
  hasRecord: () => Promise<boolean>,
): Promise<KeyClaim> {
  const claims = claimTableOf(store);
  const deadline = Date.now() + leaseMs * 4;
  for (;;) {
    const now = Date.now();
    const mine: Running = {
      state: "running",
      id: randomUUID(),
      host: hostname(),
      pid: process.pid,
      args,
      startedAt: now,
      beat: now,
    };
    const found = await claims.insert(claimKey, JSON.stringify(mine));
    if (found === undefined) return owned(store, claimKey, mine, leaseMs);
    if (found === DONE) {
      if (await hasRecord()) return { kind: "recorded" };
      // The record was deleted to forget the key: so is its claim.
      await claims.remove(claimKey, DONE);
      continue;
    }
    const other = parseRunning(found);
    if (!other) return { kind: "unknown", startedAt: new Date(0), reason: "it stopped reporting" };
    if (other.args !== args) return { kind: "reused" };
    const startedAt = new Date(other.startedAt);
    if (isDead(other)) return { kind: "unknown", startedAt, reason: "its process died" };
    if (now - other.beat > leaseMs)
      return { kind: "unknown", startedAt, reason: "it stopped reporting" };
    if (now > deadline) return { kind: "busy" };
    await new Promise((r) => setTimeout(r, Math.max(10, Math.min(100, leaseMs / 10))));
  }
}

function owned(store: BaseStore, claimKey: string, mine: Running, leaseMs: number): KeyClaim {
  const claims = claimTableOf(store);
  let current = JSON.stringify(mine);
  // Heartbeats and the final update run one after another, never interleaved.
  let chain: Promise<unknown> = Promise.resolve();
  const timer = setInterval(
    () => {
      chain = chain.then(async () => {
        const next = JSON.stringify({ ...mine, beat: Date.now() });
        if (await claims.swap(claimKey, current, next).catch(() => false)) current = next;
      });
    },
    Math.max(5, leaseMs / 3),
  );
  timer.unref();
  return {
    kind: "run",
    finish: async (outcome) => {
      clearInterval(timer);
      await chain;
      if (outcome === "recorded") await claims.swap(claimKey, current, DONE);
      else if (outcome === "failed") await claims.remove(claimKey, current);
      else await claims.swap(claimKey, current, JSON.stringify({ ...mine, beat: 0 }));
    },
  };
}

function parseRunning(text: string): Running | undefined {
  try {
    const value = JSON.parse(text);
    return value?.state === "running" ? (value as Running) : undefined;
  } catch {
    return undefined;
  }
}

// Only a process on this host can be looked up; elsewhere the heartbeat decides.
function isDead(owner: Running): boolean {
  if (owner.host !== hostname() || owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
