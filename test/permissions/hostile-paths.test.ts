import { canRead, checkVirtualPath, decide, decideDelete, validatePermissions } from "delve";
import { describe, expect, it } from "vitest";
import { filterFileInfos, filterGrepMatches } from "../../src/permissions/filter.js";

const rules = validatePermissions([
  { operations: ["read", "write"], paths: ["/secrets/**"], mode: "deny" },
  { operations: ["write"], paths: ["/policies/**"], mode: "deny" },
]);

// Each path names something under /secrets (or /secrets itself) in a non-normal way.
const HOSTILE_SECRET_PATHS = [
  "secrets/.env", // relative
  "./secrets/.env", // leading ./
  "/secrets//.env", // doubled slash
  "//secrets/.env", // leading doubled slash
  "/secrets/./.env", // inner ./
  "/secrets/", // trailing slash on the directory
  "/secrets/.env/", // trailing slash on the file
  "/secrets///", // several trailing slashes
  "/x/../secrets/.env", // traversal through a sibling
  "/notes/a/../../secrets/.env", // deeper traversal
  "/../secrets/.env", // traversal above the root
  "/secrets/../secrets/.env", // out and back in
  "/secrets/sub/../.env", // inner .. staying inside
  "././/secrets/./sub//../.ssh/id_rsa", // everything at once
  "/secrets/.ENV", // case variation inside the wildcard part
  "/secrets/.Ssh/Id_Rsa", // case variation of a dot-directory
  "/notes\\..\\secrets\\.env", // backslashes
  "/secrets%2F.env", // percent-encoded slash
  "/notes/%2e%2e/secrets/.env", // percent-encoded dots
  "/secrets/.env\u0000.txt", // NUL truncation
  "/notes/\uff0e\uff0e/secrets/.env", // full-width dots
];

describe("hostile non-normalised permission paths", () => {
  it(`all ${HOSTILE_SECRET_PATHS.length} spellings of a /secrets path are denied for read and write`, () => {
    expect(HOSTILE_SECRET_PATHS.length).toBeGreaterThanOrEqual(10);
    for (const path of HOSTILE_SECRET_PATHS) {
      expect(decide(rules, "read", path).mode, JSON.stringify(path)).toBe("deny");
      expect(decide(rules, "write", path).mode, JSON.stringify(path)).toBe("deny");
      expect(canRead(rules, path), JSON.stringify(path)).toBe(false);
      expect(decideDelete(rules, path).mode, JSON.stringify(path)).toBe("deny");
    }
  });

  it("every spelling is either refused by the tools' path check or normalises to a denied path", () => {
    for (const path of HOSTILE_SECRET_PATHS) {
      const checked = checkVirtualPath(path);
      if (checked.ok)
        expect(decide(rules, "read", checked.path).mode, JSON.stringify(path)).toBe("deny");
    }
  });

  it("listings and grep results carrying hostile spellings are filtered out", () => {
    const infos = HOSTILE_SECRET_PATHS.map((path) => ({ path, isDir: false }));
    expect(filterFileInfos(rules, [...infos, { path: "/notes/a.md", isDir: false }])).toEqual([
      { path: "/notes/a.md", isDir: false },
    ]);
    const matches = HOSTILE_SECRET_PATHS.map((path) => ({ path, line: 1, text: "KEY=1" }));
    expect(filterGrepMatches(rules, matches)).toEqual([]);
  });

  it("hostile spellings of a write-protected path are denied for write and delete", () => {
    const spellings = [
      "policies/a.md",
      "/policies//a.md",
      "/policies/./a.md",
      "/policies/a.md/",
      "/x/../policies/a.md",
      "/../policies",
      "//policies",
      "/policies/drafts/../a.md",
      "/notes\\..\\policies\\a.md",
      "/policies%2fa.md",
    ];
    for (const path of spellings) {
      expect(decide(rules, "write", path).mode, path).toBe("deny");
      expect(decideDelete(rules, path).mode, path).toBe("deny");
    }
  });

  it("near misses stay allowed: the normalisation does not over-match", () => {
    for (const path of ["/secrets-old/.env", "/notes/secrets/.env", "/secret/.env", "/x/secrets"]) {
      expect(decide(rules, "read", path).mode, path).toBe("allow");
    }
  });
});
