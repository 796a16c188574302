import { tool } from "@langchain/core/tools";
import { createDeepAgent, inspectSurface } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";

describe("inspectSurface shows each tool's definition as sent", () => {
  const closeTicket = tool(async () => "closed", {
    name: "close_ticket",
    description: "Close one ticket.",
    schema: z.object({
      ticket_id: z.string().describe("Ticket id, e.g. T-1001."),
      note: z.string().optional(),
    }),
  });

  it("every visible tool has its name, description and JSON schema, and chars counts exactly them", async () => {
    const agent = createDeepAgent({ model: new ScriptedChatModel([]), tools: [closeTicket] });
    const report = await inspectSurface(agent);
    expect(report.tools.map((t) => t.definition.name)).toEqual(report.visible);
    for (const t of report.tools) {
      const d = t.definition as { name: string; description: string; parameters: object };
      expect(t.chars).toBe(
        d.name.length + d.description.length + JSON.stringify(d.parameters).length,
      );
    }
    const mine = report.tools.find((t) => t.name === "close_ticket")!.definition as any;
    expect(mine.description).toBe("Close one ticket.");
    expect(mine.parameters.properties.ticket_id.description).toBe("Ticket id, e.g. T-1001.");
    expect(mine.parameters.required).toEqual(["ticket_id"]);
    const read = report.tools.find((t) => t.name === "read_file")!.definition as any;
    expect(Object.keys(read.parameters.properties)).toContain("file_path");
  });

  it("a provider tool dictionary is shown as it is passed through", async () => {
    const webSearch = { type: "web_search_preview" };
    const agent = createDeepAgent({ model: new ScriptedChatModel([]), tools: [webSearch] });
    const report = await inspectSurface(agent);
    const provider = report.tools.find((t) => t.source === "provider");
    expect(provider?.definition).toEqual(webSearch);
    expect(provider?.chars).toBe(JSON.stringify(webSearch).length);
  });
});
