import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import {
  createDeepAgent,
  InMemoryBackend,
  LazyChatModel,
  LocalShellBackend,
  toolText,
} from "delve";
import { connectMcp, type McpConnection } from "delve/mcp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { chartTools, startMcpHttpServer } from "../helpers/mcp-http-server.js";
import { startFakeOpenAi } from "./fake-openai.js";
import { tinyPng, WIRE_APIS } from "./providers.js";
import type { FakeApi } from "./wire-rules.js";

// OpenAI's strict tool calling, and which OpenAI API a model string picks.
const OPENAI = WIRE_APIS.filter((a) => a.name !== "anthropic");

const userTools = () => [
  tool(async ({ city, days }) => `forecast ${city} ${days ?? "default"}`, {
    name: "forecast",
    description: "Weather forecast for a city.",
    schema: z.object({ city: z.string(), days: z.number().int().min(1).max(7).optional() }),
  }),
  {
    name: "find_order",
    description: "Find an order.",
    schema: {
      type: "object",
      properties: { id: { type: "string" }, status: { type: "string", enum: ["open", "closed"] } },
      required: ["id"],
    },
    func: async (args: { id: string; status?: string }) =>
      `order ${args.id} ${args.status ?? "any"}`,
  },
];

const sentTools = (body: any) =>
  (body.tools ?? []).map((t: any) => ({
    name: t.name ?? t.function?.name,
    strict: t.strict ?? t.function?.strict,
  }));

describe.each(OPENAI)("strict tool calling over $name", (api) => {
  let fake: FakeApi;
  let mcpServer: Awaited<ReturnType<typeof startMcpHttpServer>>;
  let mcp: McpConnection;
  beforeAll(async () => {
    mcpServer = await startMcpHttpServer(chartTools(tinyPng()));
    mcp = await connectMcp({ crm: { transport: "http", url: mcpServer.url, include: ["lookup"] } });
  });
  afterAll(async () => {
    await mcp.close();
    await mcpServer.close();
  });
  beforeEach(async () => {
    fake = await api.start();
  });
  afterEach(() => fake.close());

  it("strict is sent as false, never null, when nothing turns it on", async () => {
    fake.script([{ text: "hi" }]);
    const agent = createDeepAgent({
      model: api.model(fake),
      tools: [...userTools(), ...mcp.tools],
    });
    await agent.invoke({ messages: [new HumanMessage("hi")] });
    const tools = sentTools(fake.requests[0]!.body);
    expect(tools.length).toBeGreaterThan(8);
    expect(tools.filter((t: any) => t.strict !== false)).toEqual([]);
  });

  it("with supportsStrictToolCalling every schema passes the strict rules and null means not given", async () => {
    fake.script([
      {
        toolCalls: [
          { name: "forecast", args: { city: "Oslo", days: null }, id: "c1" },
          { name: "find_order", args: { id: "A1", status: null }, id: "c2" },
          { name: "lookup", args: { id: "R7", limit: null }, id: "c3" },
          {
            name: "grep",
            args: { pattern: "x", path: null, glob: null, output_mode: null },
            id: "c4",
          },
        ],
      },
      { text: "done" },
    ]);
    const agent = createDeepAgent({
      model: api.model(fake, { supportsStrictToolCalling: true }),
      tools: [...userTools(), ...mcp.tools],
      backend: new LocalShellBackend({ rootDir: process.cwd(), timeout: 5 }),
      subagents: [{ name: "helper", description: "Helps.", systemPrompt: "Help." }],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });

    expect(fake.requests.map((r) => r.rejected)).toEqual([undefined, undefined]);
    const tools = sentTools(fake.requests[0]!.body);
    for (const name of [
      "ls",
      "read_file",
      "write_file",
      "edit_file",
      "glob",
      "grep",
      "execute",
      "task",
      "forecast",
      "find_order",
      "lookup",
    ]) {
      expect(tools).toContainEqual({ name, strict: true });
    }
    const text = (id: string) => toolText(result.messages.find((m: any) => m.tool_call_id === id));
    expect(text("c1")).toBe("forecast Oslo default");
    expect(text("c2")).toBe("order A1 any");
    expect(text("c3")).toBe("record R7 limit none");
    expect(text("c4")).not.toMatch(/^Error/);
  });
});

describe("which OpenAI API a model string uses", () => {
  let fake: FakeApi;
  beforeEach(async () => {
    fake = await startFakeOpenAi();
    vi.stubEnv("OPENAI_BASE_URL", fake.url);
    vi.stubEnv("OPENAI_API_KEY", "sk-test");
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await fake.close();
  });

  it('"openai:gpt-4o-mini" talks to Chat Completions', async () => {
    fake.script([{ text: "hello" }]);
    const agent = createDeepAgent({ model: "openai:gpt-4o-mini" });
    const result = await agent.invoke({ messages: [new HumanMessage("hi")] });
    expect(fake.requests.map((r) => r.path)).toEqual(["/chat/completions"]);
    expect(result.messages.at(-1)?.text).toBe("hello");
  });

  it("a model string's tool results are fitted to its API too (the lazy model is resolved first)", async () => {
    const backend = new InMemoryBackend();
    await backend.uploadFiles([{ path: "/chart.png", content: tinyPng() }]);
    fake.script([
      { toolCalls: [{ name: "read_file", args: { file_path: "/chart.png" } }] },
      { text: "red" },
    ]);
    await createDeepAgent({ model: "openai:gpt-4o-mini", backend }).invoke({
      messages: [new HumanMessage("look")],
    });
    expect(fake.requests.map((r) => r.rejected)).toEqual([undefined, undefined]);
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toContain(
      "data:image/png;base64,",
    );
  });

  it("useResponsesApi: true opts in to the Responses API", async () => {
    fake.script([{ text: "hello" }]);
    const model = new LazyChatModel("openai:gpt-4o-mini", { useResponsesApi: true });
    const result = await createDeepAgent({ model }).invoke({ messages: [new HumanMessage("hi")] });
    expect(fake.requests.map((r) => r.path)).toEqual(["/responses"]);
    expect(result.messages.at(-1)?.text).toBe("hello");
  });
});
