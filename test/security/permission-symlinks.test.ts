/**
 * Hostile model against path rules with symbolic links: a link inside rootDir that leads into
 * a denied subtree (`app/config -> ../secrets`, `app/key -> ../secrets/key.txt`) must be
 * judged by where it really leads, for read, write, edit, delete, ls, glob, grep, upload and
 * download; on FilesystemBackend, LocalShellBackend, a CompositeBackend route, and a link a
 * sandboxed `execute` plants under a FilesystemBackend route. Plus the descriptor check that
 * closes swap races, which must not take a sibling named like rootDir for rootDir.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PermissionRule } from "delve";
import { CompositeBackend, FilesystemBackend, LocalShellBackend, SandboxBackend } from "delve";
import { afterEach, describe, expect, it } from "vitest";
import { runWithApproval } from "../../src/approval/scope.js";
import { Confinement, descriptorPath, FsFailure } from "../../src/backends/disk/safe-fs.js";
import { pathPolicyFromRules, policedBackend } from "../../src/filesystem/permission-guard.js";
import { fsTools, textOf } from "../filesystem/tools/fs-harness.js";
import { HAS_BWRAP } from "./backend-families.js";

const SECRET = "TOPSECRET-h9";
const DENY: PermissionRule[] = [
  { operations: ["read", "write"], paths: ["/secrets/**"], mode: "deny" },
];
const roots: string[] = [];

function workspace(): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "delve-h9-links-")));
  roots.push(root);
  fs.mkdirSync(path.join(root, "secrets", "sub"), { recursive: true });
  fs.writeFileSync(path.join(root, "secrets", "key.txt"), `${SECRET}\n`);
  fs.writeFileSync(path.join(root, "secrets", "sub", "deep.txt"), `${SECRET} deep\n`);
  fs.mkdirSync(path.join(root, "app"));
  fs.mkdirSync(path.join(root, "docs"));
  fs.writeFileSync(path.join(root, "docs", "readme.md"), "public readme\n");
  fs.symlinkSync("../secrets", path.join(root, "app", "config"));
  fs.symlinkSync("../secrets/key.txt", path.join(root, "app", "key"));
  fs.symlinkSync("../docs", path.join(root, "app", "manual"));
  return root;
}

afterEach(() => {
  for (const root of roots.splice(0)) {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(`${root} (deleted)`, { recursive: true, force: true });
  }
});

const secretsOf = (root: string) => fs.readdirSync(path.join(root, "secrets")).sort();

describe("FilesystemBackend: a link into a denied subtree is judged by its target", () => {
  const setup = () => {
    const root = workspace();
    const backend = new FilesystemBackend({ rootDir: root });
    return { root, ...fsTools({ backend, permissions: DENY }) };
  };

  it("read_file through a linked directory and a linked file is refused", async () => {
    const { call } = setup();
    for (const file_path of ["/app/config/key.txt", "/app/config/sub/deep.txt", "/app/key"]) {
      const reply = await call("read_file", { file_path });
      expect(reply.status).toBe("error");
      expect(textOf(reply)).not.toContain(SECRET);
      expect(textOf(reply)).toContain("/secrets/");
    }
  });

  it("write_file through a linked directory creates nothing there, nor a directory", async () => {
    const { root, fails } = setup();
    await fails("write_file", { file_path: "/app/config/new.txt", content: "planted" });
    await fails("write_file", { file_path: "/app/config/newdir/x.txt", content: "planted" });
    expect(secretsOf(root)).toEqual(["key.txt", "sub"]);
  });

  it("edit_file of a linked file leaves it unchanged", async () => {
    const { root, fails } = setup();
    await fails("edit_file", { file_path: "/app/key", old_string: SECRET, new_string: "x" });
    await fails("edit_file", {
      file_path: "/app/config/key.txt",
      old_string: SECRET,
      new_string: "x",
    });
    expect(fs.readFileSync(path.join(root, "secrets", "key.txt"), "utf8")).toBe(`${SECRET}\n`);
  });

  it("delete through a linked directory is refused; deleting the link removes only the link", async () => {
    const { root, fails, ok } = setup();
    await fails("delete", { file_path: "/app/config/key.txt" });
    await fails("delete", { file_path: "/app/config/sub" });
    expect(secretsOf(root)).toEqual(["key.txt", "sub"]);
    await ok("delete", { file_path: "/app/key" });
    expect(fs.existsSync(path.join(root, "app", "key"))).toBe(false);
    expect(secretsOf(root)).toEqual(["key.txt", "sub"]);
  });

  it("ls of a linked directory is refused, and ls of its parent does not list the links", async () => {
    const { call, ok } = setup();
    const reply = await call("ls", { path: "/app/config" });
    expect(reply.status).toBe("error");
    expect(textOf(reply)).not.toMatch(/key\.txt|sub/);
    const listing = await ok("ls", { path: "/app" });
    expect(listing).toContain("/app/manual/");
    expect(listing).not.toMatch(/config|\/app\/key/);
  });

  it("glob finds nothing through or at the links", async () => {
    const { ok } = setup();
    expect(await ok("glob", { pattern: "**", path: "/app/config" })).toBe("No files found");
    const all = await ok("glob", { pattern: "**" });
    expect(all).toContain("/docs/readme.md");
    expect(all).not.toMatch(/secrets|\/app\/key|key\.txt/);
  });

  it("grep finds nothing through a linked directory or file, in any mode", async () => {
    const { ok } = setup();
    for (const path of ["/", "/app", "/app/config", "/app/key"]) {
      for (const output_mode of ["files_with_matches", "content", "count"]) {
        expect(await ok("grep", { pattern: SECRET, path, output_mode })).toMatch(
          /^No matches found\./,
        );
      }
    }
  });

  it("uploadFiles and downloadFiles through the links are refused", async () => {
    const { root, backend } = setup();
    const policed = policedBackend(backend, pathPolicyFromRules(DENY));
    const [down] = await policed.downloadFiles(["/app/key"]);
    expect(down!.error?.code).toBe("permission_denied");
    expect(down!.content).toBeUndefined();
    const [up] = await policed.uploadFiles([
      { path: "/app/config/up.txt", content: new TextEncoder().encode("x") },
    ]);
    expect(up!.error?.code).toBe("permission_denied");
    expect(secretsOf(root)).toEqual(["key.txt", "sub"]);
  });

  it("a link to an allowed directory keeps working for every operation", async () => {
    const { root, ok } = setup();
    expect(await ok("read_file", { file_path: "/app/manual/readme.md" })).toContain(
      "public readme",
    );
    await ok("write_file", { file_path: "/app/manual/new.md", content: "fine" });
    expect(fs.readFileSync(path.join(root, "docs", "new.md"), "utf8")).toBe("fine");
    expect(await ok("grep", { pattern: "public", path: "/app/manual" })).toBe(
      "/app/manual/readme.md",
    );
  });

  it("an approval for the path typed does not cover the link's target", async () => {
    const root = workspace();
    const rules: PermissionRule[] = [
      { operations: ["write"], paths: ["/secrets/**", "/app/**"], mode: "interrupt" },
    ];
    const backend = policedBackend(
      new FilesystemBackend({ rootDir: root }),
      pathPolicyFromRules(rules),
    );
    const approved = {
      toolCallId: "call_1",
      name: "write_file",
      paths: [{ operation: "write" as const, path: "/app/config/x.txt", reason: "" }],
    };
    const result = await runWithApproval(approved, () =>
      backend.write("/app/config/x.txt", "planted"),
    );
    expect(result.error?.code).toBe("permission_denied");
    expect(secretsOf(root)).toEqual(["key.txt", "sub"]);
    // The same approval on a plain path is honoured.
    const plain = await runWithApproval(
      { ...approved, paths: [{ operation: "write", path: "/app/x.txt", reason: "" }] },
      () => backend.write("/app/x.txt", "fine"),
    );
    expect(plain.error).toBeUndefined();
  });

  it("a rule with a wildcard is judged on the target too", async () => {
    const root = workspace();
    const backend = new FilesystemBackend({ rootDir: root });
    const rules: PermissionRule[] = [
      { operations: ["read"], paths: ["/secrets/*.txt"], mode: "deny" },
    ];
    const { call } = fsTools({ backend, permissions: rules });
    expect((await call("read_file", { file_path: "/app/key" })).status).toBe("error");
    // deep.txt is one level further down, but a rule covers everything under what it matches.
    expect((await call("read_file", { file_path: "/app/config/sub/deep.txt" })).status).toBe(
      "success",
    );
  });
});

describe("LocalShellBackend: the same judgement under a path policy", () => {
  it("read, write, edit and delete through links are refused", async () => {
    const root = workspace();
    const shell = policedBackend(
      new LocalShellBackend({ rootDir: root }),
      pathPolicyFromRules(DENY),
    );
    expect((await shell.read("/app/key")).error?.code).toBe("permission_denied");
    expect((await shell.write("/app/config/n.txt", "x")).error?.code).toBe("permission_denied");
    expect((await shell.edit("/app/key", SECRET, "x")).error?.code).toBe("permission_denied");
    expect((await shell.delete!("/app/config/key.txt")).error?.code).toBe("permission_denied");
    const grep = await shell.grep(SECRET, { path: "/app" });
    expect(grep.matches).toEqual([]);
    expect(secretsOf(root)).toEqual(["key.txt", "sub"]);
    expect(fs.readFileSync(path.join(root, "secrets", "key.txt"), "utf8")).toBe(`${SECRET}\n`);
  });
});

describe("CompositeBackend: a route judges its real paths as the composite's", () => {
  it("a link inside a FilesystemBackend route is judged under the route's prefix", async () => {
    const root = workspace();
    const backend = new CompositeBackend({
      default: new FilesystemBackend({ rootDir: workspace() }),
      routes: { "/w/": new FilesystemBackend({ rootDir: root }) },
    });
    const rules: PermissionRule[] = [
      { operations: ["read", "write"], paths: ["/w/secrets"], mode: "deny" },
    ];
    const { call, ok } = fsTools({ backend, permissions: rules });
    expect((await call("read_file", { file_path: "/w/app/key" })).status).toBe("error");
    expect((await call("write_file", { file_path: "/w/app/config/n", content: "x" })).status).toBe(
      "error",
    );
    expect(await ok("grep", { pattern: SECRET, path: "/w", output_mode: "count" })).toBe(
      "No matches found.",
    );
    // The default backend's own /secrets is not what the rule names: it stays readable.
    expect(await ok("read_file", { file_path: "/secrets/key.txt" })).toContain(SECRET);
    expect(secretsOf(root)).toEqual(["key.txt", "sub"]);
  });
});

describe.skipIf(!HAS_BWRAP)("sandbox + FilesystemBackend route: links planted by execute", () => {
  it("a link execute plants after construction is judged by its target", async () => {
    const ws = workspace();
    fs.mkdirSync(path.join(ws, "data"));
    fs.renameSync(path.join(ws, "secrets"), path.join(ws, "data", "secrets"));
    const backend = new CompositeBackend({
      default: new SandboxBackend({ rootDir: ws, timeout: 30 }),
      routes: { "/data/": new FilesystemBackend({ rootDir: path.join(ws, "data") }) },
    });
    const rules: PermissionRule[] = [
      { operations: ["read", "write"], paths: ["/data/secrets"], mode: "deny" },
    ];
    const { call, ok } = fsTools({ backend, permissions: rules });
    await ok("execute", {
      command: "ln -s secrets /workspace/data/pub && ln -s secrets/key.txt /workspace/data/k",
    });
    expect(fs.lstatSync(path.join(ws, "data", "pub")).isSymbolicLink()).toBe(true);
    for (const file_path of ["/data/pub/key.txt", "/data/k"]) {
      const reply = await call("read_file", { file_path });
      expect(reply.status).toBe("error");
      expect(textOf(reply)).not.toContain(SECRET);
    }
    expect((await call("write_file", { file_path: "/data/pub/n.txt", content: "x" })).status).toBe(
      "error",
    );
    expect(await ok("grep", { pattern: SECRET, path: "/data" })).toBe("No matches found.");
    // And the command itself cannot read through its own link: the directory is not mounted.
    expect(await ok("execute", { command: "cat /workspace/data/pub/key.txt; true" })).not.toContain(
      SECRET,
    );
    expect(fs.readdirSync(path.join(ws, "data", "secrets")).sort()).toEqual(["key.txt", "sub"]);
  });
});

describe("the descriptor check never takes a look-alike sibling for rootDir", () => {
  it("a directory named '<rootDir> (deleted)' keeps its full name", () => {
    const root = workspace();
    const twin = `${root} (deleted)`;
    fs.mkdirSync(twin);
    const fd = fs.openSync(twin, "r");
    try {
      expect(descriptorPath(fd)).toBe(twin);
      expect(new Confinement(root, true).inside(descriptorPath(fd))).toBe(false);
    } finally {
      fs.closeSync(fd);
    }
  });

  it("a really deleted directory is refused, not taken for its old path", () => {
    const root = workspace();
    const gone = path.join(root, "gone");
    fs.mkdirSync(gone);
    const fd = fs.openSync(gone, "r");
    try {
      fs.rmdirSync(gone);
      expect(() => descriptorPath(fd)).toThrow(FsFailure);
    } finally {
      fs.closeSync(fd);
    }
  });

  it("'<rootDir>-evil' and '<rootDir> (deleted)/x' are outside the root", () => {
    const root = workspace();
    const jail = new Confinement(root, true);
    expect(jail.inside(`${root}-evil`)).toBe(false);
    expect(jail.inside(`${root}-evil/x`)).toBe(false);
    expect(jail.inside(`${root} (deleted)/x`)).toBe(false);
    expect(jail.inside(`${root}/x`)).toBe(true);
  });

  it("a link to the look-alike sibling is refused by every operation", async () => {
    const root = workspace();
    const twin = `${root} (deleted)`;
    fs.mkdirSync(twin);
    fs.writeFileSync(path.join(twin, "loot.txt"), SECRET);
    fs.symlinkSync(twin, path.join(root, "twin"));
    fs.symlinkSync(`${root}-evil`, path.join(root, "evil"));
    fs.mkdirSync(`${root}-evil`);
    roots.push(`${root}-evil`);
    const backend = new FilesystemBackend({ rootDir: root });
    expect((await backend.read("/twin/loot.txt")).error?.code).toBe("permission_denied");
    expect((await backend.write("/twin/new.txt", "x")).error?.code).toBe("permission_denied");
    expect((await backend.write("/evil/new.txt", "x")).error?.code).toBe("permission_denied");
    expect((await backend.ls("/twin")).error).toBeDefined();
    expect(fs.readdirSync(twin)).toEqual(["loot.txt"]);
    expect(fs.readdirSync(`${root}-evil`)).toEqual([]);
  });
});
