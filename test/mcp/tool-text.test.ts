import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { toolText } from "delve";
import { describe, expect, it } from "vitest";

describe("toolText", () => {
  it("returns a string content as it is", () => {
    const message = new ToolMessage({ content: '{"ok":true}', tool_call_id: "1" });
    expect(toolText(message)).toBe('{"ok":true}');
  });

  it("joins the text of text blocks and embedded text resources, skipping binary blocks", () => {
    const message = new ToolMessage({
      tool_call_id: "1",
      content: [
        { type: "text", text: "Sales by month" },
        { type: "image", source_type: "base64", data: "iVBORw0KGgo=", mime_type: "image/png" },
        { type: "file", source_type: "text", text: "note body", mime_type: "text/plain" },
        { type: "file", source_type: "base64", data: "AAAA", mime_type: "application/pdf" },
        { type: "resource", resource: { uri: "mem://a", text: "raw resource" } },
      ] as any,
    });
    expect(toolText(message)).toBe("Sales by month\nnote body\nraw resource");
  });

  it("works on any message and on missing input", () => {
    expect(toolText(new AIMessage("done"))).toBe("done");
    expect(toolText(undefined)).toBe("");
    expect(toolText({ content: 42 })).toBe("");
  });
});
