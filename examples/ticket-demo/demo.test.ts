import { expect, it } from "vitest";
import { formatTrace, runTicketDemo } from "./demo.js";
import { TICKETS } from "./tickets.js";

it("the offline demo looks up two tickets, writes brief.md from the results and reads it back", async () => {
  const { messages, files, surface } = await runTicketDemo();
  const brief = files["/brief.md"].content;
  expect(brief).toContain(`T-1001 (processing, logistics): ${TICKETS["T-1001"]!.summary}`);
  expect(brief).toContain("T-1003 (unassigned, inquiry)");
  const trace = formatTrace(messages);
  expect(trace).toMatch(/get_ticket\(\{"ticket_id":"T-1001"\}\) \| get_ticket/);
  expect(trace).toContain("tool   < read_file: 1  # Ticket brief");
  expect(surface.visible).toHaveLength(9);
});
