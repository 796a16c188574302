import { ConfigurationError, createDeepAgent, filesystemMiddleware } from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";
import { outputBudgetFor } from "../../src/filesystem/tools/output-budget.js";
import { fsTools } from "./tools/fs-harness.js";

const files = (n: number, dir = "/logs") =>
  Object.fromEntries(
    Array.from({ length: n }, (_, i) => [`${dir}/entry-${String(i).padStart(5, "0")}.log`, "x"]),
  );

async function seeded(seed: Record<string, string>, maxOutputChars?: number) {
  const harness = fsTools(maxOutputChars ? { maxOutputChars } : {});
  for (const [path, content] of Object.entries(seed)) await harness.backend.write(path, content);
  return harness;
}

describe("file tools stop at a character budget and say how to narrow", () => {
  it("ls of 5,000 files stays within the budget and says how many entries it showed", async () => {
    const { ok } = await seeded(files(5_000), 4_000);
    const out = await ok("ls", { path: "/logs" });
    const [body, note] = out.split("\n\n");
    expect(body!.length).toBeLessThanOrEqual(4_000);
    const shown = body!.split("\n").length;
    expect(note).toBe(
      `[Output limit reached: showing ${shown} of 5000 entries; the result is incomplete. List a subdirectory, or find names with glob.]`,
    );
    expect(body!.split("\n")[0]).toContain("/logs/entry-00000.log");
  });

  it("glob past the budget names what it showed", async () => {
    const { ok } = await seeded(files(900), 4_000);
    const out = await ok("glob", { pattern: "*.log" });
    const [body, note] = out.split("\n\n");
    expect(body!.length).toBeLessThanOrEqual(4_000);
    expect(note).toBe(
      `[Output limit reached: showing ${body!.split("\n").length} of 900 paths; the result is incomplete. Narrow the pattern or path.]`,
    );
  });

  it("grep content over a one-line 900 KB file shows the part around the match, never the whole line", async () => {
    const line = `${"a".repeat(450_000)}NEEDLE${"b".repeat(450_000)}`;
    const { ok } = await seeded({ "/data/min.js": line });
    const out = await ok("grep", { pattern: "NEEDLE", output_mode: "content" });
    expect(out.length).toBeLessThan(1_000);
    expect(out).toContain("NEEDLE");
    expect(out).toContain(`[line of ${line.length} chars, cut]`);
    expect(out.startsWith("/data/min.js\n1: …")).toBe(true);
  });

  it("grep content past the budget counts the matches it showed", async () => {
    const body = Array.from({ length: 400 }, (_, i) => `match number ${i} ${"z".repeat(60)}`);
    const { ok } = await seeded({ "/a.txt": body.join("\n") }, 4_000);
    const out = await ok("grep", { pattern: "match", output_mode: "content" });
    const [rows, note] = out.split("\n\n");
    expect(rows!.length).toBeLessThanOrEqual(4_000);
    const shown = rows!.split("\n").filter((r) => /^\d+: /.test(r)).length;
    expect(shown).toBeGreaterThan(10);
    expect(note).toBe(
      `[Output limit reached: showing ${shown} of 400 matches; the result is incomplete. Narrow the path or the file filter, or search a more specific string.]`,
    );
  });

  it("the budget is a tenth of the model's window, within 4,000..80,000 characters", () => {
    expect(outputBudgetFor(undefined)).toBe(80_000);
    expect(outputBudgetFor(128_000)).toBe(51_200);
    expect(outputBudgetFor(1_000_000)).toBe(80_000);
    expect(outputBudgetFor(2_000)).toBe(4_000);
  });

  it("createDeepAgent sizes it from the model's declared window", async () => {
    class SmallWindow extends ScriptedChatModel {
      override get profile() {
        return { maxInputTokens: 16_000 }; // budget 6,400 characters
      }
    }
    const model = new SmallWindow([
      { toolCalls: [{ name: "ls", args: { path: "/logs" } }] },
      "done",
    ]);
    const agent = createDeepAgent({ model });
    const result = await agent.invoke({
      messages: [{ role: "user", content: "list" }],
      files: files(2_000),
    });
    const listing = String(result.messages.find((m: any) => m.name === "ls")?.content);
    expect(listing.split("\n\n")[0]!.length).toBeLessThanOrEqual(6_400);
    expect(listing).toContain("[Output limit reached: showing");
  });

  it("a budget below 4,000 is a construction error", () => {
    expect(() => filesystemMiddleware({ maxOutputChars: 100 })).toThrow(ConfigurationError);
  });
});
