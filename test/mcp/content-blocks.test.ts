import { describe, expect, it } from "vitest";
import { normalizeMcpContent } from "../../src/mcp/content-blocks.js";
import { tinyPng } from "../wire/providers.js";

const PNG = Buffer.from(tinyPng()).toString("base64");

describe("MCP content in one block shape", () => {
  it("converts each adapter shape once, typing images by their bytes", () => {
    expect(
      normalizeMcpContent([
        { type: "text", source_type: "text", text: "caption" },
        { type: "image", source_type: "base64", mime_type: "image/jpeg", data: PNG },
        { type: "image_url", image_url: { url: `data:image/gif;base64,${PNG}` } },
        { type: "file", source_type: "text", mime_type: "text/plain", text: "note" },
        { type: "file", source_type: "base64", mime_type: "application/pdf", data: "JVBERg==" },
        { type: "file", source_type: "url", url: "mem://report.pdf" },
      ]),
    ).toEqual([
      { type: "text", text: "caption" },
      { type: "image", mimeType: "image/png", data: PNG },
      { type: "image", mimeType: "image/png", data: PNG },
      { type: "text", text: "note" },
      { type: "file", mimeType: "application/pdf", data: "JVBERg==" },
      { type: "text", text: "[resource mem://report.pdf]" },
    ]);
  });

  it("leaves a plain string result as it is", () => {
    expect(normalizeMcpContent("just text")).toBe("just text");
  });
});
