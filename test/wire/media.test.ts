import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { createDeepAgent, InMemoryBackend } from "delve";
import { connectMcp } from "delve/mcp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chartTools, startMcpHttpServer } from "../helpers/mcp-http-server.js";
import { tinyPng, WIRE_APIS, type WireApi } from "./providers.js";
import { type FakeApi, imageTypeOfBase64 } from "./wire-rules.js";

// Images from read_file and from MCP results must reach the model as real image parts in
// the form each API accepts, once, with the media type the bytes really have.
const PNG_BASE64 = Buffer.from(tinyPng()).toString("base64");

/** The images the model received in one request, per API, and the text of the tool result. */
function seen(api: WireApi["name"], body: any): { images: string[]; toolText: string } {
  if (api === "anthropic") {
    const results = body.messages.flatMap((m: any) =>
      Array.isArray(m.content) ? m.content.filter((b: any) => b.type === "tool_result") : [],
    );
    const blocks = results.flatMap((r: any) => (Array.isArray(r.content) ? r.content : []));
    for (const b of blocks.filter((b: any) => b.type === "image")) {
      expect(imageTypeOfBase64(b.source.data)).toBe(b.source.media_type);
    }
    return {
      images: blocks.filter((b: any) => b.type === "image").map((b: any) => b.source.media_type),
      toolText: blocks
        .filter((b: any) => b.type === "text")
        .map((b: any) => b.text)
        .join("\n"),
    };
  }
  if (api === "chat-completions") {
    const tool = body.messages.find((m: any) => m.role === "tool");
    expect(typeof tool.content).toBe("string");
    const parts = body.messages
      .filter((m: any) => m.role === "user" && Array.isArray(m.content))
      .flatMap((m: any) => m.content.filter((p: any) => p.type === "image_url"));
    return {
      images: parts.map((p: any) => /^data:([^;]+)/.exec(p.image_url.url)![1]),
      toolText: tool.content,
    };
  }
  const output = body.input.find((i: any) => i.type === "function_call_output");
  expect(typeof output.output).toBe("string");
  const parts = body.input
    .filter((i: any) => i.role === "user" && Array.isArray(i.content))
    .flatMap((i: any) => i.content.filter((p: any) => p.type === "input_image"));
  return {
    images: parts.map((p: any) => /^data:([^;]+)/.exec(p.image_url)![1]),
    toolText: output.output,
  };
}

describe.each(WIRE_APIS)("images over $name", (api) => {
  let fake: FakeApi;
  let mcpServer: Awaited<ReturnType<typeof startMcpHttpServer>>;
  beforeAll(async () => {
    mcpServer = await startMcpHttpServer(chartTools(tinyPng()));
  });
  afterAll(() => mcpServer.close());
  beforeEach(async () => {
    fake = await api.start();
  });
  afterEach(() => fake.close());

  it("a PNG read with read_file reaches the model as one real image; the saved thread keeps the original", async () => {
    const backend = new InMemoryBackend();
    await backend.uploadFiles([{ path: "/chart.png", content: tinyPng() }]);
    fake.script([
      { toolCalls: [{ name: "read_file", args: { file_path: "/chart.png" }, id: "call_img" }] },
      { text: "a red square" },
      { text: "still fine" },
    ]);
    const agent: any = createDeepAgent({
      model: api.model(fake),
      backend,
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: `img-${api.name}` } };
    await agent.invoke({ messages: [new HumanMessage("what is in /chart.png?")] }, config);

    expect(fake.requests.map((r) => r.rejected)).toEqual([undefined, undefined]);
    const { images, toolText } = seen(api.name, fake.requests[1]!.body);
    expect(images).toEqual(["image/png"]);
    expect(toolText).not.toContain(PNG_BASE64.slice(0, 20)); // never base64 as text

    // The rewrite is per request: the checkpoint still holds read_file's own image block.
    const state = await agent.getState(config);
    const saved = state.values.messages.find((m: any) => m.getType() === "tool");
    expect(saved.content).toEqual([{ type: "image", mimeType: "image/png", data: PNG_BASE64 }]);
    // And the next turn of the thread is accepted.
    await agent.invoke({ messages: [new HumanMessage("and now?")] }, config);
    expect(fake.requests[2]!.rejected).toBeUndefined();
  });

  it("a PNG saved as .jpg is sent as image/png: providers check the bytes against the label", async () => {
    const backend = new InMemoryBackend();
    await backend.uploadFiles([{ path: "/photo.jpg", content: tinyPng() }]);
    fake.script([
      { toolCalls: [{ name: "read_file", args: { file_path: "/photo.jpg" } }] },
      { text: "a photo" },
    ]);
    await createDeepAgent({ model: api.model(fake), backend }).invoke({
      messages: [new HumanMessage("look at /photo.jpg")],
    });
    expect(fake.requests.map((r) => r.rejected)).toEqual([undefined, undefined]);
    expect(seen(api.name, fake.requests[1]!.body).images).toEqual(["image/png"]);
  });

  it("an MCP image result arrives once, labelled with the type its bytes have", async () => {
    const mcp = await connectMcp({
      charts: { transport: "http", url: mcpServer.url, include: ["chart"] },
    });
    try {
      fake.script([
        { toolCalls: [{ name: "chart", args: {}, id: "call_chart" }] },
        { text: "sales rise" },
      ]);
      const agent = createDeepAgent({ model: api.model(fake), tools: mcp.tools });
      await agent.invoke({ messages: [new HumanMessage("show the chart")] });
      expect(fake.requests.map((r) => r.rejected)).toEqual([undefined, undefined]);
      const { images, toolText } = seen(api.name, fake.requests[1]!.body);
      expect(images).toEqual(["image/png"]); // the server said image/jpeg; the bytes are PNG
      expect(toolText.match(/Sales by month/g)).toHaveLength(1);
    } finally {
      await mcp.close();
    }
  });
});

describe("a model without image input", () => {
  it("gets a text notice in place of the image, and the request is accepted", async () => {
    const api = WIRE_APIS.find((a) => a.name === "chat-completions")!;
    const fake = await api.start();
    try {
      const backend = new InMemoryBackend();
      await backend.uploadFiles([{ path: "/chart.png", content: tinyPng() }]);
      fake.script([
        { toolCalls: [{ name: "read_file", args: { file_path: "/chart.png" } }] },
        { text: "cannot see it" },
      ]);
      // gpt-3.5-turbo's profile says it takes no image input.
      const agent = createDeepAgent({
        model: api.model(fake, { model: "gpt-3.5-turbo" }),
        backend,
      });
      await agent.invoke({ messages: [new HumanMessage("look at /chart.png")] });
      expect(fake.requests[1]!.rejected).toBeUndefined();
      const { images, toolText } = seen("chat-completions", fake.requests[1]!.body);
      expect(images).toEqual([]);
      expect(toolText).toMatch(
        /\[image image\/png, \d+ B not shown: this model takes no image input\]/,
      );
    } finally {
      await fake.close();
    }
  });
});
