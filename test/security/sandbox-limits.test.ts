/**
 * Sandbox limits against a hostile command: `memoryMb` also bounds `/tmp` and `/dev/shm`
 * (a tmpfs is memory, and unsized it may fill half the host's RAM; `/dev`, a tmpfs too, is
 * read-only), and nothing of the host's
 * environment shows inside, not even in `/proc/1/environ` (bubblewrap's own, as pid 1).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SandboxBackend } from "delve";
import { afterAll, describe, expect, it } from "vitest";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "delve-sandbox-limits-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const sandbox = (options: { memoryMb?: number; env?: Record<string, string> } = {}) =>
  new SandboxBackend({ rootDir: fs.mkdtempSync(`${tmp}/ws-`), timeout: 30, ...options });

describe("memoryMb bounds /tmp too", () => {
  it("memoryMb 32: writing 64 MB to /tmp fails with no space, and /tmp is 32 MB", async () => {
    const run = await sandbox({ memoryMb: 32 }).execute(
      "head -c 67108864 /dev/zero > /tmp/fill; echo status=$?; wc -c < /tmp/fill; df -k /tmp | tail -1",
    );
    expect(run.output).toMatch(/No space left on device/);
    expect(run.output).toMatch(/status=1/);
    const written = Number(/^(\d+)$/m.exec(run.output)?.[1]);
    expect(written).toBeLessThanOrEqual(32 * 1024 * 1024);
    expect(run.output).toMatch(/tmpfs\s+32768\s/);
  });

  it("many files (not one big one) hit the same bound", async () => {
    const run = await sandbox({ memoryMb: 16 }).execute(
      "i=0; while [ $i -lt 40 ]; do head -c 1048576 /dev/zero > /tmp/f$i || break; i=$((i+1)); done; echo files=$i",
    );
    expect(Number(/files=(\d+)/.exec(run.output)?.[1])).toBeLessThanOrEqual(16);
  });

  it("/dev/shm is bounded the same way, and the rest of /dev holds no files", async () => {
    const run = await sandbox({ memoryMb: 16 }).execute(
      "head -c 33554432 /dev/zero > /dev/shm/fill; wc -c < /dev/shm/fill; echo x > /dev/fill; echo dev=$?; echo ok > /dev/null; echo null=$?",
    );
    expect(Number(/^(\d+)$/m.exec(run.output)?.[1])).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(run.output).toMatch(/Read-only file system/);
    expect(run.output).toMatch(/dev=[12]/);
    expect(run.output).toMatch(/null=0/);
  });

  // The sandbox sees the host's /usr: python3 is there or not.
  it.skipIf(!fs.existsSync("/usr/bin/python3"))(
    "POSIX shared memory still works under a limit (python multiprocessing)",
    async () => {
      const run = await sandbox({ memoryMb: 256 }).execute(
        'python3 -c "import multiprocessing as m; q = m.Queue(); q.put(41); print(q.get() + 1)"',
      );
      expect(run.output.trim()).toBe("42");
    },
  );

  it("without memoryMb, /tmp still takes an ordinary temporary file", async () => {
    const run = await sandbox().execute("head -c 1048576 /dev/zero > /tmp/f && wc -c < /tmp/f");
    expect(run.output.trim()).toBe("1048576");
  });
});

describe("no host environment inside", () => {
  const marker = `delve-host-${randomBytes(6).toString("hex")}`;

  it("no process inside sees a host variable, /proc/1/environ included", async () => {
    process.env.DELVE_HOST_MARKER = marker;
    try {
      const run = await sandbox().execute(
        "for f in /proc/[0-9]*/environ; do echo \"== $f\"; tr '\\0' '\\n' < $f; done 2>/dev/null",
      );
      expect(run.output).toContain("== /proc/1/environ");
      expect(run.output).not.toContain(marker);
      expect(run.output).not.toContain(`HOME=${os.homedir()}\n`);
      const pid1 = run.output.split("== /proc/1/environ\n")[1]!.split("== ")[0]!;
      expect(pid1.trim()).toBe("");
    } finally {
      delete process.env.DELVE_HOST_MARKER;
    }
  });

  it("the command's PATH is the sandbox's, never the host's", async () => {
    process.env.PATH = `/opt/${marker}/bin:${process.env.PATH}`;
    try {
      const run = await sandbox().execute(
        "echo PATH=$PATH; cat /proc/1/environ /proc/self/environ",
      );
      expect(run.output).not.toContain(marker);
      expect(run.output).toMatch(
        /^PATH=\/usr\/local\/sbin:\/usr\/local\/bin:\/usr\/sbin:\/usr\/bin:\/sbin:\/bin$/m,
      );
    } finally {
      process.env.PATH = process.env.PATH!.replace(`/opt/${marker}/bin:`, "");
    }
  });

  it("variables given with env still reach the command", async () => {
    const run = await sandbox({ env: { TICKET_DB: "sqlite" } }).execute("echo $TICKET_DB");
    expect(run.output.trim()).toBe("sqlite");
  });
});

describe("proc: false hides where the workspace is on the host", () => {
  const leaks = "cat /proc/self/mountinfo /proc/mounts /proc/1/environ 2>&1; ls /proc 2>&1";

  it("by default the mount table names rootDir's host path (the documented limit)", async () => {
    const backend = sandbox();
    const run = await backend.execute("cat /proc/self/mountinfo");
    expect(run.output).toContain(`${backend.rootDir} /workspace `);
  });

  it("with proc: false no path of the host shows, and commands still run in /workspace", async () => {
    const backend = new SandboxBackend({ rootDir: fs.mkdtempSync(`${tmp}/ws-`), proc: false });
    const run = await backend.execute(`${leaks}; echo hello > a.txt; cat a.txt; pwd`);
    expect(run.output).not.toContain(backend.rootDir);
    expect(run.output).not.toContain(tmp);
    expect(run.output).toMatch(/\/proc\/self\/mountinfo: No such file or directory/);
    expect(run.output).toMatch(/hello\n\/workspace\n$/);
    expect(fs.readFileSync(path.join(backend.rootDir, "a.txt"), "utf8")).toBe("hello\n");
  });

  it("without /proc, what the docs say fails does fail: ps and bash's <(...)", async () => {
    const backend = new SandboxBackend({ rootDir: fs.mkdtempSync(`${tmp}/ws-`), proc: false });
    const ps = await backend.execute("ps");
    expect(ps.exitCode).not.toBe(0);
    const sub = await backend.execute("bash -c 'cat <(echo inner)'");
    expect(sub.output).not.toContain("inner");
    expect(sub.output).toMatch(/\/dev\/fd\/\d+: No such file or directory/);
  });

  it("restriction mounts still hold without /proc, and their host paths do not show", async () => {
    const root = fs.mkdtempSync(`${tmp}/ws-`);
    fs.mkdirSync(path.join(root, "secrets"));
    fs.writeFileSync(path.join(root, "secrets", "key.txt"), "SECRET-KEY\n");
    fs.mkdirSync(path.join(root, "policies"));
    fs.writeFileSync(path.join(root, "policies", "p.md"), "policy\n");
    const backend = new SandboxBackend({ rootDir: root, proc: false }).restrictPaths({
      hide: ["/secrets"],
      readOnly: ["/policies"],
    });
    const run = await backend.execute(
      `cat secrets/key.txt; echo changed > policies/p.md; ${leaks}`,
    );
    expect(run.output).not.toContain("SECRET-KEY");
    expect(run.output).not.toContain(root);
    expect(fs.readFileSync(path.join(root, "policies", "p.md"), "utf8")).toBe("policy\n");
  });

  it("the file tools work the same without /proc", async () => {
    const backend = new SandboxBackend({ rootDir: fs.mkdtempSync(`${tmp}/ws-`), proc: false });
    expect((await backend.write("/notes/a.md", "alpha\nbeta\n")).error).toBeUndefined();
    expect((await backend.edit("/notes/a.md", "beta", "gamma")).error).toBeUndefined();
    expect((await backend.read("/notes/a.md")).lines).toEqual(["alpha", "gamma"]);
    expect((await backend.ls("/notes")).files?.map((f) => f.path)).toEqual(["/notes/a.md"]);
    expect((await backend.glob("**/*.md")).files?.map((f) => f.path)).toEqual(["/notes/a.md"]);
    const grep = await backend.grep("gamma");
    expect(grep.matches?.map((m) => [m.path, m.line])).toEqual([["/notes/a.md", 2]]);
  });

  it("a proc that is not a boolean is refused when the backend is built", () => {
    expect(() => new SandboxBackend({ rootDir: tmp, proc: "no" as any })).toThrow(
      /SandboxBackend.*proc.*must be true or false/,
    );
  });
});
