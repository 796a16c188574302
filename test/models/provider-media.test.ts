import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { messagesForProvider } from "../../src/models/provider-media.js";
import { strictToolSchema } from "../../src/models/strict-schema.js";
import { tinyPng } from "../wire/providers.js";

// What each API is handed for media in tool results, beyond the images the wire suite sends.
const PNG = Buffer.from(tinyPng()).toString("base64");
const PDF = Buffer.from("%PDF-1.4 minimal").toString("base64");
const turn = (content: any) => [
  new HumanMessage("go"),
  new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "fetch", args: {} }] }),
  new ToolMessage({ tool_call_id: "c1", name: "fetch", content }),
];

describe("media per provider API", () => {
  it("Anthropic keeps a PDF as a document and says why audio is left out", () => {
    const out = messagesForProvider(
      turn([
        { type: "file", mimeType: "application/pdf", data: PDF },
        { type: "audio", mimeType: "audio/wav", data: "UklGRg==" },
      ]),
      "anthropic",
      { images: true },
    );
    expect(out[2]!.content).toEqual([
      { type: "file", mimeType: "application/pdf", data: PDF },
      { type: "text", text: "[audio audio/wav, 6 B not shown: this API takes no such attachment]" },
    ]);
  });

  it("OpenAI gets text for every other block, and one user message for two images after the batch", () => {
    const messages = [
      new HumanMessage("go"),
      new AIMessage({
        content: "",
        tool_calls: [
          { id: "c1", name: "a", args: {} },
          { id: "c2", name: "b", args: {} },
        ],
      }),
      new ToolMessage({
        tool_call_id: "c1",
        name: "a",
        content: [{ type: "image", mimeType: "image/png", data: PNG }],
      }),
      new ToolMessage({
        tool_call_id: "c2",
        name: "b",
        content: [
          { type: "json", json: { ok: true } },
          { type: "image", source_type: "base64", mime_type: "image/jpeg", data: PNG },
        ],
      }),
    ];
    const out = messagesForProvider(messages, "openai-chat-completions", { images: true });
    expect(out.map((m) => m.getType())).toEqual(["human", "ai", "tool", "tool", "human"]);
    expect(out[3]!.content).toBe(
      '{"type":"json","json":{"ok":true}}\n[image/png image, 75 B: attached in the next message]',
    );
    const parts = out[4]!.content as any[];
    expect(parts.map((p) => p.type)).toEqual(["text", "image_url", "text", "image_url"]);
    expect(parts[3].image_url.url.startsWith("data:image/png;base64,")).toBe(true); // bytes, not label
  });

  it("the messages given are never changed", () => {
    const original = turn([{ type: "image", mimeType: "image/png", data: PNG }]);
    const before = JSON.stringify(original);
    messagesForProvider(original, "openai-responses", { images: true });
    messagesForProvider(original, "anthropic", { images: false });
    expect(JSON.stringify(original)).toBe(before);
  });

  it("a user's own standard image block becomes an image_url part on OpenAI", () => {
    const out = messagesForProvider(
      [new HumanMessage({ content: [{ type: "image", mimeType: "image/png", data: PNG }] as any })],
      "openai-responses",
      { images: true },
    );
    expect((out[0]!.content as any[])[0]).toEqual({
      type: "image_url",
      image_url: { url: `data:image/png;base64,${PNG}` },
    });
  });
});

describe("strictToolSchema", () => {
  it("closes nested objects, requires every property and adds null to optional ones", () => {
    const schema = {
      type: "object",
      properties: {
        mode: { type: "string", enum: ["a", "b"], default: "a" },
        filter: {
          type: "object",
          properties: { tag: { type: "string" } },
          required: [],
        },
        ids: { type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }] } },
      },
      required: ["ids"],
    };
    expect(strictToolSchema(schema)).toEqual({
      type: "object",
      properties: {
        mode: { type: ["string", "null"], enum: ["a", "b", null] },
        filter: {
          type: ["object", "null"],
          properties: { tag: { type: ["string", "null"] } },
          required: ["tag"],
          additionalProperties: false,
        },
        ids: { type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }] } },
      },
      required: ["mode", "filter", "ids"],
      additionalProperties: false,
    });
  });
});
