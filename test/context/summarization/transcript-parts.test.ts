import { HumanMessage } from "@langchain/core/messages";
import { InMemoryBackend } from "delve";
import { describe, expect, it } from "vitest";
import { appendTranscript } from "../../../src/context/summarization/transcript-file.js";

describe("transcript parts", () => {
  it("each compaction writes a new part naming the one before; no part is rewritten", async () => {
    const backend = new InMemoryBackend();
    const path = "/conversation_history/t-1.md";
    const first = await appendTranscript(backend, path, [new HumanMessage("first batch")]);
    expect(first).toEqual({ path });
    const before = (await backend.downloadFiles([path]))[0]!.content;
    const second = await appendTranscript(backend, path, [new HumanMessage("second batch")]);
    const third = await appendTranscript(backend, path, [new HumanMessage("third batch")]);
    expect(second).toEqual({ path: "/conversation_history/t-1.part-2.md" });
    expect(third).toEqual({ path: "/conversation_history/t-1.part-3.md" });
    const [one, two, three] = (
      await backend.downloadFiles([
        path,
        "/conversation_history/t-1.part-2.md",
        "/conversation_history/t-1.part-3.md",
      ])
    ).map((f) => Buffer.from(f.content!).toString("utf-8"));
    expect(Buffer.from(before!).toString("utf-8")).toBe(one);
    expect(one).toContain("first batch");
    expect(one).not.toContain("second batch");
    expect(two).toContain(`Earlier messages: ${path}`);
    expect(two).toContain("second batch");
    expect(three).toContain("Earlier messages: /conversation_history/t-1.part-2.md");
    expect(three).not.toContain("first batch");
  });
});
