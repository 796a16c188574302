/**
 * Hostile model against the glob matcher: patterns built to make a backtracking matcher
 * explode (stars against runs of the same letter, many `**`, nested braces, extglob-like
 * text, bracket expressions, brace products) sent through `glob` and grep's `glob` filter
 * over long names and deep paths. A regular-expression matcher took 19 s for one 36-letter
 * name under `*a*a*a*a*a*a*a*a*a*a*a*b` (12 stars) and over 20 s at 14; every whole walk
 * here must finish in a fraction of a second (asserted with a wide margin), and a pattern that would expand past the
 * limits is refused at once with a message naming the fix.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fsTools, textOf } from "../filesystem/tools/fs-harness.js";
import { FAMILIES, type FamilyBackend } from "./backend-families.js";

const A36 = "a".repeat(36);
const LONG = "a".repeat(250);
const DEEP = Array.from({ length: 20 }, () => "a".repeat(60)).join("/");

// 120 same-letter names, 30 long ones and one deep path: the inputs that make stars backtrack.
const FILES: Record<string, string> = {
  ...Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`/w/d${i}/${A36}`, "aaa"])),
  ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`/w/long/${LONG}${i}`, "aaa"])),
  [`/w/${DEEP}/${A36}`]: "aaa",
};

/** Worst patterns we could build, each well inside the glob limits (1,000 characters). */
const ATTACKS: Record<string, string> = {
  "14 stars (the reported attack)": `${"*a".repeat(13)}*b`,
  "497 stars at the length limit": `${"*a".repeat(497)}*b`,
  "star chunks that almost fit": `${`*${"a".repeat(30)}`.repeat(30)}b`,
  "300 globstars": `${"**/".repeat(300)}b`,
  "globstars between starred segments": `${"**/*a*a*a*a*a*a*a*a*a*b/".repeat(30)}x`,
  "extglob-like text": `${"+(a|aa)".repeat(100)}b`,
  "bracket expressions and stars": `${"[a-z]*".repeat(150)}b`,
  "negated brackets": `${"*[!b]".repeat(150)}b`,
  "POSIX classes": `${"[[:alpha:]]*".repeat(80)}b`,
  "question marks": `${"?*".repeat(400)}b`,
  "200 brace alternatives with stars": `${"*a".repeat(6)}*{1..200}b`,
  "nested braces": `${"{a,{b,{c,{d,{e,{f,{g,h}}}}}}}".repeat(1)}${"*a".repeat(40)}*b`,
  "brace product inside the limit": `{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}${"*a".repeat(11)}*b`,
};

// Far above a linear walk of these 151 files on a loaded machine (well under a second), far
// below what one backtracking match took (19 s).
const BUDGET_MS = 5000;
const FAMILY_NAMES = ["in-memory", "disk", "composite"];

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

describe.each(
  FAMILIES.filter((f) => FAMILY_NAMES.includes(f.name)).map((f) => [f.name, f] as const),
)("%s: no glob a model sends stalls the process", (_, family) => {
  let made: FamilyBackend;
  let tools: ReturnType<typeof fsTools>;
  beforeAll(async () => {
    made = family.make();
    await made.seed(FILES);
    tools = fsTools({ backend: made.backend });
  });
  afterAll(() => made.cleanup());

  it.each(Object.entries(ATTACKS))(
    "%s: glob and grep's filter walk every path in time",
    async (_, pattern) => {
      const { ok } = tools;
      for (const [tool, args] of [
        ["glob", { pattern, path: "/w" }],
        ["glob", { pattern: `/w/${pattern}` }],
        ["grep", { pattern: "aaa", path: "/w", glob: pattern }],
      ] as const) {
        const { value, ms } = await timed(() => ok(tool, args));
        expect(value).toMatch(/^No (files|matches) found/);
        expect(ms, `${tool} ${JSON.stringify(args).slice(0, 60)}`).toBeLessThan(BUDGET_MS);
      }
    },
  );

  it("the same matcher still finds what the patterns do match", async () => {
    const { ok } = tools;
    expect(await ok("glob", { pattern: `${"*a".repeat(13)}*`, path: "/w/d7" })).toBe(
      `/w/d7/${A36}`,
    );
    const deep = await ok("glob", { pattern: `${"**/".repeat(300)}${A36}`, path: "/w" });
    expect(deep.split("\n")).toHaveLength(121);
    const grep = await ok("grep", {
      pattern: "aaa",
      path: "/w/long",
      glob: `${"[a-z]*".repeat(150)}29`,
    });
    expect(grep.split("\n")).toEqual([`/w/long/${LONG}29`]);
  });
});

describe("patterns past the glob limits are refused at once, naming the fix", () => {
  const REFUSED: Record<string, [string, RegExp]> = {
    "a range of a million": ["/logs/{1..999999}/*.log", /expands to more than 256 patterns/],
    "a brace product of 2^11": ["{a,b}".repeat(11), /expands to more than 256 patterns/],
    "a huge range in a nested group": ["{x,{1..99999999999999999999}}", /expands to more than 256/],
    "ranges multiplying past the limit": ["{1..20}{1..20}", /expands to more than 256 patterns/],
    "alternatives too long together": [`{1..250}${"*a".repeat(10)}`, /more than 4096 characters/],
    "a pattern over 1,000 characters": ["*".repeat(1001), /longer than 1000 characters/],
  };

  it.each(Object.entries(REFUSED))("%s", async (_, [pattern, reason]) => {
    const { backend, fails } = fsTools();
    await backend.write("/logs/1/a.log", "aaa");
    for (const [tool, args] of [
      ["glob", { pattern }],
      ["grep", { pattern: "aaa", glob: pattern }],
    ] as const) {
      const { value, ms } = await timed(() => fails(tool, args));
      expect(value).toMatch(reason);
      expect(value).toMatch(/use a wildcard such as \*|longer than/);
      expect(ms).toBeLessThan(500);
    }
  });

  it("the refusal is an error result, not a crash, and names the argument", async () => {
    const { call } = fsTools();
    const reply = await call("grep", { pattern: "x", glob: "{1..999999}" });
    expect(reply.status).toBe("error");
    expect(textOf(reply)).toMatch(/^Error: glob "\{1\.\.999999\}" is refused: it expands/);
  });
});
