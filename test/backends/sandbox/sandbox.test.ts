import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { ConfigurationError, SandboxBackend } from "delve";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const temps: string[] = [];
function tempRoot(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-sandbox-test-"));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

// Host pids whose command line contains `tag` (background processes a sandbox left behind).
function processesWith(tag: string): number[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(tag);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function settle(tag: string): Promise<number[]> {
  // The namespace is torn down by the kernel right after bubblewrap exits: allow a moment.
  for (let i = 0; i < 40 && processesWith(tag).length > 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  return processesWith(tag);
}

describe("SandboxBackend: what a command can see and do", () => {
  let rootDir: string;
  let sandbox: SandboxBackend;
  beforeAll(() => {
    rootDir = tempRoot();
    fs.writeFileSync(path.join(rootDir, "hello.txt"), "from the host\n");
    sandbox = new SandboxBackend({ rootDir, maxOutputBytes: 1000 });
  });

  it("a command runs in /workspace, sees the workspace and writes into it", async () => {
    const run = await sandbox.execute("pwd; cat hello.txt; echo made > made.txt");
    expect(run.exitCode).toBe(0);
    expect(run.output).toBe("/workspace\nfrom the host\n");
    expect(fs.readFileSync(path.join(rootDir, "made.txt"), "utf8")).toBe("made\n");
  });

  it("writes outside the workspace fail: /usr, /etc, / and host-wide sysctls", async () => {
    // kernel.core_pattern is host-wide and checked by uid only; writing back its own value
    // keeps the host unchanged even if the protection were missing.
    const run = await sandbox.execute(
      "for f in /usr/x /etc/x /x /bin/x /etc/passwd; do (echo pwn > $f) 2>/dev/null && echo WROTE $f; done; cat /proc/sys/kernel/core_pattern > /tmp/cp; (cat /tmp/cp > /proc/sys/kernel/core_pattern) 2>/dev/null && echo WROTE core_pattern; echo end",
    );
    expect(run.output).toBe("end\n");
  });

  it("/tmp is fresh and empty for every command", async () => {
    const first = await sandbox.execute("ls -A /tmp; echo left > /tmp/mark; cat /tmp/mark");
    expect(first.output).toBe("left\n");
    const second = await sandbox.execute("ls -A /tmp | wc -l");
    expect(second.output.trim()).toBe("0");
    expect(fs.readdirSync(os.tmpdir()).length).toBeGreaterThan(0); // the host's /tmp is not empty
  });

  it("/root, the home directory, the project checkout, /etc/shadow and host env are invisible", async () => {
    process.env.DELVE_SANDBOX_HOST_SECRET = "host-env-secret";
    const hidden = ["/root", "/home", "/work", process.cwd(), os.homedir(), "/etc/shadow"];
    const run = await sandbox.execute(
      `for p in ${hidden.map((p) => `'${p}'`).join(" ")}; do [ -e "$p" ] && echo VISIBLE "$p"; done; ls -A /etc; env`,
    );
    delete process.env.DELVE_SANDBOX_HOST_SECRET;
    expect(fs.existsSync("/etc/shadow")).toBe(true); // present on the host, absent inside
    expect(run.output).not.toContain("VISIBLE");
    expect(run.output).not.toContain("host-env-secret");
    const etc = run.output
      .split("\n")
      .filter((line) => /^[a-z.]/.test(line) && !line.includes("="));
    expect(etc.every((e) => /^(alternatives|group|hosts|ld\.so.*|localtime|passwd)$/.test(e))).toBe(
      true,
    );
  });

  it("a server on the host's loopback is unreachable", async () => {
    const server = http.createServer((_, res) => res.end("HOST-LOOPBACK-SECRET"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const fromHost = await (await fetch(`http://127.0.0.1:${port}`)).text();
      expect(fromHost).toBe("HOST-LOOPBACK-SECRET"); // the server really answers on the host
      expect(process.execPath, "node must live under /usr to run inside").toMatch(/^\/usr\//);
      const client = `require("net").connect(${port}, "127.0.0.1").on("data", (d) => console.log("GOT", String(d))).on("connect", function () { this.write("GET / HTTP/1.0\\r\\n\\r\\n"); }).on("error", (e) => console.log("ERR", e.code))`;
      const run = await sandbox.execute(`${process.execPath} -e '${client}'; cat /proc/net/dev`);
      expect(run.output).toContain("ERR ECONNREFUSED");
      expect(run.output).not.toContain("HOST-LOOPBACK-SECRET");
      const interfaces = run.output.split("\n").filter((l) => /^\s*\w+:/.test(l));
      expect(interfaces.map((l) => l.trim().split(":")[0])).toEqual(["lo"]);
    } finally {
      server.close();
    }
  });

  it("every capability is dropped: CapEff is zero, remount and umount fail", async () => {
    const run = await sandbox.execute(
      "grep -E '^Cap(Eff|Prm|Bnd)' /proc/self/status; mount -o remount,rw /usr 2>/dev/null; echo remount=$?; umount /workspace 2>/dev/null; echo umount=$?; touch /usr/probe 2>/dev/null; echo touch=$?",
    );
    expect(run.output).toMatch(/CapPrm:\s+0{16}\nCapEff:\s+0{16}\nCapBnd:\s+0{16}/);
    expect(run.output).not.toMatch(/remount=0|umount=0|touch=0/);
  });

  it("a timeout kills the command and every background process it started", async () => {
    const started = Date.now();
    const run = await sandbox.execute(
      "sleep 600.101 & (setsid sleep 600.102 > /dev/null 2>&1 &); echo started; sleep 600.103",
      { timeout: 1 },
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(run.timedOut).toBe(true);
    expect(run.exitCode).toBeNull();
    expect(run.output).toContain("started");
    expect(await settle("600.10")).toEqual([]);
  });

  it("background processes do not outlive a command that exits", async () => {
    const run = await sandbox.execute(
      "(sleep 600.201 > /dev/null 2>&1 &); sleep 600.202 > /dev/null 2>&1 & echo bye",
    );
    expect(run.output).toBe("bye\n");
    expect(await settle("600.20")).toEqual([]);
  });

  it("output beyond maxOutputBytes is cut and marked truncated", async () => {
    const big = await sandbox.execute("head -c 5000 /dev/zero | tr '\\0' a; echo; echo tail >&2");
    expect(big.truncated).toBe(true);
    expect(big.output).toBe("a".repeat(1000));
    const small = await sandbox.execute("echo short");
    expect(small).toEqual({ output: "short\n", exitCode: 0, truncated: false });
  });

  it("a non-zero exit code comes back as is", async () => {
    expect((await sandbox.execute("exit 7")).exitCode).toBe(7);
  });
});

describe("SandboxBackend: resource limits", () => {
  it("maxFileSizeMb stops a command writing a larger file", async () => {
    const sandbox = new SandboxBackend({ rootDir: tempRoot(), maxFileSizeMb: 1 });
    const run = await sandbox.execute(
      "head -c 3000000 /dev/zero > big 2>/dev/null; echo rc=$?; wc -c < big; head -c 500000 /dev/zero > ok; echo ok=$?",
    );
    expect(run.output).toMatch(/^rc=(?!0\n)\d+\n1048576\nok=0\n$/);
  });

  it("memoryMb caps a process's address space", async () => {
    const sandbox = new SandboxBackend({ rootDir: tempRoot(), memoryMb: 64 });
    const grab = (bytes: number) =>
      `sh -c 'x=$(head -c ${bytes} /dev/zero | tr "\\0" a); echo \${#x}' 2>/dev/null; echo rc=$?`;
    const small = await sandbox.execute(grab(1_000_000));
    expect(small.output).toBe("1000000\nrc=0\n");
    const large = await sandbox.execute(grab(200_000_000));
    expect(large.output).not.toContain("200000000");
    expect(large.output).not.toContain("rc=0");
  });
});

describe("SandboxBackend: construction", () => {
  const savedPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  it("without bubblewrap on PATH the constructor says how to install it", () => {
    process.env.PATH = "/nonexistent-delve-path";
    let error: unknown;
    try {
      new SandboxBackend({ rootDir: tempRoot() });
    } catch (e) {
      error = e;
    }
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).code).toBe("SANDBOX_UNAVAILABLE");
    expect((error as Error).message).toContain("apt-get install bubblewrap");
  });

  it("unknown options and a missing rootDir are construction errors", () => {
    expect(() => new SandboxBackend({ rootDir: tempRoot(), timout: 5 } as never)).toThrow(
      /no option "timout"/,
    );
    expect(() => new SandboxBackend({ rootDir: "/nonexistent-delve-root" })).toThrow(/rootDir/);
    expect(() => new SandboxBackend({ rootDir: tempRoot(), timeout: 0 })).toThrow(/timeout/);
  });
});

describe("SandboxBackend.restrictPaths", () => {
  let rootDir: string;
  let open: SandboxBackend;
  let guarded: SandboxBackend;
  const host = (p: string) => path.join(rootDir, p);
  beforeAll(() => {
    rootDir = tempRoot();
    fs.mkdirSync(host("secrets/nested"), { recursive: true });
    fs.writeFileSync(host("secrets/key.txt"), "KEY-MARKER\n");
    fs.writeFileSync(host("secrets/nested/deep.txt"), "DEEP-MARKER\n");
    fs.writeFileSync(host(".env"), "ENV-MARKER\n");
    fs.mkdirSync(host("policies"));
    fs.writeFileSync(host("policies/rules.md"), "rule one\n");
    fs.mkdirSync(host("docs/area"), { recursive: true });
    fs.writeFileSync(host("docs/area/fixed.md"), "fixed\n");
    fs.writeFileSync(host("notes.md"), "free\n");
    open = new SandboxBackend({ rootDir });
    guarded = open.restrictPaths({
      hide: ["/secrets", "/.env", "/ghost"],
      readOnly: ["/policies", "/docs/area/fixed.md", "/future"],
    });
  });

  it("hidden paths are invisible to commands and to every file operation", async () => {
    const run = await guarded.execute(
      "cat secrets/key.txt .env secrets/nested/deep.txt 2>&1; ls -A secrets; grep -r MARKER . 2>/dev/null; echo done",
    );
    expect(run.output).not.toContain("MARKER");
    expect(run.output).toContain("done");
    const results = [
      await guarded.read("/secrets/key.txt"),
      await guarded.read("/.env"),
      await guarded.grep("MARKER"),
      await guarded.glob("**"),
      await guarded.ls("/secrets"),
      await guarded.downloadFiles(["/secrets/nested/deep.txt", "/.env"]),
    ];
    expect(JSON.stringify(results)).not.toContain("MARKER");
    expect((await guarded.read("/secrets/key.txt")).error?.code).toBe("permission_denied");
    // The unrestricted backend it was made from is unchanged.
    expect((await open.read("/secrets/key.txt")).lines).toEqual(["KEY-MARKER"]);
  });

  it("read-only paths cannot be changed by commands, writes, edits, uploads or deletes", async () => {
    const run = await guarded.execute(
      "echo x >> policies/rules.md; echo x > policies/new.md; rm -f policies/rules.md; echo x > docs/area/fixed.md; mkdir future/x; echo ok > notes.md; cat policies/rules.md",
    );
    expect(run.output).toContain("rule one");
    expect((await guarded.write("/policies/rules.md", "changed")).error?.code).toBe(
      "permission_denied",
    );
    expect((await guarded.edit("/policies/rules.md", "one", "two")).error?.code).toBe(
      "permission_denied",
    );
    expect((await guarded.write("/future/plan.md", "x")).error?.code).toBe("permission_denied");
    const upload = await guarded.uploadFiles([
      { path: "/docs/area/fixed.md", content: Buffer.from("x") },
    ]);
    expect(upload[0]!.error?.code).toBe("permission_denied");
    expect((await guarded.delete("/policies")).error?.code).toBe("permission_denied");
    expect(fs.readdirSync(host("policies"))).toEqual(["rules.md"]);
    expect(fs.readFileSync(host("policies/rules.md"), "utf8")).toBe("rule one\n");
    expect(fs.readFileSync(host("docs/area/fixed.md"), "utf8")).toBe("fixed\n");
    expect(fs.readdirSync(host("future"))).toEqual([]);
    // Everything else stays writable, and readable.
    expect(fs.readFileSync(host("notes.md"), "utf8")).toBe("ok\n");
    expect((await guarded.read("/policies/rules.md")).lines).toEqual(["rule one"]);
    expect((await guarded.write("/docs/other.md", "fine")).error).toBeUndefined();
  });

  it("a command cannot move, unmount or delete a restricted path to see it in the next command", async () => {
    await guarded.execute(
      "mv secrets s2; mv docs d2; mv policies p2; rm -rf secrets .env policies; umount secrets; mount --bind notes.md .env",
    );
    expect(fs.readFileSync(host("secrets/key.txt"), "utf8")).toBe("KEY-MARKER\n");
    const run = await guarded.execute(
      "cat secrets/key.txt s2/key.txt .env 2>/dev/null; echo x > policies/rules.md; ls",
    );
    expect(run.output).not.toContain("MARKER");
    expect(fs.readFileSync(host("policies/rules.md"), "utf8")).toBe("rule one\n");
  });

  it("a symlink made by a command does not lead host-side operations into restricted paths", async () => {
    await guarded.execute(
      "ln -s secrets to-secrets; ln -s policies to-policies; ln -s .env env-link",
    );
    const results = [
      await guarded.read("/to-secrets/key.txt"),
      await guarded.read("/env-link"),
      await guarded.downloadFiles(["/to-secrets/nested/deep.txt"]),
      await guarded.edit("/to-policies/rules.md", "one", "two"),
      await guarded.write("/to-policies/new.md", "x"),
    ];
    expect(JSON.stringify(results)).not.toContain("MARKER");
    for (const result of results) {
      const error = Array.isArray(result) ? result[0]!.error : result.error;
      expect(error?.code).toBe("permission_denied");
    }
    expect(fs.readdirSync(host("policies"))).toEqual(["rules.md"]);
  });

  it("a wildcard rule is refused with UNENFORCEABLE_RULE naming the path and the reason", () => {
    for (const rule of ["/secrets/**", "/docs/*.md", "/a?", "/[ab]", "/{a,b}"]) {
      let error: unknown;
      try {
        open.restrictPaths({ hide: [rule], readOnly: [] });
      } catch (e) {
        error = e;
      }
      expect(ConfigurationError.isInstance(error), rule).toBe(true);
      expect((error as ConfigurationError).code).toBe("UNENFORCEABLE_RULE");
      expect((error as ConfigurationError).details.path).toBe(rule);
      expect((error as Error).message).toContain("literal paths");
    }
  });

  it("a restricted path that goes through a symlink is refused at construction", () => {
    fs.symlinkSync("docs", host("docs-link"));
    expect(() => open.restrictPaths({ hide: [], readOnly: ["/docs-link/area"] })).toThrow(
      /docs-link is a symbolic link/,
    );
  });
});

describe("BaseSandbox operations through the sandbox", () => {
  it("shell syntax in paths and patterns stays literal", async () => {
    const rootDir = tempRoot();
    const sandbox = new SandboxBackend({ rootDir });
    const name = "/it's $(touch pwned) `touch pwned2` ; a b.md";
    expect((await sandbox.write(name, "x $(touch pwned3) 'q' \"d\"\n")).error).toBeUndefined();
    expect((await sandbox.ls("/")).files?.map((f) => f.path)).toEqual([name]);
    const grep = await sandbox.grep("$(touch pwned3) 'q'");
    expect(grep.matches).toEqual([{ path: name, line: 1, text: "x $(touch pwned3) 'q' \"d\"" }]);
    expect((await sandbox.glob("*.md")).files?.map((f) => f.path)).toEqual([name]);
    expect((await sandbox.delete(name)).deleted).toEqual([name]);
    expect(fs.readdirSync(rootDir)).toEqual([]);
  });

  it("grep searches many files in batches, in path order, up to maxCount", async () => {
    const rootDir = tempRoot();
    for (let i = 0; i < 3000; i++) {
      const dir = path.join(rootDir, `dir-${String(i % 10)}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, `file-with-a-long-name-${String(i).padStart(5, "0")}.txt`),
        "needle\n",
      );
    }
    const sandbox = new SandboxBackend({ rootDir });
    const all = await sandbox.grep("needle", { glob: "*.txt", maxCount: 5000 });
    expect(all.matches).toHaveLength(3000);
    expect(all.truncated).toBeUndefined();
    const paths = all.matches!.map((m) => m.path);
    expect(paths).toEqual([...paths].sort());
    const capped = await sandbox.grep("needle", { maxCount: 7 });
    expect(capped.matches).toHaveLength(7);
    expect(capped.truncated).toBe(true);
  });
});
