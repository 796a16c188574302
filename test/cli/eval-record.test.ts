import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeOpenAi } from "../wire/fake-openai.js";
import { CLI_ARGV, ROOT } from "./delve-bin.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-cli-record-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function delve(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [...CLI_ARGV, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("delve eval --model provider:model --record, then --replay offline", () => {
  it("records the real provider class's answers with their usage, and replays them without the API", async () => {
    const api = await startFakeOpenAi();
    api.script([
      { toolCalls: [{ name: "get_order", args: { id: "ORD-1" } }] },
      { text: "ORD-1 is paid." },
    ]);
    const cassette = path.join(dir, "orders.cassette.json");
    const recorded = path.join(dir, "recorded.json");
    let live: Awaited<ReturnType<typeof delve>>;
    try {
      live = await delve(
        [
          "eval",
          "test/cli/fixtures/orders-set.ts",
          "--model",
          "openai:gpt-test",
          "--record",
          cassette,
          "--json",
          recorded,
        ],
        { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: api.url },
      );
    } finally {
      await api.close();
    }
    expect(live.stderr).toContain("ok   is-it-paid");
    expect(live.code).toBe(0);
    // An "openai:" string uses Chat Completions; the fake refuses what the real API refuses.
    expect(api.requests.map((r) => [r.path, r.rejected])).toEqual([
      ["/chat/completions", undefined],
      ["/chat/completions", undefined],
    ]);
    expect(api.requests[0]!.body.tools.map((t: any) => t.function.name)).toContain("get_order");
    const report = JSON.parse(fs.readFileSync(recorded, "utf8"));
    expect(report).toMatchObject({ mode: "record", model: "openai:gpt-test" });
    // Tokens come from the provider's usage data: 10 + 10 in, 5 + 5 out.
    expect(report.tasks[0].runs[0].usage).toEqual({ input: 20, output: 10, total: 30 });
    const steps = JSON.parse(fs.readFileSync(cassette, "utf8")).tasks["is-it-paid"].runs[0];
    expect(steps).toHaveLength(2);

    // The API is gone now: the replay answers from the cassette alone.
    const replayed = path.join(dir, "replayed.json");
    const offline = await delve(
      ["eval", "test/cli/fixtures/orders-set.ts", "--replay", cassette, "--json", replayed],
      {
        OPENAI_API_KEY: "",
        OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      },
    );
    expect(offline.code).toBe(0);
    const again = JSON.parse(fs.readFileSync(replayed, "utf8"));
    expect(again.model).toBe("openai:gpt-test");
    expect(again.tasks[0].runs[0].usage).toEqual(report.tasks[0].runs[0].usage);
    expect(again.tasks[0].runs[0].answer).toBe("ORD-1 is paid.");
  }, 120_000);
});
