import { ChatAnthropic } from "@langchain/anthropic";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { describe, expect, it } from "vitest";
import { startFakeAnthropic, validateMessages } from "./fake-anthropic.js";
import { startFakeOpenAi, validateCompletions, validateResponses } from "./fake-openai.js";
import { tinyPng } from "./providers.js";
import { strictSchemaProblem } from "./wire-rules.js";

// The fakes are only worth what they refuse: each rule below is one the real API enforces,
// and the last tests replay the bugs that sent the wire suite looking (plain LangChain
// classes, no Delve in between).
const PNG = Buffer.from(tinyPng()).toString("base64");
const call = { id: "c1", type: "function", function: { name: "ls", arguments: "{}" } };

describe("the fake Chat Completions API refuses what OpenAI refuses", () => {
  const base = [{ role: "user", content: "hi" }];
  it.each([
    [
      "an image in a tool message",
      [
        ...base,
        { role: "assistant", content: null, tool_calls: [call] },
        {
          role: "tool",
          tool_call_id: "c1",
          content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } }],
        },
      ],
      /Supported values are: 'text'/,
    ],
    [
      "a tool result with no call",
      [...base, { role: "tool", tool_call_id: "c9", content: "x" }],
      /must be a response to a preceeding message/,
    ],
    [
      "a call left unanswered",
      [
        ...base,
        { role: "assistant", content: null, tool_calls: [call] },
        { role: "user", content: "next" },
      ],
      /did not have response messages: c1/,
    ],
    [
      "a LangChain standard image block in a user message",
      [{ role: "user", content: [{ type: "image", mimeType: "image/png", data: PNG }] }],
      /Invalid value: 'image'/,
    ],
    [
      "a data URL whose bytes are not the type it says",
      [
        {
          role: "user",
          content: [{ type: "image_url", image_url: { url: `data:image/jpeg;base64,${PNG}` } }],
        },
      ],
      /not a valid image\/jpeg/,
    ],
  ])("%s", (_name, messages, problem) => {
    expect(validateCompletions({ messages })).toMatch(problem);
  });

  it("a tool name over 64 characters, and strict: null", () => {
    const tool = (name: string, strict?: unknown) => ({
      type: "function",
      function: { name, parameters: { type: "object" }, strict },
    });
    expect(validateCompletions({ messages: base, tools: [tool("a".repeat(65))] })).toMatch(
      /does not match pattern/,
    );
    expect(validateCompletions({ messages: base, tools: [tool("ls", null)] })).toMatch(
      /expected a boolean, but got null/,
    );
    expect(validateCompletions({ messages: base, tools: [tool("ls", false)] })).toBeUndefined();
  });
});

describe("the fake Responses API refuses what OpenAI refuses", () => {
  it("an unanswered function call, an output with no call, and non-strict schemas without strict: false", () => {
    const fc = { type: "function_call", call_id: "c1", name: "ls", arguments: "{}" };
    expect(validateResponses({ input: [fc] })).toMatch(/No tool output found for function call c1/);
    expect(
      validateResponses({ input: [{ type: "function_call_output", call_id: "c2", output: "x" }] }),
    ).toMatch(/No tool call found/);
    const lean = { type: "object", properties: { path: { type: "string" } }, required: [] };
    expect(
      validateResponses({
        input: [],
        tools: [{ type: "function", name: "ls", parameters: lean, strict: null }],
      }),
    ).toMatch(/additionalProperties/);
    expect(
      validateResponses({
        input: [],
        tools: [{ type: "function", name: "ls", parameters: lean, strict: false }],
      }),
    ).toBeUndefined();
  });
});

describe("OpenAI's strict schema rules", () => {
  it.each([
    ["an open object", { type: "object", properties: {}, required: [] }, /additionalProperties/],
    [
      "an optional property",
      {
        type: "object",
        properties: { a: { type: "string" } },
        required: [],
        additionalProperties: false,
      },
      /Missing 'a'/,
    ],
    [
      "an unsupported keyword",
      {
        type: "object",
        properties: { a: { type: "string", default: "x" } },
        required: ["a"],
        additionalProperties: false,
      },
      /'default' is not permitted/,
    ],
  ])("refuse %s", (_name, schema, problem) => {
    expect(strictSchemaProblem(schema)).toMatch(problem);
  });
});

describe("the fake Messages API refuses what Anthropic refuses", () => {
  it("a PNG labelled JPEG, an unanswered tool_use, a stray tool_result", () => {
    const image = (media_type: string) => ({
      type: "image",
      source: { type: "base64", media_type, data: PNG },
    });
    expect(
      validateMessages({ messages: [{ role: "user", content: [image("image/jpeg")] }] }),
    ).toMatch(/Image does not match the provided media type image\/jpeg/);
    expect(
      validateMessages({ messages: [{ role: "user", content: [image("image/png")] }] }),
    ).toBeUndefined();
    const use = {
      role: "assistant",
      content: [{ type: "tool_use", id: "t1", name: "ls", input: {} }],
    };
    expect(
      validateMessages({
        messages: [{ role: "user", content: "hi" }, use, { role: "user", content: "next" }],
      }),
    ).toMatch(/without `tool_result` blocks immediately after: t1/);
    expect(
      validateMessages({
        messages: [
          { role: "user", content: [{ type: "tool_result", tool_use_id: "t9", content: "x" }] },
        ],
      }),
    ).toMatch(/unexpected `tool_use_id`/);
  });
});

describe("the bugs, replayed on the plain LangChain classes", () => {
  const history = (content: any) => [
    new HumanMessage("look"),
    new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "read_file", args: {} }] }),
    new ToolMessage({ tool_call_id: "c1", content }),
  ];

  it("ChatOpenAI sends read_file's image block inside the tool message: a 400", async () => {
    const fake = await startFakeOpenAi();
    try {
      const model = new ChatOpenAI({
        model: "gpt-4o-mini",
        apiKey: "k",
        maxRetries: 0,
        configuration: { baseURL: fake.url },
      });
      await expect(
        model.invoke(history([{ type: "image", mimeType: "image/png", data: PNG }])),
      ).rejects.toThrow(/400/);
    } finally {
      await fake.close();
    }
  });

  it("ChatAnthropic sends MCP adapter blocks twice, the PNG labelled JPEG: a 400", async () => {
    const fake = await startFakeAnthropic();
    try {
      const model = new ChatAnthropic({
        model: "claude-sonnet-4-5",
        apiKey: "k",
        maxRetries: 0,
        anthropicApiUrl: fake.url,
      });
      const blocks = [{ type: "image", source_type: "base64", mime_type: "image/png", data: PNG }];
      await expect(model.invoke(history(blocks))).rejects.toThrow(
        /does not match the provided media type image\/jpeg/,
      );
    } finally {
      await fake.close();
    }
  });
});
