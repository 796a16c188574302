/**
 * Hostile spellings in Unicode: a rule and a path that are the same text in different
 * normalisation forms (NFC "é" as one code point, NFD as "e" + combining accent) must be
 * judged as the same path, whichever side is decomposed, in the rules, the tools and every
 * backend family that keeps names as given.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  decide,
  decideDelete,
  FilesystemBackend,
  InMemoryBackend,
  literalRuleTargets,
  type PermissionRule,
  validatePermissions,
} from "delve";
import { afterEach, describe, expect, it } from "vitest";
import { fsTools } from "../filesystem/tools/fs-harness.js";

const NFC = "/caf\u00e9";
const NFD = "/cafe\u0301";
const deny = (paths: string[], operations: ("read" | "write")[] = ["read", "write"]) =>
  validatePermissions([{ operations, paths, mode: "deny" }]);
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

describe("rules and paths are compared in NFC", () => {
  it("the two spellings differ as strings (the premise of every case)", () => {
    expect(NFC).not.toBe(NFD);
    expect(NFC.normalize("NFC")).toBe(NFD.normalize("NFC"));
  });

  it("a rule pasted in NFD covers the NFC path", () => {
    expect(decide(deny([`${NFD}/**`]), "read", `${NFC}/menu.md`).mode).toBe("deny");
  });

  it("a rule in NFC covers the NFD path", () => {
    expect(decide(deny([`${NFC}/**`]), "read", `${NFD}/menu.md`).mode).toBe("deny");
  });

  it("a validated rule keeps its path in NFC", () => {
    expect(deny([`${NFD}/**`])[0]!.paths).toEqual([`${NFC}/**`]);
  });

  it("a wildcard rule with a decomposed letter covers the composed file name", () => {
    const rules = deny(["/docs/r\u0065\u0301sum\u0065\u0301*.md"], ["read"]);
    expect(decide(rules, "read", "/docs/r\u00e9sum\u00e9-2026.md").mode).toBe("deny");
  });

  it("a delete of the NFC parent is blocked by an NFD rule below it", () => {
    expect(decideDelete(deny([`${NFD}/secret`], ["write"]), "/").mode).toBe("deny");
    expect(decideDelete(deny([`${NFD}/secret`], ["write"]), NFC).mode).toBe("deny");
  });

  it("an allow carve-out written in NFD still carves the NFC path", () => {
    const rules = validatePermissions([
      { operations: ["write"], paths: [`${NFD}/drafts/**`], mode: "allow" },
      { operations: ["write"], paths: [`${NFC}/**`], mode: "deny" },
    ]);
    expect(decide(rules, "write", `${NFC}/drafts/a.md`).mode).toBe("allow");
    expect(decide(rules, "write", `${NFD}/menu.md`).mode).toBe("deny");
  });

  it("the sandbox is told the NFC path to hide", () => {
    expect(literalRuleTargets(deny([`${NFD}/**`], ["read"])).hide).toEqual([NFC]);
  });

  it("compatibility look-alikes are still judged by their NFKC reading too", () => {
    // U+FB01 "ﬁ" is not NFC-equal to "fi", but some layer may fold it: the strictest wins.
    expect(decide(deny(["/fin/**"], ["read"]), "read", "/\ufb01n/a.md").mode).toBe("deny");
  });
});

describe("the file tools judge both spellings alike", () => {
  const rulesNfd: PermissionRule[] = [
    { operations: ["read", "write"], paths: [`${NFD}/**`], mode: "deny" },
  ];

  it("read_file and write_file of the NFC name are refused by an NFD rule (in-memory)", async () => {
    const backend = new InMemoryBackend();
    await backend.write(`${NFC}/menu.md`, "secret menu");
    const { call } = fsTools({ backend, permissions: rulesNfd });
    expect((await call("read_file", { file_path: `${NFC}/menu.md` })).status).toBe("error");
    expect((await call("write_file", { file_path: `${NFC}/new.md`, content: "x" })).status).toBe(
      "error",
    );
  });

  it("grep and glob hide a file stored under the NFD name from an NFC rule (in-memory)", async () => {
    const backend = new InMemoryBackend();
    await backend.write(`${NFD}/menu.md`, "secret menu");
    await backend.write("/open.md", "secret menu");
    const rules: PermissionRule[] = [{ operations: ["read"], paths: [NFC], mode: "deny" }];
    const { ok } = fsTools({ backend, permissions: rules });
    expect(await ok("grep", { pattern: "secret", output_mode: "count" })).toBe("/open.md: 1");
    expect(await ok("glob", { pattern: "**" })).toBe("/open.md");
  });

  it("on disk, a file named in NFD is hidden and refused under an NFC rule", async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "delve-h9-nfc-")));
    roots.push(root);
    fs.mkdirSync(path.join(root, NFD.slice(1)));
    fs.writeFileSync(path.join(root, NFD.slice(1), "menu.md"), "secret menu");
    fs.writeFileSync(path.join(root, "open.md"), "secret menu");
    const rules: PermissionRule[] = [
      { operations: ["read", "write"], paths: [`${NFC}/**`], mode: "deny" },
    ];
    const { call, ok } = fsTools({
      backend: new FilesystemBackend({ rootDir: root }),
      permissions: rules,
    });
    expect((await call("read_file", { file_path: `${NFD}/menu.md` })).status).toBe("error");
    expect(await ok("grep", { pattern: "secret", output_mode: "count" })).toBe("/open.md: 1");
    expect(await ok("ls", { path: "/" })).not.toContain("cafe");
    expect((await call("write_file", { file_path: `${NFD}/x.md`, content: "x" })).status).toBe(
      "error",
    );
  });
});
