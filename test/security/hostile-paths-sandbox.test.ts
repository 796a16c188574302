/**
 * Hostile paths against SandboxBackend's file operations. Next to each workspace lies an
 * "outside" directory holding a secret marker. Every case runs every file operation (read,
 * ls, glob, grep, download, edit, write, upload, then delete) on its paths and asserts that:
 *  - no result carries the secret marker or the name of an outside file;
 *  - the outside directory is unchanged, byte for byte;
 *  - the operations were refused as the family demands (invalid_path for malformed paths;
 *    an error for every file operation through an outward symlink or a hard link).
 * Symlinks come from the host and from commands run inside the sandbox; the sandbox cannot see
 * the outside directory, but the host resolves the links those commands leave behind.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SandboxBackend } from "delve";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MALFORMED_PATHS, serialize } from "../helpers/hostile-paths.js";

const tag = randomBytes(6).toString("hex");
const MARKER = `DELVE-SANDBOX-SECRET-${tag}`;
const NAME_MARKER = `sbxname${tag}`;
const PROBE = `delve-probe-${tag}`;
// The host's first /etc/passwd line; the sandbox's generated one differs (HOME is /tmp).
const HOST_PASSWD_LINE = fs.readFileSync("/etc/passwd", "utf8").split("\n")[0]!;
const enc = new TextEncoder();

let outside: string;
let outsideName: string;
let outsideBefore: Record<string, string>;

beforeAll(() => {
  outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "delve-sbx-outside-")));
  outsideName = path.basename(outside);
  fs.writeFileSync(path.join(outside, "secret.txt"), `secret\n${MARKER}\n`);
  fs.writeFileSync(path.join(outside, `${NAME_MARKER}.txt`), `${MARKER}\n`);
  fs.mkdirSync(path.join(outside, "sub"));
  fs.writeFileSync(path.join(outside, "sub", "deep.txt"), `deep ${MARKER}\n`);
  outsideBefore = snapshot(outside);
});

afterAll(() => fs.rmSync(outside, { recursive: true, force: true }));

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const full = path.join(dir, name);
    const stat = fs.lstatSync(full);
    out[name] = stat.isSymbolicLink()
      ? `link:${fs.readlinkSync(full)}`
      : stat.isDirectory()
        ? "dir"
        : `${stat.ino}:${fs.readFileSync(full, "latin1")}`;
  }
  return out;
}

interface Ctx {
  root: string;
  sandbox: SandboxBackend;
}

type Expect = "invalid_path" | "refused" | "hardlink" | "contained";

interface HostileCase {
  name: string;
  expect: Expect;
  paths: (ctx: Ctx) => string[];
  setup?: (ctx: Ctx) => void | Promise<void>;
  /** False for links into real system files: those are only read, never written. */
  writes?: boolean;
}

const FILE_OPS = ["read", "download", "edit", "write", "upload"];

// The reads change nothing, so they run at once (each is its own sandboxed process); the
// writes go one after the other, as a model's would.
async function attack(b: SandboxBackend, p: string, writes: boolean) {
  const [read, ls, glob, grep, download] = await Promise.all([
    b.read(p),
    b.ls(p),
    b.glob("**", { path: p }),
    b.grep(MARKER, { path: p }),
    b.downloadFiles([p]).then((r) => r[0]),
  ]);
  const results: Record<string, { error?: { code: string; message: string } } | undefined> = {
    read,
    ls,
    glob,
    grep,
    download,
  };
  if (!writes) return results;
  results.edit = await b.edit(p, MARKER, "pwned", { replaceAll: true });
  results.write = await b.write(p, "pwned");
  results.upload = (await b.uploadFiles([{ path: p, content: enc.encode("pwned") }]))[0];
  return results;
}

function expectRefused(kind: Expect, p: string, results: Record<string, any>) {
  const label = (op: string) => `${op} ${JSON.stringify(p)}`;
  if (kind === "invalid_path") {
    for (const [op, r] of Object.entries(results)) {
      expect(r?.error?.code, label(op)).toBe("invalid_path");
    }
  } else if (kind === "refused") {
    for (const op of FILE_OPS) {
      if (op in results) expect(results[op]?.error, label(op)).toBeDefined();
    }
  } else if (kind === "hardlink") {
    for (const op of FILE_OPS) {
      expect(results[op]?.error?.code, label(op)).toBe("permission_denied");
      expect(results[op]?.error?.message, label(op)).toContain("hard link");
    }
    expect(results.grep?.matches ?? [], label("grep")).toEqual([]);
  }
}

// Attacks every path of a case, deletes last, then sweeps the whole workspace.
async function runCase(ctx: Ctx, c: HostileCase, sweep: boolean) {
  await c.setup?.(ctx);
  const paths = c.paths(ctx);
  const seen: unknown[] = [];
  for (const p of paths) {
    const results = await attack(ctx.sandbox, p, c.writes ?? true);
    expectRefused(c.expect, p, results);
    seen.push(results);
  }
  for (const p of c.writes === false ? [] : paths) {
    const removed = await ctx.sandbox.delete(p);
    if (c.expect === "invalid_path") expect(removed.error?.code).toBe("invalid_path");
    // Deleting a link removes the link itself, never what it points to.
    else if (c.expect !== "contained" && !removed.error) expect(removed.deleted).toEqual([p]);
    seen.push(removed);
  }
  if (sweep) seen.push(await sweepWorkspace(ctx.sandbox));
  const text = serialize(seen);
  expect(text).not.toContain(MARKER);
  expect(text).not.toContain(NAME_MARKER);
  expect(text).not.toContain(HOST_PASSWD_LINE);
  expect(snapshot(outside)).toEqual(outsideBefore);
  expect(fs.existsSync(`/etc/${PROBE}`)).toBe(false);
}

async function sweepWorkspace(b: SandboxBackend) {
  const [grep, ls, glob, dots] = await Promise.all([
    b.grep(MARKER),
    b.ls("/"),
    b.glob("**"),
    b.glob("**/.*"),
  ]);
  expect(grep.matches ?? []).toEqual([]);
  return { ls, glob, dots, grep };
}

function freshCtx(): Ctx {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "delve-sbx-hostile-")));
  fs.writeFileSync(path.join(root, "own.txt"), "my own file\n");
  return { root, sandbox: new SandboxBackend({ rootDir: root, timeout: 20 }) };
}

const invalid = (...paths: string[]): HostileCase[] =>
  paths.map((p) => ({ name: JSON.stringify(p), expect: "invalid_path", paths: () => [p] }));

// A case whose links a command makes inside the sandbox, then attacked from the host side.
const byCommand = (
  name: string,
  command: () => string,
  paths: (c: Ctx) => string[],
): HostileCase => ({
  name,
  expect: "refused",
  paths,
  setup: async ({ sandbox }) => {
    const run = await sandbox.execute(command());
    expect(run.exitCode, run.output).toBe(0);
  },
});

// Stands for the outside directory in commands built before it exists.
const OUTSIDE_PLACEHOLDER = "@OUTSIDE@";

// A command tries to make hard links; none may appear. The paths are then plain new files.
const linkFails = (name: string, command: string, links: string[]): HostileCase => ({
  name,
  expect: "contained",
  paths: () => links.map((l) => `/${l}`),
  setup: async ({ root, sandbox }) => {
    const run = await sandbox.execute(command.replaceAll(OUTSIDE_PLACEHOLDER, outside));
    expect(run.output).toMatch(/Invalid cross-device link|No such file/);
    for (const link of links) expect(fs.existsSync(path.join(root, link)), link).toBe(false);
  },
});

const hostLink =
  (target: () => string, link: string): HostileCase["setup"] =>
  ({ root }) => {
    fs.mkdirSync(path.dirname(path.join(root, link)), { recursive: true });
    fs.symlinkSync(target(), path.join(root, link));
  };

const hardLink =
  (target: string, link: string): HostileCase["setup"] =>
  ({ root }) => {
    fs.mkdirSync(path.dirname(path.join(root, link)), { recursive: true });
    fs.linkSync(path.join(outside, target), path.join(root, link));
  };

const malformed: Record<string, HostileCase[]> = {
  traversal: invalid(...MALFORMED_PATHS.traversal),
  tilde: invalid(...MALFORMED_PATHS.tilde),
  nul: invalid(...MALFORMED_PATHS.nul),
  encodings: invalid(...MALFORMED_PATHS.encodings),
  backslashes: invalid(...MALFORMED_PATHS.backslashes),
};

const linked: Record<string, HostileCase[]> = {
  "outward symlinks (made on the host)": [
    {
      name: "a file symlink with an absolute target",
      expect: "refused",
      setup: hostLink(() => path.join(outside, "secret.txt"), "ln_file"),
      paths: () => ["/ln_file"],
    },
    {
      name: "a file symlink with a relative target",
      expect: "refused",
      setup: hostLink(() => `../${outsideName}/secret.txt`, "ln_rel"),
      paths: () => ["/ln_rel"],
    },
    {
      name: "a directory symlink with an absolute target",
      expect: "refused",
      setup: hostLink(() => outside, "ln_dir"),
      paths: () => ["/ln_dir/secret.txt", "/ln_dir/sub/deep.txt", "/ln_dir/new.txt"],
    },
    {
      name: "a directory symlink with a relative target",
      expect: "refused",
      setup: hostLink(() => `../${outsideName}`, "ln_dir_rel"),
      paths: () => ["/ln_dir_rel/secret.txt", "/ln_dir_rel/new/x.txt"],
    },
    {
      name: "a chain of symlinks ending outside",
      expect: "refused",
      setup: async (ctx) => {
        await hostLink(() => "hop2", "hop1")!(ctx);
        await hostLink(() => outside, "hop2")!(ctx);
      },
      paths: () => ["/hop1/secret.txt", "/hop1/made.txt"],
    },
    {
      name: "a symlink deep in the tree climbing out",
      expect: "refused",
      setup: hostLink(() => `../../../${outsideName}/sub`, "a/b/ln"),
      paths: () => ["/a/b/ln/deep.txt"],
    },
    {
      name: "a dangling file symlink to outside is never created through",
      expect: "refused",
      setup: hostLink(() => path.join(outside, "created.txt"), "dangling"),
      paths: () => ["/dangling"],
    },
    {
      name: "a dangling directory symlink to outside is never created through",
      expect: "refused",
      setup: hostLink(() => path.join(outside, "newdir"), "dd"),
      paths: () => ["/dd/x.txt"],
    },
    {
      name: "a symlink to the host root",
      expect: "refused",
      setup: hostLink(() => "/", "rootlink"),
      paths: () => [`/rootlink${outside}/secret.txt`],
    },
    {
      name: "a symlink to the parent directory",
      expect: "refused",
      setup: hostLink(() => "..", "up"),
      paths: () => [`/up/${outsideName}/secret.txt`, `/up/${outsideName}/new.txt`],
    },
    {
      name: "a symlink through /proc/self/root",
      expect: "refused",
      setup: hostLink(() => "/proc/self/root", "procroot"),
      paths: () => [`/procroot${outside}/secret.txt`],
    },
    {
      name: "a symlink loop",
      expect: "refused",
      setup: async (ctx) => {
        await hostLink(() => "loop2", "loop1")!(ctx);
        await hostLink(() => "loop1", "loop2")!(ctx);
      },
      paths: () => ["/loop1", "/loop1/x"],
    },
    {
      name: "a symlink inside a real directory leading to an outside subdirectory",
      expect: "refused",
      setup: hostLink(() => path.join(outside, "sub"), "real/ln"),
      paths: () => ["/real/ln/deep.txt", "/real/ln/new.txt"],
    },
    {
      name: "a symlink to the host's /etc (read only: a regression must not clobber it)",
      expect: "refused",
      writes: false,
      setup: hostLink(() => "/etc", "etc"),
      paths: () => ["/etc/hostname", "/etc/passwd", "/etc"],
    },
    {
      name: "a symlink to the host's /etc, written to a fresh probe name",
      expect: "refused",
      setup: hostLink(() => "/etc", "etc"),
      paths: () => [`/etc/${PROBE}`],
    },
    {
      name: "a symlink named like a media file",
      expect: "refused",
      setup: hostLink(() => path.join(outside, "secret.txt"), "pic.png"),
      paths: () => ["/pic.png"],
    },
  ],
  "symlinks made by a command inside the sandbox": [
    byCommand(
      "ln -s to the absolute host path of the secret",
      () => `ln -s '${outside}/secret.txt' c_abs`,
      () => ["/c_abs"],
    ),
    byCommand(
      "ln -s to the absolute host path of the outside directory",
      () => `ln -s '${outside}' c_dir`,
      () => ["/c_dir/secret.txt", "/c_dir/sub/deep.txt", "/c_dir/new.txt"],
    ),
    byCommand(
      "ln -s climbing out relatively (dangling inside, real on the host)",
      () => `ln -s '../${outsideName}/secret.txt' c_rel`,
      () => ["/c_rel"],
    ),
    byCommand(
      "ln -s to the sibling directory, relatively",
      () => `ln -s '../${outsideName}' c_rel_dir`,
      () => ["/c_rel_dir/secret.txt", "/c_rel_dir/x/y.txt"],
    ),
    byCommand(
      "ln -s / then the host path below it",
      () => "ln -s / c_root",
      () => [`/c_root${outside}/secret.txt`],
    ),
    byCommand(
      "ln -s .. then the sibling below it",
      () => "ln -s .. c_up",
      () => [`/c_up/${outsideName}/secret.txt`, `/c_up/${outsideName}/new.txt`],
    ),
    byCommand(
      "ln -s deep in the tree climbing out",
      () => `mkdir -p d/e && ln -s '../../../${outsideName}/sub' d/e/c_deep`,
      () => ["/d/e/c_deep/deep.txt"],
    ),
    byCommand(
      "ln -s to a file the outside does not have yet",
      () => `ln -s '${outside}/planted.txt' c_plant`,
      () => ["/c_plant"],
    ),
    byCommand(
      "ln -s to a directory the outside does not have yet",
      () => `ln -s '${outside}/planted-dir' c_plant_dir`,
      () => ["/c_plant_dir/x.txt"],
    ),
    byCommand(
      "a chain of links made inside",
      () => `ln -s c_hop2 c_hop1 && ln -s '${outside}' c_hop2`,
      () => ["/c_hop1/secret.txt"],
    ),
    {
      ...byCommand(
        "ln -s to /etc/passwd and /etc/shadow (read only)",
        () => "ln -s /etc/passwd c_passwd && ln -s /etc/shadow c_shadow",
        () => ["/c_passwd", "/c_shadow"],
      ),
      writes: false,
    },
    {
      name: "a directory swapped for a symlink while the host reads and writes through it",
      expect: "contained",
      setup: async ({ root, sandbox }) => {
        fs.mkdirSync(path.join(root, "swap"));
        fs.writeFileSync(path.join(root, "swap", "secret.txt"), "harmless\n");
        const swapper = sandbox.execute(
          `end=$(($(date +%s) + 2)); while [ $(date +%s) -lt $end ]; do mv swap swap_real; ln -s '${outside}' swap; rm swap; mv swap_real swap; done`,
          { timeout: 10 },
        );
        for (let i = 0; i < 40; i++) {
          const seen = [
            await sandbox.read("/swap/secret.txt"),
            await sandbox.downloadFiles(["/swap/secret.txt"]),
            await sandbox.uploadFiles([{ path: "/swap/secret.txt", content: enc.encode("pwn") }]),
            await sandbox.uploadFiles([{ path: "/swap/new.txt", content: enc.encode("pwn") }]),
          ];
          expect(serialize(seen)).not.toContain(MARKER);
          expect(snapshot(outside)).toEqual(outsideBefore);
        }
        await swapper;
      },
      paths: () => ["/swap/secret.txt"],
    },
  ],
  "hard links": [
    {
      name: "a hard link to the outside secret",
      expect: "hardlink",
      setup: hardLink("secret.txt", "h1"),
      paths: () => ["/h1"],
    },
    {
      name: "a hard link in a subdirectory",
      expect: "hardlink",
      setup: hardLink("sub/deep.txt", "sub/h2.txt"),
      paths: () => ["/sub/h2.txt"],
    },
    {
      name: "a hard link named as a dot-file",
      expect: "hardlink",
      setup: hardLink("secret.txt", ".h3"),
      paths: () => ["/.h3"],
    },
    {
      name: "a hard link named like markdown",
      expect: "hardlink",
      setup: hardLink("secret.txt", "notes/h4.md"),
      paths: () => ["/notes/h4.md"],
    },
    {
      name: "a hard link named like a media file",
      expect: "hardlink",
      setup: hardLink("secret.txt", "h5.png"),
      paths: () => ["/h5.png"],
    },
    {
      name: "a hard link deep in the tree",
      expect: "hardlink",
      setup: hardLink("sub/deep.txt", "x/y/z/h6"),
      paths: () => ["/x/y/z/h6"],
    },
    {
      name: "two hard links to the same outside file",
      expect: "hardlink",
      setup: async (ctx) => {
        await hardLink("secret.txt", "h7a")!(ctx);
        await hardLink("secret.txt", "h7b")!(ctx);
      },
      paths: () => ["/h7a", "/h7b"],
    },
    {
      name: "a hard link to a file whose name carries the marker",
      expect: "hardlink",
      setup: (ctx) => hardLink(`${NAME_MARKER}.txt`, "h8")!(ctx),
      paths: () => ["/h8"],
    },
    linkFails(
      "a command cannot hard-link a system file into the workspace",
      "ln /usr/bin/env h9; ln /etc/passwd h10",
      ["h9", "h10"],
    ),
    linkFails(
      "a command cannot hard-link the outside secret (it cannot see it)",
      `ln '${OUTSIDE_PLACEHOLDER}/secret.txt' h11; ln /proc/self/root'${OUTSIDE_PLACEHOLDER}/secret.txt' h12`,
      ["h11", "h12"],
    ),
    {
      name: "a hard link made inside the workspace is refused like any other",
      expect: "hardlink",
      setup: async ({ sandbox }) => {
        expect((await sandbox.execute("ln own.txt h13")).exitCode).toBe(0);
      },
      paths: () => ["/h13"],
    },
  ],
};

const contained: HostileCase[] = [
  { name: "/~/x is a directory named ~", expect: "contained", paths: () => ["/~/x"] },
  {
    name: "an absolute host path is a path under the workspace",
    expect: "contained",
    paths: () => [`${outside}/secret.txt`],
  },
];

describe("hostile paths against SandboxBackend", () => {
  it("has at least 100 cases and at least 10 in each family", () => {
    const families = { ...malformed, ...linked };
    for (const [family, list] of Object.entries(families)) {
      expect(list.length, family).toBeGreaterThanOrEqual(10);
    }
    const total = Object.values(families).reduce((n, list) => n + list.length, 0);
    expect(total + contained.length).toBeGreaterThanOrEqual(100);
  });

  for (const [family, list] of Object.entries(malformed)) {
    describe(family, () => {
      // Malformed paths are refused before touching the disk: one workspace per family.
      let ctx: Ctx;
      beforeAll(() => {
        ctx = freshCtx();
      });
      afterAll(() => fs.rmSync(ctx.root, { recursive: true, force: true }));
      for (const c of list) it(c.name, () => runCase(ctx, c, false));
      it("leaves nothing of the outside in the workspace", async () => {
        expect(serialize(await sweepWorkspace(ctx.sandbox))).not.toContain(MARKER);
        expect(fs.readdirSync(ctx.root)).toEqual(["own.txt"]);
      });
    });
  }

  // Each case has its own workspace and the sandboxed processes mostly wait: run them at once.
  for (const [family, list] of Object.entries({ ...linked, contained })) {
    describe.concurrent(family, () => {
      for (const c of list) {
        it(c.name, async () => {
          const ctx = freshCtx();
          try {
            await runCase(ctx, c, true);
          } finally {
            fs.rmSync(ctx.root, { recursive: true, force: true });
          }
        });
      }
    });
  }
});
