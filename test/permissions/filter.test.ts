import { InMemoryBackend, validatePermissions } from "delve";
import { describe, expect, it } from "vitest";
import { formatGrep, GREP_OUTPUT_MODES } from "../../src/filesystem/tools/grep.js";
import {
  canRead,
  filterFileInfos,
  filterGrepMatches,
  filterReadable,
} from "../../src/permissions/filter.js";

const SECRET = "TOKEN-7f3a";

function backendWithSecrets() {
  return new InMemoryBackend({
    files: {
      "/notes/a.md": `mentions TOKEN but not the value\n`,
      "/notes/.hidden/b.md": "nothing\n",
      "/secrets/api-key.txt": `${SECRET}\n`,
      "/secrets/.env": `KEY=${SECRET}\n`,
      "/secrets/deep/.ssh/id_rsa": `${SECRET}\n`,
      "/vault/private/x.txt": `${SECRET}\n`,
      "/vault/public/y.txt": "TOKEN-public\n",
      "/reports/q1.pem": `${SECRET}\n`,
    },
  });
}

const rules = validatePermissions([
  { operations: ["read"], paths: ["/secrets/**"], mode: "deny" },
  { operations: ["read"], paths: ["/vault/private"], mode: "interrupt" },
  { operations: ["read"], paths: ["/**/*.pem"], mode: "deny" },
]);

describe("visibility filters", () => {
  it("ls/glob/grep filters hide denied paths", async () => {
    const backend = backendWithSecrets();
    const root = filterFileInfos(rules, (await backend.ls("/")).files ?? []);
    expect(root.map((f) => f.path).sort()).toEqual(["/notes/", "/reports/", "/vault/"]);

    const inside = filterFileInfos(rules, (await backend.ls("/secrets")).files ?? []);
    expect(inside).toEqual([]);

    const globbed = filterFileInfos(rules, (await backend.glob("**")).files ?? []);
    expect(globbed.map((f) => f.path).sort()).toEqual(["/notes/a.md", "/vault/public/y.txt"]);

    const grep = await backend.grep("TOKEN");
    const visible = filterGrepMatches(rules, grep.matches ?? []);
    for (const mode of GREP_OUTPUT_MODES) {
      const text = formatGrep(visible, mode);
      expect(text, mode).not.toContain(SECRET);
      expect(text, mode).not.toMatch(/secrets|private|\.pem/);
      expect(text, mode).toContain("/vault/public/y.txt");
    }
  });

  it("the unfiltered results did contain the protected paths (the filter is what hides them)", async () => {
    const backend = backendWithSecrets();
    const grep = await backend.grep("TOKEN");
    expect(formatGrep(grep.matches ?? [], "content")).toContain(SECRET);
    expect(((await backend.ls("/")).files ?? []).map((f) => f.path)).toContain("/secrets/");
  });

  it("a directory entry matched by a /dir/** rule is hidden; a directory holding only some denied files stays", () => {
    const entries = [
      { path: "/secrets/", isDir: true },
      { path: "/reports/", isDir: true },
      { path: "/reports/q1.pem", isDir: false },
      { path: "/reports/q1.md", isDir: false },
    ];
    expect(filterFileInfos(rules, entries).map((e) => e.path)).toEqual([
      "/reports/",
      "/reports/q1.md",
    ]);
  });

  it("interrupt read rules hide entries from listings: they are not readable without approval", () => {
    expect(canRead(rules, "/vault/private/x.txt")).toBe(false);
    expect(canRead(rules, "/vault/private")).toBe(false);
    expect(canRead(rules, "/vault/public/y.txt")).toBe(true);
  });

  it("write rules do not hide anything from listings", () => {
    const writeOnly = validatePermissions([
      { operations: ["write"], paths: ["/**"], mode: "deny" },
    ]);
    const entries = [{ path: "/a", isDir: false }];
    expect(filterFileInfos(writeOnly, entries)).toEqual(entries);
  });

  it("an allow exception before a deny keeps its entries visible", () => {
    const withException = validatePermissions([
      { operations: ["read"], paths: ["/secrets/README.md"], mode: "allow" },
      { operations: ["read"], paths: ["/secrets"], mode: "deny" },
    ]);
    const items = [{ path: "/secrets/README.md" }, { path: "/secrets/.env" }];
    expect(filterReadable(withException, items)).toEqual([{ path: "/secrets/README.md" }]);
  });
});
