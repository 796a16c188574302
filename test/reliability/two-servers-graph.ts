// The graph both servers of the two-server suite serve: the served desk's thread-scripted
// model (a user message of `call <tool> <json>` lines calls those tools, then reports), and
// tools whose every execution appends a line to a ledger file outside the server process,
// so the test counts executions across servers and kills.
import { appendFileSync } from "node:fs";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent } from "delve";
import { z } from "zod";
import { servedDeskModel } from "../../examples/ticket-desk/served-model.js";

/** Where the graph runs: the server's name ("A" hangs where told to) and the ledger file. */
export interface LedgerSetting {
  server: string;
  ledger: string;
}

const never = () => new Promise<never>(() => {});

/**
 * On server A, a turn whose request holds `"hangAfter":true` hangs at the model call after
 * its tools ran (after writing `hung <note>` to the ledger), so the test can kill A right
 * after a finished step.
 */
class HangAfterTools extends BaseChatModel {
  readonly inner = servedDeskModel();

  constructor(readonly at: LedgerSetting) {
    super({});
  }

  _llmType(): string {
    return "scripted-thread-hang";
  }

  override bindTools(): any {
    return this;
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): Promise<ChatResult> {
    const start = messages.findLastIndex((m) => m.getType() === "human");
    const request = messages[start]?.text ?? "";
    const toolsRan = messages.slice(start).some((m) => m.getType() === "tool");
    if (this.at.server === "A" && toolsRan && request.includes('"hangAfter":true')) {
      appendFileSync(this.at.ledger, `hung ${/"note":"([^"]+)"/.exec(request)?.[1]}\n`);
      await never();
    }
    return this.inner._generate(messages, options);
  }
}

/**
 * A Delve agent with three tools, each execution one ledger line `<tool> <key> <server>`:
 * `record` (a result of `size` extra characters, so the wrapper cuts it into a chunk),
 * `hold` (never returns on server A: the kill lands while it runs) and `ship` (waits for a
 * human approval first, `interruptOn`).
 */
export function ledgerAgent(at: LedgerSetting) {
  const note = (line: string) => appendFileSync(at.ledger, `${line} ${at.server}\n`);
  const record = tool(
    async ({ note: key, size }) => {
      note(`record ${key}`);
      return `recorded ${key}${size ? ` ${"r".repeat(size)}` : ""}`;
    },
    {
      name: "record",
      description: "Record a note.",
      schema: z.object({
        note: z.string(),
        size: z.number().optional(),
        hangAfter: z.boolean().optional(),
      }),
    },
  );
  const hold = tool(
    async ({ note: key }) => {
      note(`hold ${key}`);
      if (at.server === "A") await never();
      return `held ${key}`;
    },
    { name: "hold", description: "Hold a note.", schema: z.object({ note: z.string() }) },
  );
  const ship = tool(
    async ({ order }) => {
      note(`ship ${order}`);
      return `shipped ${order}`;
    },
    { name: "ship", description: "Ship an order.", schema: z.object({ order: z.string() }) },
  );
  return createDeepAgent({
    model: new HangAfterTools(at),
    tools: [record, hold, ship],
    interruptOn: { ship: true },
    checkpointer: new MemorySaver(), // the server puts its own in its place
  });
}
