import { createDeepAgent } from "delve";
import { registerDelveMatchers } from "delve/testing";
import { expect, it } from "vitest";
import { deskTools } from "../../examples/ticket-desk/evals/desk-tools.js";

registerDelveMatchers(expect);
const { tools } = deskTools("/tmp/desk-docs.db");
const agent = createDeepAgent({ model: "anthropic:claude-sonnet-4-6", tools });

it("looks T-1003 up without changing it", async () => {
  const result = await agent.invoke({ messages: [{ role: "user", content: "Status of T-1003?" }] });
  expect(result).toHaveCalledTool("get_ticket", { ticket_id: "T-1003" });
  expect(result).toNotHaveCalledTool("update_ticket");
  expect(result).toBeReadOnly({ tools }); // tools: so metadata.mutates is read
});
