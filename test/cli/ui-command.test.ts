import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "./run-harness.js";

// `delve ui` as a user starts it: the real binary prints the URL and serves the workspace.

vi.setConfig({ testTimeout: 120_000 });

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

describe("delve ui", () => {
  it("prints the loopback URL and serves the workspace's threads until stopped", async () => {
    const ws = h.workspace();
    h.openai.script([{ text: "hi" }]);
    const run = await h.delve(ws, ["run", "say hi", "--model", "openai:gpt-4o-mini"]);
    expect(run.code).toBe(0);
    const port = await freePort();
    const ui = h.start(ws, ["ui", "--port", String(port)]);
    const url = await new Promise<string>((resolve) => {
      let out = "";
      ui.child.stdout!.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out.trim());
      });
    });
    expect(url).toBe(`http://127.0.0.1:${port}/`);
    const body = (await (await fetch(`${url}api/threads`)).json()) as any;
    expect(body.threads.map((t: any) => [t.title, t.status])).toEqual([["say hi", "completed"]]);
    ui.child.kill("SIGTERM");
    expect((await ui.done).code).toBe(0);
  });

  it("rejects a bad --port before serving", async () => {
    const run = await h.delve(h.workspace(), ["ui", "--port", "http"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--port takes a whole number");
  });

  it("--eval with a file that is not an eval report exits 2 naming the file", async () => {
    const ws = h.workspace({ "notes.json": JSON.stringify({ tasks: [] }) });
    const run = await h.delve(ws, ["ui", "--eval", "notes.json"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("notes.json: not an eval report written by delve eval --json");
  });
});
