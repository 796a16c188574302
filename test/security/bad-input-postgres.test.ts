/**
 * Namespace labels PostgreSQL's store refuses (`_`, `%`, `\`: SQL LIKE wildcards and their
 * escape) must work on a StoreBackend over PostgresStore, and must never let one namespace
 * see another's files (a `_` in a LIKE pattern matches any character).
 */
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { createDeepAgent, StoreBackend } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPostgres, uniqueSchema } from "../helpers/postgres.js";

const pg = await testPostgres();
afterAll(() => pg?.stop());

describe.skipIf(!pg)("StoreBackend on PostgreSQL with labels holding _ % \\ and ~", () => {
  let store: PostgresStore;
  const tenant = `t${Date.now().toString(36)}`;
  beforeAll(async () => {
    store = PostgresStore.fromConnString(pg!.url, { schema: uniqueSchema("badns") });
    await store.setup();
  });
  afterAll(async () => {
    await store.stop();
  });
  const as = (...labels: string[]) =>
    new StoreBackend({ namespace: () => [tenant, ...labels], store });

  for (const label of ["user_1", "50%", "back\\slash", "a_b_c", "~5F"]) {
    it(`label ${JSON.stringify(label)}: write, read, ls, glob, grep, edit and delete work`, async () => {
      const backend = as("ns", label);
      expect((await backend.write("/notes/a.md", `owner ${label}\n`)).error).toBeUndefined();
      expect((await backend.read("/notes/a.md")).lines).toEqual([`owner ${label}`]);
      expect((await backend.ls("/notes")).files!.map((f) => f.path)).toEqual(["/notes/a.md"]);
      expect((await backend.glob("**/*.md")).files!.map((f) => f.path)).toEqual(["/notes/a.md"]);
      expect((await backend.grep("owner")).matches).toHaveLength(1);
      expect((await backend.edit("/notes/a.md", "owner", "by")).occurrences).toBe(1);
      expect((await backend.delete("/notes")).deleted).toEqual(["/notes/a.md"]);
    });
  }

  it("labels a LIKE pattern would confuse stay apart: user_1, userX1, user~5F1", async () => {
    const names = ["user_1", "userX1", "user~5F1", "user%"];
    for (const name of names) await as("apart", name).write("/mine.md", name);
    for (const name of names) {
      const backend = as("apart", name);
      expect((await backend.glob("**")).files!.map((f) => f.path)).toEqual(["/mine.md"]);
      expect((await backend.read("/mine.md")).lines).toEqual([name]);
    }
  });

  it("inside a run (the store LangGraph hands to tools): a user id with _ works", async () => {
    const backend = new StoreBackend({ namespace: () => [tenant, "run", "user_42"] });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: "write_file", args: { file_path: "/profile.md", content: "hi" } }] },
      { toolCalls: [{ name: "read_file", args: { file_path: "/profile.md" } }] },
      "done",
    ]);
    const out = await createDeepAgent({ model, backend, store }).invoke({
      messages: [{ role: "user", content: "go" }],
    });
    const texts = out.messages.map((m: any) => m.text);
    expect(texts.some((t: string) => /Error/.test(t))).toBe(false);
    expect(texts.join("\n")).toContain("hi");
    expect((await as("run", "user_42").read("/profile.md")).lines).toEqual(["hi"]);
  });
});
