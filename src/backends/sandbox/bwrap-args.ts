import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import nodePath from "node:path";
import { isUnder } from "../protocol/paths.js";

/**
 * The bubblewrap invocation of `SandboxBackend`: whether `bwrap` can run here, and the
 * explicit list of what a sandboxed command sees. Nothing is bound wholesale: `/usr`
 * read-only (with Debian's `/bin`, `/lib`… symlinks into it), a handful of `/etc` files,
 * generated `passwd`/`group`/`hosts`, a fresh `/tmp` and `/dev/shm` (each sized to `memoryMb`
 * when given), `/proc` (unless `proc: false`), a read-only `/dev`, and the workspace, the only other writable place. bubblewrap itself starts with
 * an empty environment, so nothing of the host's shows in `/proc/1/environ`. Every namespace is unshared (no network), every capability
 * dropped, and the root is remounted read-only.
 */

/** Where the workspace (`rootDir`) is mounted inside the sandbox. */
export const SANDBOX_WORKSPACE = "/workspace";

const MB = 1024 * 1024;

/** What the command gets as PATH, HOME and locale. */
const SANDBOX_ENV: Record<string, string> = {
  PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  HOME: "/tmp",
  TMPDIR: "/tmp",
  LANG: "C.UTF-8",
};

// Host /etc entries a command needs (dynamic linker cache, awk & co. via alternatives,
// time zone). /etc/shadow and the rest of /etc are never bound.
const ETC_ENTRIES = [
  "/etc/alternatives",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/localtime",
];

// Kernel knobs under the sandbox's /proc, bound read-only over it.
const PROC_READ_ONLY = ["/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs"];

// Top-level directories that are, on merged-/usr systems, symlinks into /usr.
const USR_LINKS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/**
 * Whether bubblewrap runs here (`detail` says why not): its absolute path, so it can be
 * started with an empty environment, and whether it can size a tmpfs (`--size`, 0.8+).
 */
export type BwrapProbe =
  | { ok: true; path: string; sizesTmpfs: boolean }
  | { ok: false; missing: boolean; detail: string };

const probes = new Map<string, BwrapProbe>();

/**
 * Runs a minimal sandbox once per process (per PATH) to learn whether `bwrap` exists and
 * can create namespaces here; later calls return the cached answer.
 *
 * @example
 * const probe = probeBubblewrap();
 * if (!probe.ok) console.error(probe.detail);
 */
export function probeBubblewrap(): BwrapProbe {
  const key = process.env.PATH ?? "";
  let probe = probes.get(key);
  if (!probe) {
    probe = runProbe();
    probes.set(key, probe);
  }
  return probe;
}

function runProbe(): BwrapProbe {
  const path = findOnPath("bwrap");
  if (!path) return { ok: false, missing: true, detail: "bwrap is not on PATH" };
  const args = [...systemArgs(), "--unshare-all", "--cap-drop", "ALL", "--", "/bin/sh", "-c", ":"];
  const run = spawnSync(path, args, { encoding: "utf8", timeout: 10_000, env: {} });
  if (run.error) return { ok: false, missing: false, detail: run.error.message };
  if (run.status !== 0) {
    const stderr = run.stderr.trim().split("\n")[0] ?? "";
    return { ok: false, missing: false, detail: `bwrap failed (exit ${run.status}): ${stderr}` };
  }
  const version = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 10_000, env: {} });
  const [major = 0, minor = 0] = (/(\d+)\.(\d+)/.exec(version.stdout ?? "") ?? [])
    .slice(1)
    .map(Number);
  return { ok: true, path, sizesTmpfs: major > 0 || minor >= 8 };
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "/usr/bin:/bin").split(":")) {
    if (!dir) continue;
    const candidate = nodePath.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** A mount laid over the workspace to enforce a path restriction. Paths are sandbox paths. */
export type RestrictionMount =
  /** Bind a verified host directory over itself so it cannot be renamed or removed. */
  | { kind: "pin"; host: string; path: string }
  /** Bind a host file or directory read-only over itself. */
  | { kind: "read-only"; host: string; path: string }
  /** Cover a directory with an empty read-only tmpfs. */
  | { kind: "hide-dir"; path: string }
  /** Cover a file with /dev/null. */
  | { kind: "hide-file"; path: string };

/** Per-process resource limits of a sandboxed command. */
export interface SandboxLimits {
  /** Address space per process (`RLIMIT_AS`), and the size of `/tmp` and `/dev/shm`; none when undefined. */
  memoryMb?: number;
  maxProcesses: number;
  maxFileSizeMb: number;
}

/** Everything one sandboxed command needs. */
export interface BwrapInvocation {
  /** Real host path of the workspace. */
  workspace: string;
  /** Restriction mounts, applied after the workspace bind in this order. */
  mounts: readonly RestrictionMount[];
  /** Extra environment variables. */
  env: Readonly<Record<string, string>>;
  limits: SandboxLimits;
  /** The shell command, run by `/bin/sh -c` in the workspace. */
  command: string;
  /** Mount `/proc` (default true); without it nothing shows the host's mount table. */
  proc?: boolean;
}

/**
 * The `bwrap` argv (without the program name) that runs `command` confined. The command is
 * a single argv entry, never spliced into a shell string, so it needs no quoting.
 *
 * @example
 * spawn("bwrap", buildBwrapArgs({ workspace: "/srv/ws", mounts: [], env: {}, limits, command: "ls" }));
 */
export function buildBwrapArgs(invocation: BwrapInvocation): string[] {
  const args = [
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--hostname",
    "sandbox",
    ...systemArgs(invocation.proc ?? true),
    // /tmp and /dev/shm are memory: each sized to memoryMb (unsized, half the host RAM). The
    // rest of /dev, a tmpfs too, is read-only so nothing can be stored there.
    "--remount-ro",
    "/dev",
    ...sized(invocation.limits.memoryMb),
    "--tmpfs",
    "/dev/shm",
    ...sized(invocation.limits.memoryMb),
    "--tmpfs",
    "/tmp",
    "--bind",
    invocation.workspace,
    SANDBOX_WORKSPACE,
  ];
  for (const mount of invocation.mounts) {
    if (mount.kind === "pin") args.push("--bind", mount.host, mount.path);
    else if (mount.kind === "read-only") args.push("--ro-bind", mount.host, mount.path);
    else if (mount.kind === "hide-dir")
      args.push("--tmpfs", mount.path, "--remount-ro", mount.path);
    else args.push("--ro-bind", "/dev/null", mount.path);
  }
  args.push("--remount-ro", "/", "--chdir", SANDBOX_WORKSPACE, "--clearenv");
  for (const [key, value] of Object.entries({ ...SANDBOX_ENV, ...invocation.env })) {
    args.push("--setenv", key, value);
  }
  args.push("--", ...limitedShell(invocation.limits, invocation.command));
  return args;
}

/**
 * The mounts that enforce path restrictions on the workspace `rootDir` (virtual paths),
 * checked afresh for every command: each restricted path and its ancestors must be real
 * directories (a regular file at the end is fine), never symlinks, so no bind source can be
 * redirected; a missing one is created as an empty directory to mount over. Ancestors are
 * bound over themselves ("pinned") because a mount point cannot be renamed or removed: a
 * command cannot move a restricted path aside to find it unprotected in the next command.
 * Returns the path and the reason when a restriction cannot be enforced.
 *
 * @example
 * const mounts = planRestrictionMounts("/srv/ws", ["/secrets"], ["/policies"]);
 */
export function planRestrictionMounts(
  rootDir: string,
  hide: readonly string[],
  readOnly: readonly string[],
): RestrictionMount[] | { error: string; path: string } {
  const hidden = hide.filter((p) => !hide.some((h) => h !== p && isUnder(p, h)));
  // A path under a hidden one is already invisible; one under a read-only one already read-only.
  const frozen = readOnly.filter(
    (p) => !hidden.some((h) => isUnder(p, h)) && !readOnly.some((r) => r !== p && isUnder(p, r)),
  );
  const restricted = [...frozen, ...hidden];
  const byDepth = (a: string, b: string) => a.split("/").length - b.split("/").length;
  const pins = new Map<string, RestrictionMount>();
  const binds: RestrictionMount[] = [];
  const covers: RestrictionMount[] = [];
  for (const path of [...restricted].sort(byDepth)) {
    const real = ensureRealPath(rootDir, path);
    if (typeof real === "string") return { error: real, path };
    const inside = path === "/" ? SANDBOX_WORKSPACE : `${SANDBOX_WORKSPACE}${path}`;
    for (let at = path.indexOf("/", 1); at !== -1; at = path.indexOf("/", at + 1)) {
      const ancestor = path.slice(0, at);
      if (restricted.some((r) => isUnder(ancestor, r))) continue;
      const host = nodePath.join(rootDir, ancestor);
      pins.set(ancestor, { kind: "pin", host, path: `${SANDBOX_WORKSPACE}${ancestor}` });
    }
    if (!hidden.includes(path)) binds.push({ kind: "read-only", host: real.host, path: inside });
    else covers.push({ kind: real.isDir ? "hide-dir" : "hide-file", path: inside });
  }
  return [...pins.values(), ...binds, ...covers];
}

// Walks a restricted path component by component from `rootDir`, creating missing
// directories; returns its host path, or why it cannot be mounted over safely.
function ensureRealPath(rootDir: string, path: string): { host: string; isDir: boolean } | string {
  let host = rootDir;
  let stat = fs.lstatSync(host);
  const segments = path.split("/").filter(Boolean);
  for (let i = 0; i < segments.length; i++) {
    host = `${host}/${segments[i]}`;
    const shown = `/${segments.slice(0, i + 1).join("/")}`;
    try {
      fs.mkdirSync(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") return `${shown} cannot be created (${code})`;
    }
    stat = fs.lstatSync(host);
    if (stat.isSymbolicLink()) return `${shown} is a symbolic link`;
    const last = i === segments.length - 1;
    if (!stat.isDirectory() && (!last || !stat.isFile())) {
      return `${shown} is not a directory${last ? " or a regular file" : ""}`;
    }
  }
  return { host, isDir: stat.isDirectory() };
}

// The system part of the sandbox, shared by the probe and every command; rebuilt if a
// temp-file cleaner removed the generated /etc files.
let systemCache: { withProc: string[]; withoutProc: string[]; etcDir: string } | undefined;

function systemArgs(proc = true): string[] {
  if (!(systemCache && fs.existsSync(systemCache.etcDir))) systemCache = buildSystemArgs();
  return proc ? systemCache.withProc : systemCache.withoutProc;
}

function buildSystemArgs(): { withProc: string[]; withoutProc: string[]; etcDir: string } {
  const args = ["--ro-bind", "/usr", "/usr"];
  for (const dir of USR_LINKS) {
    const stat = lstatOrUndefined(dir);
    if (stat?.isSymbolicLink()) args.push("--symlink", fs.readlinkSync(dir), dir);
    else if (stat?.isDirectory()) args.push("--ro-bind", dir, dir);
  }
  args.push("--perms", "0755", "--dir", "/etc");
  for (const entry of ETC_ENTRIES) args.push("--ro-bind-try", entry, entry);
  const etcDir = writeEtcFiles();
  for (const name of GENERATED_ETC)
    args.push("--ro-bind", nodePath.join(etcDir, name), `/etc/${name}`);
  args.push("--dev", "/dev");
  // Root in the sandbox is root to sysctl files (they check the uid, not capabilities), and
  // some are host-wide (kernel.core_pattern runs a program as host root): keep them read-only.
  const proc = ["--proc", "/proc"];
  for (const entry of PROC_READ_ONLY) proc.push("--ro-bind-try", entry, entry);
  return { withProc: [...args, ...proc], withoutProc: args, etcDir };
}

const GENERATED_ETC = ["passwd", "group", "hosts"] as const;

// Minimal passwd/group/hosts naming only the sandbox user (the host's own files list every
// account). They live in one directory per uid under the temp dir, reused by every process:
// nothing to clean up. A directory not owned by us, or open to others, is never trusted (its
// files could be links to /etc/shadow): a fresh private one is made instead.
function writeEtcFiles(): string {
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  const user = uid === 0 ? "root" : "sandbox";
  const group = gid === 0 ? "root" : "sandbox";
  const content: Record<(typeof GENERATED_ETC)[number], string> = {
    passwd: `${user}:x:${uid}:${gid}:${user}:/tmp:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
    group: `${group}:x:${gid}:\nnogroup:x:65534:\n`,
    hosts: "127.0.0.1 localhost\n::1 localhost\n",
  };
  let dir = nodePath.join(os.tmpdir(), `delve-sandbox-etc-${uid}`);
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch {
    // Already there: checked below.
  }
  const stat = lstatOrUndefined(dir);
  if (!stat?.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) {
    dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), "delve-sandbox-etc-"));
  }
  for (const name of GENERATED_ETC) {
    // Written aside and renamed, so a sandbox starting in another process never sees half a file.
    const temp = nodePath.join(dir, `.${name}.${process.pid}`);
    fs.writeFileSync(temp, content[name], { mode: 0o644 });
    fs.renameSync(temp, nodePath.join(dir, name));
  }
  return dir;
}

// `prlimit` (util-linux) sets address space, process count and file size before the shell
// starts; without it, `ulimit` inside the shell sets what POSIX shells support.
function sized(memoryMb: number | undefined): string[] {
  return memoryMb ? ["--size", String(memoryMb * MB)] : [];
}

function limitedShell(limits: SandboxLimits, command: string): string[] {
  const mb = MB;
  const memory = limits.memoryMb;
  if (fs.existsSync("/usr/bin/prlimit")) {
    return [
      "/usr/bin/prlimit",
      ...(memory ? [`--as=${memory * mb}`] : []),
      `--nproc=${limits.maxProcesses}`,
      `--fsize=${limits.maxFileSizeMb * mb}`,
      "--",
      "/bin/sh",
      "-c",
      command,
    ];
  }
  // POSIX `ulimit -f` counts 512-byte blocks; -v (KB) is not POSIX but dash, bash and busybox have it.
  const ulimits = `${memory ? `ulimit -v ${memory * 1024} && ` : ""}ulimit -f ${limits.maxFileSizeMb * 2048}`;
  return ["/bin/sh", "-c", `${ulimits} && exec /bin/sh -c "$1"`, "sh", command];
}

function lstatOrUndefined(path: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(path);
  } catch {
    return undefined;
  }
}
