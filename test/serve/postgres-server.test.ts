// examples/langgraph-postgres/: the ticket desk on LangGraph's embed server with PostgreSQL
// checkpoints and store. What it is for: a thread (its files, its history, a pending
// approval) outlives the server process.
import { resolve } from "node:path";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPostgres, uniqueSchema } from "../helpers/postgres.js";
import {
  freePort,
  REPO_ROOT,
  type ServerProcess,
  STOP_DEADLINE_MS,
  serveInstalled,
  serverEnv,
  startServer,
} from "./server-process.js";

const installed = serveInstalled();
const pg = installed ? await testPostgres() : undefined;
const GRAPH = "ticket_desk";
const ENTRY = resolve(REPO_ROOT, "examples/langgraph-postgres/server.ts");

const say = (content: string) => ({ messages: [{ role: "user", content }] });
const call = (tool: string, args: Record<string, unknown>) =>
  `call ${tool} ${JSON.stringify(args)}`;

describe.skipIf(!installed || !pg)("the ticket desk on the embed server with PostgreSQL", () => {
  const schema = uniqueSchema("serve");
  let server: ServerProcess | undefined;
  let port = 0;
  const client = () => new Client({ apiUrl: server!.url });

  async function start() {
    server = await startServer({
      command: process.execPath,
      args: ["--import", "tsx", ENTRY],
      cwd: REPO_ROOT,
      env: serverEnv({ DELVE_PG_URL: pg!.url, PG_SCHEMA: schema, PORT: String(port) }),
      port,
    });
  }

  // The embed server has no runs/wait: stream a run to its end.
  async function run(threadId: string, payload: Record<string, unknown>) {
    for await (const _ of client().runs.stream(threadId, GRAPH, payload as any)) {
      // drain
    }
  }

  beforeAll(async () => {
    port = await freePort();
    await start();
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    const saver = PostgresSaver.fromConnString(pg!.url, { schema });
    try {
      await (saver as any).pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await saver.end();
      pg?.stop();
    }
  }, STOP_DEADLINE_MS + 30_000);

  it(
    "keeps a thread's files, history and pending approval across a restart",
    async () => {
      const thread = await client().threads.create({ metadata: { team: "support" } });
      const id = thread.thread_id;
      await run(id, {
        input: say(call("write_file", { file_path: "/notes.md", content: "alpha\n" })),
      });
      const edit = call("edit_file", {
        file_path: "/notes.md",
        old_string: "alpha",
        new_string: "beta",
      });
      await run(id, { input: say(edit) });
      const before = await client().threads.getState(id);
      expect((before.values as any).files["/notes.md"].content).toBe("alpha\n");
      expect(before.next.length).toBeGreaterThan(0); // waiting for the decision
      const historyBefore = await client().threads.getHistory(id, { limit: 100 });

      await server!.stop();
      await start();

      expect((await client().threads.get(id)).metadata).toMatchObject({ team: "support" });
      const found = await client().threads.search({ metadata: { team: "support" } });
      expect(found.map((t) => t.thread_id)).toContain(id);
      const history = await client().threads.getHistory(id, { limit: 100 });
      expect(history.map((h) => h.checkpoint.checkpoint_id)).toEqual(
        historyBefore.map((h) => h.checkpoint.checkpoint_id),
      );
      // The approval asked before the restart is answered after it, and the edit runs once.
      await run(id, { command: { resume: { decisions: [{ type: "approve" }] } } });
      const after = await client().threads.getState(id);
      expect((after.values as any).files["/notes.md"].content).toBe("beta\n");
      expect(after.next).toEqual([]);
      const edits = (after.values as any).messages.filter(
        (m: any) => m.type === "tool" && m.name === "edit_file",
      );
      expect(edits).toHaveLength(1);
    },
    STOP_DEADLINE_MS + 150_000,
  );
});
