import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { HumanMessage } from "@langchain/core/messages";
import { createDeepAgent, HumanChatModel } from "delve";
import { describe, expect, it } from "vitest";
import { waitFor } from "../helpers/wait-for.js";

// HumanChatModel in the library: the directory protocol played by this process, and the
// terminal protocol over in-memory streams. The CLI test plays it from a child process.

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "delve-human-"));

const readJson = (file: string) =>
  fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined;

describe("HumanChatModel through a directory", () => {
  it("writes the exact request, refuses a bad reply with error-N.json, and takes the next one", async () => {
    const dir = tmp();
    const agent = createDeepAgent({ model: new HumanChatModel({ dir }), systemPrompt: "Be kind." });
    const run = agent.invoke({ messages: [new HumanMessage("list the files")] });
    const req1 = await waitFor("request-1", () => readJson(path.join(dir, "request-1.json")));
    expect(req1).toMatchObject({ n: 1, reply_to: "reply-1.json" });
    expect(req1.system).toMatch(/^Be kind\./);
    expect(req1.messages).toEqual([{ role: "user", content: "list the files" }]);
    const ls = req1.tools.find((t: any) => t.name === "ls");
    expect(ls).toMatchObject({ name: "ls", parameters: { type: "object" } });
    expect(typeof ls.description).toBe("string");

    fs.writeFileSync(path.join(dir, "reply-1.json"), '{"tool_calls":[{"name":"lss","args":{}}]}');
    const error = await waitFor("error-1", () => readJson(path.join(dir, "error-1.json")));
    expect(error.error).toMatch(
      /^tool_calls\[0\]\.name "lss" is not a tool of this request; the tools are: .*\bls\b/,
    );
    expect(error.error).toContain("Write reply-1.json again.");
    expect(fs.existsSync(path.join(dir, "reply-1.json"))).toBe(false);

    fs.writeFileSync(
      path.join(dir, "reply-1.json"),
      JSON.stringify({
        text: "Looking.",
        tool_calls: [{ name: "ls", args: { path: "/" }, id: "c1" }],
      }),
    );
    const req2 = await waitFor("request-2", () => readJson(path.join(dir, "request-2.json")));
    expect(fs.existsSync(path.join(dir, "error-1.json"))).toBe(false);
    expect(req2.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: "Looking.",
        tool_calls: [{ id: "c1", name: "ls", args: { path: "/" } }],
      },
      { role: "tool", content: expect.any(String), tool_call_id: "c1", name: "ls" },
    ]);
    fs.writeFileSync(path.join(dir, "reply-2.json"), JSON.stringify({ text: "Nothing here." }));
    const out = await run;
    expect(out.messages.at(-1)!.text).toBe("Nothing here.");
  });

  it("each kind of bad reply is named", async () => {
    const dir = tmp();
    const model = new HumanChatModel({ dir, pollMs: 5 });
    const call = model.invoke("hi");
    const bad = [
      ["[1]", "The reply is not a JSON object."],
      ["{}", "The reply is empty"],
      ['{"txt":"x"}', 'Unknown key "txt"'],
      ['{"text":5}', '"text" must be a string'],
      [
        '{"tool_calls":[{"name":"x","args":{}}]}',
        "is not a tool of this request; the tools are: (none)",
      ],
      ["{not json", "reply-1.json is not valid JSON"],
    ];
    for (const [text, message] of bad) {
      await waitFor("request-1", () => readJson(path.join(dir, "request-1.json")));
      fs.writeFileSync(path.join(dir, "reply-1.json"), text!);
      const error = await waitFor("the error", () => {
        const e = readJson(path.join(dir, "error-1.json"));
        return e?.reply === text ? e : undefined;
      });
      expect(error.error).toContain(message);
    }
    fs.writeFileSync(path.join(dir, "reply-1.json"), '{"text":"hello"}');
    expect((await call).text).toBe("hello");
  });

  it("numbers go on from the directory's last request (a resumed thread in another process)", async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, "request-7.json"), "{}");
    const call = new HumanChatModel({ dir }).invoke("again");
    await waitFor("request-8", () => readJson(path.join(dir, "request-8.json")));
    fs.writeFileSync(path.join(dir, "reply-8.json"), '{"text":"ok"}');
    expect((await call).text).toBe("ok");
  });
});

describe("HumanChatModel in the terminal", () => {
  it("prints the request, takes JSON over several lines or a plain line, and re-prompts on a bad reply", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = "";
    output.on("data", (d) => {
      printed += d;
    });
    const model = new HumanChatModel({ input, output });
    const bound = model.bindTools([
      { name: "add", description: "Adds.", schema: { type: "object", properties: {} } } as any,
    ]);
    const first = bound.invoke([new HumanMessage("sum it")]);
    await waitFor("the prompt", () => (printed.includes("--- reply 1:") ? true : undefined));
    expect(printed).toContain('"content": "sum it"');
    expect(printed).toContain('"name": "add"');
    input.write('{"tool_calls": [{"name": "sub", "args": {}}]}\n');
    await waitFor("the error", () => (printed.includes("error:") ? true : undefined));
    expect(printed).toContain(
      'error: tool_calls[0].name "sub" is not a tool of this request; the tools are: add. Reply again.',
    );
    input.write('{"tool_calls": [\n  {"name": "add", "args": {"a": 1}}\n]}\n');
    const message: any = await first;
    expect(message.tool_calls).toEqual([
      { name: "add", args: { a: 1 }, id: "human_1_1", type: "tool_call" },
    ]);
    const second = bound.invoke([new HumanMessage("now say hi")]);
    input.write("hi there\n");
    expect((await second).text).toBe("hi there");
    const third = bound.invoke([new HumanMessage("more")]);
    input.end();
    await expect(third).rejects.toThrow("the input ended before a reply to model call 3");
  });
});
