/**
 * One process of the idempotent() suite: opens a shared SqliteStore or PostgresStore, prints
 * "ready", waits for a line on stdin, then calls the idempotent `charge` tool once and prints
 * its result as one JSON line. In "hang" mode the tool prints "effect" after its side effect
 * and never returns, so the test can kill the process between the effect and the record.
 * Usage: node --import tsx idempotent-run.ts sqlite|postgres <file|url> <schema|-> <ledger> <key> race|hang
 */
import { createInterface } from "node:readline";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { SqliteStore } from "delve/sqlite";
import { chargeTool } from "./idempotent-tool.js";

const [kind, where, schema, ledger, key, mode] = process.argv.slice(2) as string[];
const store =
  kind === "sqlite"
    ? SqliteStore.open(where!)
    : PostgresStore.fromConnString(where!, { schema: schema! });
const charge = chargeTool(store, ledger!, {
  hang: mode === "hang",
  leaseMs: Number(process.env.LEASE_MS ?? 30_000),
});
// Connect before the race starts, so every process is as ready as the others.
await store.get(["warm"], "up");
console.log("ready");
await new Promise<void>((resolve) =>
  createInterface({ input: process.stdin }).once("line", () => resolve()),
);
const result = await charge.invoke({ order_id: key! });
console.log(JSON.stringify(result));
process.exit(0);
