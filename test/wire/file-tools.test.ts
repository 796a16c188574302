import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { createDeepAgent, LocalShellBackend, toolText } from "delve";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WIRE_APIS } from "./providers.js";
import type { FakeApi } from "./wire-rules.js";

// Every built-in file tool, called by the real provider classes against fakes that refuse
// what the real APIs refuse. Optional arguments come as `null`, as strict-trained models send.
const SCRIPT = [
  { name: "ls", args: { path: "/" } },
  { name: "write_file", args: { file_path: "/notes.md", content: "alpha\nbeta\n" } },
  { name: "read_file", args: { file_path: "/notes.md", offset: null, limit: null } },
  {
    name: "edit_file",
    args: { file_path: "/notes.md", old_string: "beta", new_string: "gamma", replace_all: null },
  },
  { name: "glob", args: { pattern: "*.md", path: null } },
  { name: "grep", args: { pattern: "gamma", path: null, glob: null, output_mode: "content" } },
  { name: "execute", args: { command: "cat notes.md" } },
  { name: "delete", args: { file_path: "/notes.md" } },
];

describe.each(WIRE_APIS)("every built-in file tool over $name", (api) => {
  let fake: FakeApi;
  let dir: string;
  beforeEach(async () => {
    fake = await api.start();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-wire-"));
  });
  afterEach(async () => {
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("runs ls, write, read, edit, glob, grep, execute and delete with every request accepted", async () => {
    fake.script([
      ...SCRIPT.map((call, i) => ({ toolCalls: [{ ...call, id: `call_${i}` }] })),
      { text: "all done" },
    ]);
    const agent = createDeepAgent({
      model: api.model(fake),
      backend: new LocalShellBackend({ rootDir: dir, timeout: 10 }),
    });
    const result = await agent.invoke({ messages: [new HumanMessage("exercise the tools")] });

    expect(fake.requests.filter((r) => r.rejected)).toEqual([]);
    expect(fake.requests).toHaveLength(SCRIPT.length + 1);
    const results = new Map<string, { text: string; status: string }>(
      result.messages
        .filter((m: any) => m.getType() === "tool")
        .map((m: any) => [m.tool_call_id, { text: toolText(m), status: m.status }]),
    );
    for (const [i, call] of SCRIPT.entries()) {
      expect(
        results.get(`call_${i}`)?.status,
        `${call.name}: ${results.get(`call_${i}`)?.text}`,
      ).not.toBe("error");
    }
    expect(results.get("call_2")?.text).toContain("alpha");
    expect(results.get("call_5")?.text).toContain("gamma");
    expect(results.get("call_6")?.text).toContain("alpha\ngamma");
    expect(fs.existsSync(path.join(dir, "notes.md"))).toBe(false);
    expect(result.messages.at(-1)?.text).toBe("all done");
  });
});
