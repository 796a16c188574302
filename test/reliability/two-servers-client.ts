// What the two-server suite does with a server from outside: runs through
// @langchain/langgraph-sdk, the ledger of tool executions, and waits with deadlines.
import { existsSync, readFileSync } from "node:fs";
import { Client } from "@langchain/langgraph-sdk";

/** The saver behind a route of the suite's servers. */
export type SaverKind = "plain" | "compact";

/** The served graph's id. */
export const GRAPH = "desk";

/** An SDK client for one saver kind of one server. */
export const clientOf = (url: string, kind: SaverKind) => new Client({ apiUrl: `${url}/${kind}` });

/** A user message. */
export const say = (content: string) => ({ messages: [{ role: "user", content }] });

/** One `call <tool> <json>` line of the scripted model. */
export const call = (name: string, args: Record<string, unknown>) =>
  `call ${name} ${JSON.stringify(args)}`;

/**
 * Streams a run to its end (the embed server has no runs/wait) and returns its events;
 * an `error` event or a refused request (409 for a thread running elsewhere) throws.
 */
export async function run(
  client: Client,
  threadId: string,
  payload: Record<string, unknown>,
): Promise<{ event: string; data: any }[]> {
  const events: { event: string; data: any }[] = [];
  for await (const part of client.runs.stream(threadId, GRAPH, payload as any)) {
    events.push(part as any);
    if (part.event === "error") throw new Error(`run failed: ${JSON.stringify(part.data)}`);
  }
  return events;
}

/** The ledger's lines (`<tool> <key> <server>`, `hung <key>`). */
export function ledgerLines(ledger: string): string[] {
  return existsSync(ledger) ? readFileSync(ledger, "utf8").split("\n").filter(Boolean) : [];
}

/** How many times `tool` ran for `key`, on any server. */
export const executions = (ledger: string, tool: string, key: string): number =>
  ledgerLines(ledger).filter((l) => l.startsWith(`${tool} ${key} `)).length;

/** Waits until `check` returns a value other than undefined/false (polling), or throws. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value as T;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
}

/** A thread's messages as `[type, text]` pairs, and the tool messages' call ids. */
export function messagesOf(values: any): { pairs: [string, string][]; toolCallIds: string[] } {
  const messages: any[] = values?.messages ?? [];
  const text = (m: any) =>
    typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "");
  return {
    pairs: messages.map((m) => [m.type, text(m).slice(0, 60)]),
    toolCallIds: messages.filter((m) => m.type === "tool").map((m) => m.tool_call_id),
  };
}
