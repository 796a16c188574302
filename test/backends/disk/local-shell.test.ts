import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FilesystemBackend, LocalShellBackend } from "delve";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "delve-shell-"));
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

// Alive means running or stopped; a zombie (killed, not yet reaped by init) counts as gone.
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function waitUntilGone(pid: number, ms = 2000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !isAlive(pid);
}

function readPid(file: string): number {
  return Number(fs.readFileSync(path.join(root, file), "utf8").trim());
}

// Matches a ConfigurationError carrying `code`.
const configError = (code: string) => expect.objectContaining({ name: "ConfigurationError", code });

describe("LocalShellBackend.execute", () => {
  it("runs in rootDir and returns output and exit code", async () => {
    const shell = new LocalShellBackend({ rootDir: root });
    const result = await shell.execute("pwd; exit 3");
    expect(result.output).toBe(`${fs.realpathSync(root)}\n`);
    expect(result.exitCode).toBe(3);
    expect(result.truncated).toBe(false);
    expect(result.timedOut).toBeUndefined();
  });

  it("interleaves stdout and stderr in the order they were written", async () => {
    const shell = new LocalShellBackend({ rootDir: root });
    const result = await shell.execute("echo one; echo two >&2; echo three; echo four >&2");
    expect(result.output).toBe("one\ntwo\nthree\nfour\n");
  });

  it("files written by a command are visible to the file operations", async () => {
    const shell = new LocalShellBackend({ rootDir: root });
    await shell.execute("mkdir -p out && printf 'made by sh\\n' > out/x.txt");
    expect((await shell.read("/out/x.txt")).lines).toEqual(["made by sh"]);
    expect(shell).toBeInstanceOf(FilesystemBackend);
  });

  it("a timeout kills the command and its background children, and says so", async () => {
    const shell = new LocalShellBackend({ rootDir: root });
    const started = Date.now();
    const result = await shell.execute(
      "sleep 30 & echo $! > bg.pid; echo $$ > sh.pid; echo started; sleep 30",
      { timeout: 1 },
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.output).toContain("started");
    expect(result.output).toContain("timed out after 1 s");
    expect(await waitUntilGone(readPid("bg.pid"))).toBe(true);
    expect(await waitUntilGone(readPid("sh.pid"))).toBe(true);
  });

  it("a timeout also kills a child that left the process group with setsid", async () => {
    const shell = new LocalShellBackend({ rootDir: root, timeout: 1 });
    const result = await shell.execute("setsid sh -c 'echo $$ > escaped.pid; sleep 30' & sleep 30");
    expect(result.timedOut).toBe(true);
    expect(await waitUntilGone(readPid("escaped.pid"))).toBe(true);
  });

  it("a command that leaves a background process holding its output still returns", async () => {
    const shell = new LocalShellBackend({ rootDir: root, timeout: 20 });
    const started = Date.now();
    const result = await shell.execute("sleep 5 & echo $! > bg.pid; echo done");
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.exitCode).toBe(0);
    expect(result.output).toBe("done\n");
    process.kill(readPid("bg.pid"), "SIGKILL");
  });

  it("output past maxOutputBytes is dropped and marked truncated", async () => {
    const shell = new LocalShellBackend({ rootDir: root, maxOutputBytes: 1000 });
    const big = await shell.execute("head -c 50000 /dev/zero | tr '\\0' a; echo tail");
    expect(big.output).toBe("a".repeat(1000));
    expect(big.truncated).toBe(true);
    expect(big.exitCode).toBe(0);
    const small = await shell.execute("echo fits");
    expect(small.truncated).toBe(false);
  });

  it("a cut through a multi-byte character drops the partial character", async () => {
    const shell = new LocalShellBackend({ rootDir: root, maxOutputBytes: 4 });
    const result = await shell.execute("printf '工单'"); // 6 bytes: the cut falls inside 单
    expect(result.output).toBe("工");
    expect(result.truncated).toBe(true);
  });

  it("the environment is empty but for a minimal PATH by default", async () => {
    process.env.DELVE_TEST_SECRET = "s3cr3t-value";
    try {
      const shell = new LocalShellBackend({ rootDir: root });
      const result = await shell.execute('echo "HOME=[$HOME]"; env');
      expect(result.output).toContain("HOME=[]");
      expect(result.output).toContain("PATH=/usr/local/bin:/usr/bin:/bin");
      expect(result.output).not.toContain("s3cr3t-value");
      const names = result.output
        .split("\n")
        .slice(1)
        .filter(Boolean)
        .map((line) => line.split("=")[0]);
      // sh itself adds PWD (and some shells OLDPWD, SHLVL, _); nothing comes from the parent.
      for (const name of names) expect(["PATH", "PWD", "OLDPWD", "SHLVL", "_"]).toContain(name);
    } finally {
      delete process.env.DELVE_TEST_SECRET;
    }
  });

  it("env adds variables on top of the minimal PATH", async () => {
    const shell = new LocalShellBackend({ rootDir: root, env: { TICKET: "T-1001" } });
    const result = await shell.execute('echo "$TICKET $PATH"');
    expect(result.output).toBe("T-1001 /usr/local/bin:/usr/bin:/bin\n");
  });

  it("inheritEnv passes this process's environment, and env overrides it", async () => {
    process.env.DELVE_TEST_SECRET = "inherited";
    process.env.DELVE_TEST_OTHER = "parent";
    try {
      const shell = new LocalShellBackend({
        rootDir: root,
        inheritEnv: true,
        env: { DELVE_TEST_OTHER: "override" },
      });
      const result = await shell.execute('echo "$DELVE_TEST_SECRET $DELVE_TEST_OTHER"');
      expect(result.output).toBe("inherited override\n");
    } finally {
      delete process.env.DELVE_TEST_SECRET;
      delete process.env.DELVE_TEST_OTHER;
    }
  });

  it("a per-call timeout overrides the backend's, and a bad one is an error result", async () => {
    const shell = new LocalShellBackend({ rootDir: root, timeout: 60 });
    const quick = await shell.execute("sleep 5", { timeout: 0.3 });
    expect(quick.timedOut).toBe(true);
    expect(quick.output).toContain("timed out after 0.3 s");
    const bad = await shell.execute("echo x", { timeout: -1 });
    expect(bad.error?.code).toBe("unsupported");
    expect(bad.exitCode).toBeNull();
  });

  it("a command that cannot start is an error result, not a throw", async () => {
    const gone = path.join(root, "gone");
    fs.mkdirSync(gone);
    const shell = new LocalShellBackend({ rootDir: gone });
    fs.rmdirSync(gone);
    const result = await shell.execute("echo hi");
    expect(result.error?.code).toBe("io");
    expect(result.exitCode).toBeNull();
  });
});

describe("LocalShellBackend construction", () => {
  it("rejects a timeout that is not a positive number of seconds", () => {
    for (const timeout of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, "10"]) {
      const make = () => new LocalShellBackend({ rootDir: root, timeout: timeout as number });
      expect(make, String(timeout)).toThrow(configError("INVALID_OPTION"));
    }
  });

  it("rejects a maxOutputBytes that is not a positive integer, and non-string env values", () => {
    expect(() => new LocalShellBackend({ rootDir: root, maxOutputBytes: 0 })).toThrow(
      configError("INVALID_OPTION"),
    );
    const badEnv = () => new LocalShellBackend({ rootDir: root, env: { N: 1 as never } });
    expect(badEnv).toThrow(configError("INVALID_OPTION"));
  });

  it("rejects a missing rootDir and unknown options", () => {
    expect(() => new LocalShellBackend({} as never)).toThrow(configError("MISSING_OPTION"));
    const typo = () => new LocalShellBackend({ rootDir: root, timeoutSeconds: 5 } as never);
    expect(typo).toThrow(configError("UNKNOWN_OPTION"));
  });
});
