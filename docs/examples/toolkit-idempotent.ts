import { tool } from "@langchain/core/tools";
import { idempotent, ok } from "delve";
import { SqliteStore } from "delve/sqlite";
import { z } from "zod";

const createTicketTool = tool(
  async ({ draft_id, title }) => ok({ ticket_id: `T-${draft_id}`, title }),
  {
    name: "create_ticket",
    description: "Open a support ticket from a draft. Creates a record; repeats return the first.",
    schema: z.object({ draft_id: z.string(), title: z.string().max(200) }),
  },
);

export const createTicket = idempotent(createTicketTool, {
  key: (args) => args.draft_id, // what makes the request unique
  store: SqliteStore.open(".delve/store.db"), // default: the agent's store, else in memory
});
