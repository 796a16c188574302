/**
 * Hostile paths against FilesystemBackend (virtual mode). Every case runs every operation on
 * its paths (read, ls, glob, grep, download, then edit, write, upload, delete) in a fresh root
 * next to an "outside" directory holding a secret, and then asserts that:
 *  - the outside directory is byte for byte unchanged (no file added, changed or removed);
 *  - no result anywhere carries the secret content marker, nor the name of an outside file;
 *  - each operation on the hostile path was refused with the expected error code.
 * Links into the real /etc are attacked with read operations and with writes to a fresh probe
 * name only, so a regression could never clobber a system file.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { FilesystemBackend, LocalShellBackend } from "delve";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MALFORMED_PATHS, serialize } from "../helpers/hostile-paths.js";

const tag = randomBytes(6).toString("hex");
const CONTENT_MARKER = `DELVE-SECRET-${tag}`;
const NAME_MARKER = `delvenamemark${tag}`;
const PROBE = `delve-probe-${tag}`;
const ETC_PASSWD_LINE = "root:x:0:0";
const enc = new TextEncoder();

let outside: string;
let outsideName: string;
let outsideBefore: Record<string, string>;

beforeAll(() => {
  outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "delve-outside-")));
  outsideName = path.basename(outside);
  fs.writeFileSync(path.join(outside, "secret.txt"), `top secret\n${CONTENT_MARKER}\n`);
  fs.writeFileSync(path.join(outside, `${NAME_MARKER}.txt`), `${CONTENT_MARKER}\n`);
  fs.mkdirSync(path.join(outside, "sub"));
  fs.writeFileSync(path.join(outside, "sub", "deep.txt"), `deep ${CONTENT_MARKER}\n`);
  outsideBefore = snapshot(outside);
});

afterAll(() => {
  fs.rmSync(outside, { recursive: true, force: true });
});

// Every entry below `dir` with its content (files), target (symlinks) or a dir mark.
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (p: string) => {
    for (const name of fs.readdirSync(p)) {
      const full = path.join(p, name);
      const stat = fs.lstatSync(full);
      if (stat.isSymbolicLink()) out[full] = `link:${fs.readlinkSync(full)}`;
      else if (stat.isDirectory()) {
        out[full] = "dir";
        visit(full);
      } else out[full] = fs.readFileSync(full, "latin1");
    }
  };
  visit(dir);
  return out;
}

type Expect = "invalid_path" | "symlink" | "hardlink" | "inside";

interface Ctx {
  root: string;
  backend: FilesystemBackend;
  shell: LocalShellBackend;
}

interface HostileCase {
  name: string;
  paths: (ctx: Ctx) => string[];
  expect: Expect;
  setup?: (ctx: Ctx) => void | Promise<void>;
  /** False when the paths may reach real system files: writes go to a probe name instead. */
  writable?: boolean;
  probe?: string;
}

const REFUSED = ["invalid_path", "permission_denied"];

async function attack(ctx: Ctx, p: string, writes: boolean) {
  const b = ctx.backend;
  const results: Record<string, any> = {
    read: await b.read(p),
    ls: await b.ls(p),
    globUnder: await b.glob("**", { path: p }),
    globPattern: await b.glob(p),
    grepUnder: await b.grep(CONTENT_MARKER, { path: p }),
    download: (await b.downloadFiles([p]))[0],
  };
  if (writes) {
    results.edit = await b.edit(p, CONTENT_MARKER, "pwned", { replaceAll: true });
    results.write = await b.write(p, "pwned");
    results.upload = (await b.uploadFiles([{ path: p, content: enc.encode("pwned") }]))[0];
  }
  return results;
}

function expectRefusals(kind: Expect, p: string, r: Record<string, any>) {
  const pathOps = ["read", "ls", "globUnder", "grepUnder", "download"];
  const fileOps = ["read", "download", "edit", "write", "upload"];
  if (kind === "invalid_path") {
    for (const op of [...pathOps, "edit", "write", "upload", "delete"]) {
      if (r[op]) expect(r[op].error?.code, `${op} ${JSON.stringify(p)}`).toBe("invalid_path");
    }
  } else if (kind === "symlink") {
    for (const op of [...pathOps, "edit", "write", "upload"]) {
      if (r[op]) expect(REFUSED, `${op} ${p}`).toContain(r[op].error?.code);
    }
    // Deleting the link itself is allowed; nothing through it may go.
    if (r.delete && !r.delete.error) expect(r.delete.deleted).toEqual([p]);
  } else if (kind === "hardlink") {
    for (const op of fileOps) {
      if (!r[op]) continue;
      expect(r[op].error?.code, `${op} ${p}`).toBe("permission_denied");
      expect(r[op].error?.message).toContain("hard link");
    }
  }
}

async function runCase(c: HostileCase) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "delve-hostile-")));
  const ctx: Ctx = {
    root,
    backend: new FilesystemBackend({ rootDir: root }),
    shell: new LocalShellBackend({ rootDir: root, env: { OUT: outside }, timeout: 10 }),
  };
  try {
    fs.writeFileSync(path.join(root, "own.txt"), "my own file\n");
    await c.setup?.(ctx);
    const targets = c.paths(ctx).map((p) => ({ p, writes: c.writable ?? true }));
    if (c.probe) targets.push({ p: c.probe, writes: true });
    const all: unknown[] = [];
    for (const { p, writes } of targets) {
      const r = await attack(ctx, p, writes);
      expectRefusals(c.expect, p, r);
      all.push(r);
    }
    // Deletes last: removing a link would make the later paths of the case plain misses.
    for (const { p, writes } of targets) {
      if (!writes) continue;
      const r = { delete: await ctx.backend.delete(p) };
      expectRefusals(c.expect, p, r);
      all.push(r);
    }
    // The whole tree, seen from the root, shows nothing of the outside either.
    const b = ctx.backend;
    const sweep = {
      ls: await b.ls("/"),
      glob: await b.glob("**"),
      globDot: await b.glob("**/.*"),
      grep: await b.grep(CONTENT_MARKER),
      grepPasswd: await b.grep(ETC_PASSWD_LINE),
    };
    expect(sweep.grep.matches ?? []).toEqual([]);
    expect(sweep.grepPasswd.matches ?? []).toEqual([]);
    all.push(sweep);
    const text = serialize(all);
    expect(text).not.toContain(CONTENT_MARKER);
    expect(text).not.toContain(NAME_MARKER);
    expect(text).not.toContain(ETC_PASSWD_LINE);
    expect(snapshot(outside)).toEqual(outsideBefore);
    expect(fs.existsSync(`/etc/${PROBE}`)).toBe(false);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

// Runs in a worker thread: plain renames, so "a" changes many times per backend call. A
// directory the backend creates at "a" while "a" is away is swept away.
const SWAPPER = `
const fs = require("node:fs");
const { workerData: { root, stop } } = require("node:worker_threads");
const [a, dir, link] = [root + "/a", root + "/a_dir", root + "/a_link"];
const exists = (p) => { try { fs.lstatSync(p); return true; } catch { return false; } };
while (Atomics.load(stop, 0) === 0) {
  try { fs.renameSync(dir, a); fs.renameSync(a, dir); } catch {}
  try { fs.renameSync(link, a); fs.renameSync(a, link); } catch {}
  if (exists(dir) && exists(link) && exists(a)) {
    try { fs.rmSync(a, { recursive: true, force: true }); } catch {}
  }
}
`;

const fixed =
  (...paths: string[]) =>
  () =>
    paths;

const cases: Record<string, HostileCase[]> = {
  traversal: [
    ...MALFORMED_PATHS.traversal.map(
      (p): HostileCase => ({ name: p, paths: fixed(p), expect: "invalid_path" }),
    ),
    {
      name: "../<outside>/secret.txt (the sibling directory)",
      paths: () => [`../${outsideName}/secret.txt`, `/x/../../${outsideName}/sub/deep.txt`],
      expect: "invalid_path",
    },
    {
      name: "an absolute host path is taken as a path under the root",
      paths: () => [`${outside}/secret.txt`],
      expect: "inside",
    },
    {
      name: "/proc/self/root/<outside> is a path under the root",
      paths: () => [`/proc/self/root${outside}/secret.txt`],
      expect: "inside",
    },
  ],
  tilde: [
    ...MALFORMED_PATHS.tilde.map(
      (p): HostileCase => ({ name: p, paths: fixed(p), expect: "invalid_path" }),
    ),
    { name: "/~/x is a directory named ~ under the root", paths: fixed("/~/x"), expect: "inside" },
    { name: "a/~/b stays under the root", paths: fixed("a/~/b"), expect: "inside" },
  ],
  nul: MALFORMED_PATHS.nul.map(
    (p): HostileCase => ({ name: JSON.stringify(p), paths: fixed(p), expect: "invalid_path" }),
  ),
  encodings: MALFORMED_PATHS.encodings.map(
    (p): HostileCase => ({ name: JSON.stringify(p), paths: fixed(p), expect: "invalid_path" }),
  ),
  backslashes: MALFORMED_PATHS.backslashes.map(
    (p): HostileCase => ({ name: JSON.stringify(p), paths: fixed(p), expect: "invalid_path" }),
  ),
  "outward symlinks": [
    {
      name: "a file symlink with an absolute target",
      setup: ({ root }) => fs.symlinkSync(path.join(outside, "secret.txt"), `${root}/ln_file`),
      paths: fixed("/ln_file"),
      expect: "symlink",
    },
    {
      name: "a file symlink with a relative target",
      setup: ({ root }) =>
        fs.symlinkSync(path.relative(root, path.join(outside, "secret.txt")), `${root}/ln_rel`),
      paths: fixed("/ln_rel"),
      expect: "symlink",
    },
    {
      name: "a directory symlink with an absolute target",
      setup: ({ root }) => fs.symlinkSync(outside, `${root}/ln_dir`),
      paths: fixed("/ln_dir", "/ln_dir/secret.txt", "/ln_dir/sub/deep.txt", "/ln_dir/new.txt"),
      expect: "symlink",
    },
    {
      name: "a directory symlink with a relative target",
      setup: ({ root }) => fs.symlinkSync(path.relative(root, outside), `${root}/ln_dir_rel`),
      paths: fixed("/ln_dir_rel/secret.txt", "/ln_dir_rel/new/x.txt"),
      expect: "symlink",
    },
    {
      name: "a chain of directory symlinks that ends outside",
      setup: ({ root }) => {
        fs.symlinkSync("hop2", `${root}/hop1`);
        fs.symlinkSync(outside, `${root}/hop2`);
      },
      paths: fixed("/hop1", "/hop1/secret.txt", "/hop1/made.txt"),
      expect: "symlink",
    },
    {
      name: "a chain of file symlinks that ends outside",
      setup: ({ root }) => {
        fs.symlinkSync("c2", `${root}/c1`);
        fs.symlinkSync(path.join(outside, "secret.txt"), `${root}/c2`);
      },
      paths: fixed("/c1"),
      expect: "symlink",
    },
    {
      name: "a symlink deep in the tree climbing out relatively",
      setup: ({ root }) => {
        fs.mkdirSync(`${root}/sub/deep`, { recursive: true });
        fs.symlinkSync(path.relative(`${root}/sub/deep`, outside), `${root}/sub/deep/ln`);
      },
      paths: fixed("/sub/deep/ln/secret.txt", "/sub/deep/ln"),
      expect: "symlink",
    },
    {
      name: "a dangling file symlink pointing outside is not created through",
      setup: ({ root }) => fs.symlinkSync(path.join(outside, "created.txt"), `${root}/dangling`),
      paths: fixed("/dangling"),
      expect: "symlink",
    },
    {
      name: "a dangling directory symlink pointing outside is not created through",
      setup: ({ root }) => fs.symlinkSync(path.join(outside, "newdir"), `${root}/dd`),
      paths: fixed("/dd/x.txt", "/dd/deeper/y.txt"),
      expect: "symlink",
    },
    {
      name: "a symlink to the host root",
      setup: ({ root }) => fs.symlinkSync("/", `${root}/rootlink`),
      paths: () => [`/rootlink${outside}/secret.txt`, `/rootlink${outside}`],
      expect: "symlink",
    },
    {
      name: "a symlink to the parent directory",
      setup: ({ root }) => fs.symlinkSync("..", `${root}/up`),
      paths: () => [`/up/${outsideName}/secret.txt`, `/up/${outsideName}/new.txt`],
      expect: "symlink",
    },
    {
      name: "a symlink loop",
      setup: ({ root }) => {
        fs.symlinkSync("loop2", `${root}/loop1`);
        fs.symlinkSync("loop1", `${root}/loop2`);
      },
      paths: fixed("/loop1", "/loop1/x"),
      expect: "symlink",
    },
    {
      name: "a symlink inside a real directory",
      setup: ({ root }) => {
        fs.mkdirSync(`${root}/inside_dir`);
        fs.symlinkSync(path.join(outside, "sub"), `${root}/inside_dir/ln`);
      },
      paths: fixed("/inside_dir/ln/deep.txt", "/inside_dir/ln"),
      expect: "symlink",
    },
    {
      name: "a symlink through /proc/self/root",
      setup: ({ root }) => fs.symlinkSync("/proc/self/root", `${root}/procroot`),
      paths: () => [`/procroot${outside}/secret.txt`],
      expect: "symlink",
    },
    {
      name: "a symlink named like a media file",
      setup: ({ root }) => fs.symlinkSync(path.join(outside, "secret.txt"), `${root}/ln.png`),
      paths: fixed("/ln.png"),
      expect: "symlink",
    },
  ],
  "symlinks made by a command": [
    {
      name: "ln -s /etc outside",
      setup: async ({ shell }) => void (await shell.execute("ln -s /etc outside")),
      paths: fixed("/outside/passwd", "/outside", "/outside/hostname"),
      writable: false,
      probe: `/outside/${PROBE}`,
      expect: "symlink",
    },
    {
      name: 'ln -s "$OUT" o',
      setup: async ({ shell }) => void (await shell.execute('ln -s "$OUT" o')),
      paths: fixed("/o/secret.txt", "/o", "/o/new.txt"),
      expect: "symlink",
    },
    {
      name: 'ln -s "$OUT/secret.txt" s',
      setup: async ({ shell }) => void (await shell.execute('ln -s "$OUT/secret.txt" s')),
      paths: fixed("/s"),
      expect: "symlink",
    },
    {
      name: "a symlink made in a new directory",
      setup: async ({ shell }) => void (await shell.execute('mkdir d && ln -s "$OUT" d/x')),
      paths: fixed("/d/x/secret.txt", "/d/x/sub/new.txt"),
      expect: "symlink",
    },
    {
      name: "a relative symlink made by a command",
      setup: async ({ shell }) =>
        void (await shell.execute('ln -s "$(realpath --relative-to=. "$OUT")" rel')),
      paths: fixed("/rel/secret.txt"),
      expect: "symlink",
    },
    {
      name: "a directory the backend used is swapped for a symlink later",
      setup: async ({ backend, shell }) => {
        await backend.write("/work/a.txt", "mine");
        await shell.execute('rm -rf work && ln -s "$OUT" work');
      },
      paths: fixed("/work/secret.txt", "/work/a.txt", "/work"),
      expect: "symlink",
    },
    {
      name: "a file the backend wrote is swapped for a symlink later",
      setup: async ({ backend, shell }) => {
        await backend.write("/f.txt", "mine");
        await shell.execute('rm f.txt && ln -s "$OUT/secret.txt" f.txt');
      },
      paths: fixed("/f.txt"),
      expect: "symlink",
    },
    {
      name: "ln -s / r",
      setup: async ({ shell }) => void (await shell.execute("ln -s / r")),
      paths: () => [`/r${outside}/secret.txt`, `/r${outside}/new.txt`],
      expect: "symlink",
    },
    {
      name: "a chain made by a command",
      setup: async ({ shell }) => void (await shell.execute('ln -s "$OUT" c && ln -s c c2')),
      paths: fixed("/c2/secret.txt", "/c2"),
      expect: "symlink",
    },
    {
      name: "ln -s /proc/self/root pr",
      setup: async ({ shell }) => void (await shell.execute("ln -s /proc/self/root pr")),
      paths: () => [`/pr${outside}/secret.txt`],
      expect: "symlink",
    },
    {
      name: "ln -s /etc/passwd pw",
      setup: async ({ shell }) => void (await shell.execute("ln -s /etc/passwd pw")),
      paths: fixed("/pw"),
      writable: false,
      expect: "symlink",
    },
    {
      name: "a symlink made deep in new directories",
      setup: async ({ shell }) =>
        void (await shell.execute('mkdir -p x/y && ln -s "$OUT/sub" x/y/z')),
      paths: fixed("/x/y/z/deep.txt", "/x/y/z/new.txt"),
      expect: "symlink",
    },
    {
      name: "a dangling symlink made by a command",
      setup: async ({ shell }) => void (await shell.execute('ln -s "$OUT/no-such-dir" nd')),
      paths: fixed("/nd/x.txt", "/nd"),
      expect: "symlink",
    },
  ],
  "hard links": [
    ...[
      "/hl.txt",
      "/sub/hl.txt",
      "/hl.png",
      "/deep/a/b/hl.md",
      "/.hidden_hl",
      "/hl with space.txt",
      "/工单.txt",
      "/hl.json",
      "/hl.pdf",
    ].map(
      (p): HostileCase => ({
        name: p,
        setup: ({ root }) => {
          fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
          fs.linkSync(path.join(outside, "secret.txt"), path.join(root, p));
        },
        paths: fixed(p),
        expect: "hardlink",
      }),
    ),
    {
      name: "a hard link to a file in an outside subdirectory",
      setup: ({ root }) => fs.linkSync(path.join(outside, "sub", "deep.txt"), `${root}/hl2.txt`),
      paths: fixed("/hl2.txt"),
      expect: "hardlink",
    },
    {
      name: "a hard link made by a command",
      setup: async ({ shell }) => void (await shell.execute('ln "$OUT/secret.txt" hl-cmd.txt')),
      paths: fixed("/hl-cmd.txt"),
      expect: "hardlink",
    },
    {
      name: "two hard links in the root to one outside file",
      setup: ({ root }) => {
        fs.linkSync(path.join(outside, "secret.txt"), `${root}/a.txt`);
        fs.linkSync(path.join(outside, "secret.txt"), `${root}/b.txt`);
      },
      paths: fixed("/a.txt", "/b.txt"),
      expect: "hardlink",
    },
  ],
};

describe("FilesystemBackend (virtualMode) holds against hostile paths", () => {
  it("has at least 100 cases, at least 10 in each family", () => {
    const sizes = Object.values(cases).map((list) => list.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(100);
    for (const size of sizes) expect(size).toBeGreaterThanOrEqual(10);
  });

  for (const [family, list] of Object.entries(cases)) {
    describe(family, () => {
      for (const c of list) it(c.name, () => runCase(c));
    });
  }

  it("a directory swapped with an outward symlink in a tight loop never lets anything through", async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "delve-hostile-")));
    fs.mkdirSync(path.join(root, "a_dir"));
    fs.writeFileSync(path.join(root, "a_dir", "secret.txt"), "inside\n");
    fs.symlinkSync(outside, path.join(root, "a_link"));
    // A thread renames "a" between the real directory, nothing and the symlink, over and over.
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const swapper = new Worker(SWAPPER, { eval: true, workerData: { root, stop } });
    try {
      const backend = new FilesystemBackend({ rootDir: root });
      const seen = new Set<string>();
      const end = Date.now() + 1500;
      while (Date.now() < end) {
        const results = [
          await backend.read("/a/secret.txt"),
          await backend.write("/a/new.txt", "pwned"),
          await backend.edit("/a/secret.txt", CONTENT_MARKER, "pwned"),
          await backend.ls("/a"),
          await backend.grep(CONTENT_MARKER, { path: "/a" }),
        ];
        for (const r of results) seen.add(r.error?.code ?? "ok");
        expect(serialize(results)).not.toContain(CONTENT_MARKER);
        expect(serialize(results)).not.toContain(NAME_MARKER);
      }
      expect(seen.has("ok")).toBe(true); // the loop did reach the real directory
      expect(seen.has("permission_denied")).toBe(true); // and met the symlink
    } finally {
      Atomics.store(stop, 0, 1);
      await swapper.terminate();
      fs.rmSync(root, { recursive: true, force: true });
    }
    expect(snapshot(outside)).toEqual(outsideBefore);
  });

  it("an absolute host path writes under the root, never to the host path", async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "delve-hostile-")));
    try {
      const backend = new FilesystemBackend({ rootDir: root });
      const target = `${outside}/secret.txt`;
      expect((await backend.write(target, "mine")).path).toBe(target);
      expect(fs.readFileSync(path.join(root, target), "utf8")).toBe("mine");
      expect(snapshot(outside)).toEqual(outsideBefore);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
