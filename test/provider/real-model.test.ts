import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chooseModel, runTicketDesk } from "../../examples/ticket-desk/agent.js";
import { seedTicketDb } from "../../examples/ticket-desk/database.js";

// The seed task on a real model runs only when a provider key is set and its LangChain
// package is installed; otherwise it is skipped and says why.
const model = chooseModel();
const keySet = Boolean(process.env.OPENAI_API_KEY || process.env.ANTHROPIC_API_KEY);
const reason =
  typeof model === "string"
    ? undefined
    : keySet
      ? "a provider key is set but its package is not installed (npm install @langchain/openai or @langchain/anthropic)"
      : "no OPENAI_API_KEY or ANTHROPIC_API_KEY is set";
if (reason) console.log(`[delve] real-model check skipped: ${reason}.`);

describe.skipIf(Boolean(reason))(`the seed ticket task on a real model (${String(model)})`, () => {
  it("looks up T-1001 and T-1003, searches unassigned tickets and writes brief.md", async () => {
    const dir = mkdtempSync(join(tmpdir(), "delve-real-"));
    try {
      const dbPath = join(dir, "tickets.db");
      seedTicketDb(dbPath);
      const { files } = await runTicketDesk({ dbPath, model });
      const brief = String(files["/brief.md"]?.content ?? "");
      expect(brief).toContain("T-1001");
      expect(brief).toContain("T-1003");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
