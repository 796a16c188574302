// The ticket desk demo (`npm run demo`): the seed's MCP task end to end against a real MCP
// server over stdio, on a scripted model unless a provider key is set. Needs no network:
// `unshare -n npx tsx examples/ticket-desk/run.ts` works. TICKET_DESK_DB=<path> uses an
// existing database instead of a freshly seeded temporary one.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { showRunDemo } from "../run-demo/show.js";
import { formatTrace } from "../ticket-demo/demo.js";
import { runTicketDesk } from "./agent.js";
import { seedTicketDb } from "./database.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ticket-desk-"));
try {
  const dbPath = process.env.TICKET_DESK_DB ?? path.join(dir, "tickets.db");
  if (!process.env.TICKET_DESK_DB) seedTicketDb(dbPath);
  const { messages, files, surface, model, modelCalls } = await runTicketDesk({ dbPath });

  console.log(`== Trace (model: ${model}${modelCalls ? `, ${modelCalls} model calls` : ""}) ==`);
  console.log(formatTrace(messages));
  console.log("\n== Final files ==");
  for (const [file, { content }] of Object.entries(files)) console.log(`--- ${file}\n${content}`);
  console.log("== Surface: what the model is handed every turn ==");
  console.log(`registered (${surface.registered.length}): ${surface.registered.join(", ")}`);
  console.log(`visible    (${surface.visible.length}): ${surface.visible.join(", ")}`);
  for (const h of surface.hidden) console.log(`hidden: ${h.name} (${h.reason})`);
  for (const t of surface.tools) {
    const source = t.server ? `${t.source}:${t.server}` : t.source;
    console.log(
      `  ${t.name.padEnd(15)} ${source.padEnd(12)} ${String(t.chars).padStart(5)} chars  ~${t.tokens} tokens`,
    );
  }
  console.log(
    `total: ${surface.totalChars} chars, ~${surface.totalTokens} tokens; system prompt ${surface.systemPromptChars} chars`,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
// Then the product itself: `delve run` replaying a cassette, and `delve threads show`.
process.exitCode = await showRunDemo();
