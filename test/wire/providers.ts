import { deflateSync } from "node:zlib";
import { ChatAnthropic } from "@langchain/anthropic";
import { ChatOpenAI } from "@langchain/openai";
import { startFakeAnthropic } from "./fake-anthropic.js";
import { startFakeOpenAi } from "./fake-openai.js";
import type { FakeApi } from "./wire-rules.js";

/** One provider API under test: how to start its fake and build the real LangChain class on it. */
export interface WireApi {
  name: "chat-completions" | "responses" | "anthropic";
  start(): Promise<FakeApi>;
  model(fake: FakeApi, extra?: Record<string, unknown>): any;
}

/** The three APIs every wire test runs over. */
export const WIRE_APIS: WireApi[] = [
  {
    name: "chat-completions",
    start: startFakeOpenAi,
    model: (fake, extra = {}) =>
      new ChatOpenAI({
        model: "gpt-4o-mini",
        apiKey: "sk-test",
        maxRetries: 0,
        configuration: { baseURL: fake.url },
        ...extra,
      }),
  },
  {
    name: "responses",
    start: startFakeOpenAi,
    model: (fake, extra = {}) =>
      new ChatOpenAI({
        model: "gpt-4o-mini",
        apiKey: "sk-test",
        maxRetries: 0,
        useResponsesApi: true,
        configuration: { baseURL: fake.url },
        ...extra,
      }),
  },
  {
    name: "anthropic",
    start: startFakeAnthropic,
    model: (fake, extra = {}) =>
      new ChatAnthropic({
        model: "claude-sonnet-4-5",
        apiKey: "sk-ant-test",
        maxRetries: 0,
        anthropicApiUrl: fake.url,
        ...extra,
      }),
  },
];

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real, decodable 2x2 red PNG. */
export function tinyPng(): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.from([0, 255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 255, 0, 0]);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
