/**
 * Hostile model against listings: ls, glob and grep must drop denied paths inside the walk,
 * before any cap or count, for every backend family. The attacks compare two worlds that
 * differ only in a denied file (present with a guess, present without it, or absent): every
 * answer must be the same in both, and an allowed match behind 1,000 denied ones is found.
 */

import type { PermissionRule } from "delve";
import { afterEach, describe, expect, it } from "vitest";
import { fsTools, textOf } from "../filesystem/tools/fs-harness.js";
import { FAMILIES, type Family, type FamilyBackend } from "./backend-families.js";

const DENY: PermissionRule[] = [
  { operations: ["read"], paths: ["/w/a-secret.txt", "/w/denied", "/w/d/only.txt"], mode: "deny" },
];
const CAP = 1000;

const lines = (text: string, n: number) => `${Array.from({ length: n }, () => text).join("\n")}\n`;
const open: FamilyBackend[] = [];

async function world(
  family: Family,
  files: Record<string, string>,
  rules: PermissionRule[] = DENY,
) {
  const made = family.make();
  open.push(made);
  await made.seed(files);
  const tools = fsTools({ backend: made.backend, permissions: rules });
  const text = async (name: string, args: Record<string, unknown>) =>
    textOf(await tools.call(name, args));
  return { ...tools, text };
}

afterEach(() => {
  for (const made of open.splice(0)) made.cleanup();
});

// The same call answered in two worlds.
async function both(
  family: Family,
  a: Record<string, string>,
  b: Record<string, string>,
  name: string,
  args: Record<string, unknown>,
  rules?: PermissionRule[],
) {
  const first = await (await world(family, a, rules)).text(name, args);
  const second = await (await world(family, b, rules)).text(name, args);
  return [first, second] as const;
}

const manyFiles = (dir: string, n: number, text: string) =>
  Object.fromEntries(
    Array.from({ length: n }, (_, i) => [`${dir}/f${String(i).padStart(4, "0")}.txt`, text]),
  );

describe.each(FAMILIES.map((f) => [f.name, f] as const))(
  "%s: walks hide denied paths",
  (_, family) => {
    const readable = { "/w/b.txt": lines("GUESS", CAP) };

    it("grep counts do not depend on a denied file's content (the count oracle)", async () => {
      const [hit, miss] = await both(
        family,
        { ...readable, "/w/a-secret.txt": "GUESS\n" },
        { ...readable, "/w/a-secret.txt": "nothing here\n" },
        "grep",
        { pattern: "GUESS", path: "/w", output_mode: "count" },
      );
      expect(hit).toBe(miss);
      expect(hit).toBe(`/w/b.txt: ${CAP}`);
    });

    it("the oracle reads the same in files_with_matches and content modes", async () => {
      for (const output_mode of ["files_with_matches", "content"]) {
        const [hit, miss] = await both(
          family,
          { ...readable, "/w/a-secret.txt": "GUESS\n" },
          readable,
          "grep",
          { pattern: "GUESS", path: "/w", output_mode },
        );
        expect(hit).toBe(miss);
        expect(hit).not.toContain("Stopped");
      }
    });

    it("an allowed match after 1,000 denied matching lines is found", async () => {
      const w = await world(family, {
        "/w/a-secret.txt": lines("needle", CAP + 1),
        "/w/z.txt": "needle\n",
      });
      expect(await w.text("grep", { pattern: "needle", path: "/w", output_mode: "count" })).toBe(
        "/w/z.txt: 1",
      );
    });

    it("an allowed match after 1,001 denied files is found by grep and glob", async () => {
      const w = await world(family, {
        ...manyFiles("/w/denied", CAP + 1, "needle\n"),
        "/w/z.txt": "needle\n",
      });
      expect(await w.text("grep", { pattern: "needle", path: "/w" })).toBe("/w/z.txt");
      expect(await w.text("glob", { pattern: "**", path: "/w" })).toBe("/w/z.txt");
    });

    it("glob's cap and truncation note count visible files only", async () => {
      const visible = manyFiles("/w/k", CAP, "x");
      const [hit, miss] = await both(
        family,
        { ...visible, "/w/a-secret.txt": "s" },
        visible,
        "glob",
        { pattern: "**", path: "/w" },
      );
      expect(hit).toBe(miss);
      expect(hit).not.toContain("Stopped");
      expect(hit.split("\n")).toHaveLength(CAP);
    });

    it("grep on a denied file answers the same whether it exists or not", async () => {
      const [present, absent] = await both(
        family,
        { ...readable, "/w/a-secret.txt": "GUESS\n" },
        readable,
        "grep",
        { pattern: "GUESS", path: "/w/a-secret.txt" },
      );
      expect(present).toBe(absent);
    });

    it("glob in a denied directory answers the same whether it exists or not", async () => {
      const [present, absent] = await both(
        family,
        { ...readable, "/w/denied/x.txt": "GUESS\n" },
        readable,
        "glob",
        { pattern: "*", path: "/w/denied" },
      );
      expect(present).toBe(absent);
      expect(present).not.toContain("x.txt");
    });

    it("ls never names a denied file, nor a map directory made only of denied files", async () => {
      const w = await world(family, { ...readable, "/w/a-secret.txt": "s", "/w/d/only.txt": "s" });
      const listing = await w.text("ls", { path: "/w" });
      expect(listing).toContain("/w/b.txt");
      expect(listing).not.toMatch(/a-secret|only\.txt/);
      // Map backends have no directories of their own: /w/d exists only through the denied file.
      if (!["disk", "composite", "sandbox"].includes(family.name)) {
        expect(listing).not.toContain("/w/d/");
      }
    });

    it("grep with a file filter skips denied files before the cap", async () => {
      const w = await world(family, {
        "/w/a-secret.txt": lines("needle", CAP),
        "/w/z.txt": "needle\n",
      });
      const text = await w.text("grep", {
        pattern: "needle",
        path: "/w",
        glob: "*.txt",
        output_mode: "count",
      });
      expect(text).toBe("/w/z.txt: 1");
    });

    it("a denied file's unique content is never found, in any mode", async () => {
      for (const output_mode of ["files_with_matches", "content", "count"]) {
        const [present, absent] = await both(
          family,
          { ...readable, "/w/a-secret.txt": "sk-live-UNIQUE\n" },
          readable,
          "grep",
          { pattern: "sk-live-UNIQUE", output_mode },
        );
        expect(present).toBe(absent);
        expect(present).not.toContain("a-secret");
      }
    });

    it("glob for a denied file's exact name finds nothing, as for a missing one", async () => {
      const [present, absent] = await both(
        family,
        { ...readable, "/w/a-secret.txt": "s" },
        readable,
        "glob",
        { pattern: "a-secret.txt", path: "/w" },
      );
      expect(present).toBe(absent);
    });

    it.skipIf(!family.wildcards)(
      "paths behind an interrupt read rule are hidden from the walk as well",
      async () => {
        const rules: PermissionRule[] = [
          { operations: ["read"], paths: ["/w/a-*"], mode: "interrupt" },
        ];
        const [hit, miss] = await both(
          family,
          { ...readable, "/w/a-secret.txt": "GUESS\n" },
          { ...readable, "/w/a-secret.txt": "none\n" },
          "grep",
          { pattern: "GUESS", path: "/w", output_mode: "count" },
          rules,
        );
        expect(hit).toBe(miss);
        expect(hit).toBe(`/w/b.txt: ${CAP}`);
      },
    );
  },
);
