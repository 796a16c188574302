// LangGraph's own saver validation suite, run over each saver wrapped by compactCheckpointer.
// The suite uses vitest's globals, so they are set before it loads. It is named after the
// wrapped saver's package so it skips what it skips for that saver: for MemorySaver and
// SqliteSaver, "should only store channel_values that have changed (based on newVersions)";
// nothing for PostgresSaver. The suite also runs over each plain saver with the fast reads
// createDeepAgent installs (withFastReads).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { compactCheckpointer, withFastReads } from "delve/checkpoint";
import * as vitest from "vitest";
import { testPostgres, uniqueSchema } from "../helpers/postgres.js";

const { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } = vitest;
Object.assign(globalThis, { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it });
const { validate, deltaChannelHistoryTests } = await import(
  "@langchain/langgraph-checkpoint-validation"
);

// Small enough that the suite's own values (short strings) are cut into chunks too.
const minChunkChars = 64;
const dir = mkdtempSync(join(tmpdir(), "delve-validate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

validate({
  checkpointerName: "MemorySaver",
  createCheckpointer: () => compactCheckpointer(new MemorySaver(), { minChunkChars }),
});

let n = 0;
validate({
  checkpointerName: "@langchain/langgraph-checkpoint-sqlite",
  createCheckpointer: () =>
    compactCheckpointer(SqliteSaver.fromConnString(join(dir, `v${++n}.db`)), { minChunkChars }),
});

// What createDeepAgent gives a plain saver (fast loads, fast bytea[] decoding, one-query
// delta history): the whole suite over each, named after the saver's package as above.
validate({
  checkpointerName: "MemorySaver",
  createCheckpointer: () => withFastReads(new MemorySaver()),
});
validate({
  checkpointerName: "@langchain/langgraph-checkpoint-sqlite",
  createCheckpointer: () => withFastReads(SqliteSaver.fromConnString(join(dir, `w${++n}.db`))),
});

// The one-query delta history createDeepAgent gives a plain SqliteSaver or PostgresSaver.
deltaChannelHistoryTests({
  checkpointerName: "SqliteSaver + withFastReads",
  createCheckpointer: () => withFastReads(SqliteSaver.fromConnString(join(dir, `f${++n}.db`))),
});

const pg = await testPostgres();
afterAll(() => pg?.stop());
if (pg) {
  validate({
    checkpointerName: "@langchain/langgraph-checkpoint-postgres",
    createCheckpointer: async () => {
      const saver = PostgresSaver.fromConnString(pg.url, { schema: uniqueSchema("val") });
      await saver.setup();
      return compactCheckpointer(saver, { minChunkChars });
    },
    destroyCheckpointer: async (checkpointer: any) => dropAndEnd(checkpointer.saver),
  });
  validate({
    checkpointerName: "@langchain/langgraph-checkpoint-postgres",
    createCheckpointer: async () => {
      const saver = PostgresSaver.fromConnString(pg.url, { schema: uniqueSchema("fastval") });
      await saver.setup();
      return withFastReads(saver);
    },
    destroyCheckpointer: dropAndEnd,
  });
  deltaChannelHistoryTests({
    checkpointerName: "PostgresSaver + withFastReads",
    createCheckpointer: async () => {
      const saver = PostgresSaver.fromConnString(pg.url, { schema: uniqueSchema("fast") });
      await saver.setup();
      return withFastReads(saver);
    },
    destroyCheckpointer: dropAndEnd,
  });
}

async function dropAndEnd(saver: any): Promise<void> {
  await saver.pool.query(`DROP SCHEMA "${saver.options.schema}" CASCADE`);
  await saver.end();
}
