import type { BackendError, BackendProtocol, WriteResult } from "delve";
import { BackendWrapper, ConfigurationError, type GuardedCall, InMemoryBackend } from "delve";
import { describe, expect, it } from "vitest";
import { isUnder } from "../../../src/backends/protocol/paths.js";
import { RecordingExecBackend, withoutDelete } from "../../helpers/backend-doubles.js";

// Records every guarded call and lets everything through.
class Recorder extends BackendWrapper {
  readonly calls: GuardedCall[] = [];
  protected override async guard(call: GuardedCall): Promise<BackendError | undefined> {
    this.calls.push(call);
    return undefined;
  }
}

// The seed's PolicyWrapper, written the intended way: the policy lives in `guard`; `write`
// is overridden only to add behaviour (an audit log), as a naive port would.
class PolicyWrapper extends BackendWrapper {
  readonly audit: string[] = [];
  constructor(
    inner: BackendProtocol,
    readonly denyPrefixes: string[],
  ) {
    super(inner);
  }
  protected override async guard(call: GuardedCall): Promise<BackendError | undefined> {
    const denied = call.paths.find((p) => this.denyPrefixes.some((d) => isUnder(p, d)));
    if (call.access === "write" && denied) {
      return { code: "permission_denied", message: `${call.operation} refused: ${denied}` };
    }
    return undefined;
  }
  override async write(path: string, content: string | Uint8Array): Promise<WriteResult> {
    this.audit.push(`write ${path}`);
    return super.write(path, content);
  }
}

describe("BackendWrapper", () => {
  it("forwards every protocol method to the inner backend", async () => {
    const inner = new RecordingExecBackend({ files: { "/a.md": "alpha\n" } });
    const w = new Recorder(inner);
    expect(await w.write("/b.md", "beta\n")).toEqual({ path: "/b.md", created: true });
    expect(await w.edit("/b.md", "beta", "BETA")).toEqual({ path: "/b.md", occurrences: 1 });
    expect((await w.read("/b.md")).lines).toEqual(["BETA"]);
    expect((await w.ls("/")).files?.map((f) => f.path)).toEqual(["/a.md", "/b.md"]);
    expect((await w.glob("*.md")).files?.length).toBe(2);
    expect((await w.grep("alpha")).matches).toEqual([{ path: "/a.md", line: 1, text: "alpha" }]);
    expect(await w.uploadFiles([{ path: "/c.bin", content: new Uint8Array([0, 1]) }])).toEqual([
      { path: "/c.bin" },
    ]);
    expect((await w.downloadFiles(["/c.bin"]))[0]!.content).toEqual(new Uint8Array([0, 1]));
    expect(await w.delete!("/a.md")).toEqual({ deleted: ["/a.md"] });
    expect((await w.execute!("echo hi")).output).toBe("ran echo hi");
    expect(w.calls.map((c) => `${c.operation}:${c.access}`)).toEqual([
      "write:write",
      "edit:write",
      "read:read",
      "ls:read",
      "glob:read",
      "grep:read",
      "upload:write",
      "download:read",
      "delete:write",
      "execute:execute",
    ]);
    expect(w.calls.at(-1)).toEqual({
      operation: "execute",
      access: "execute",
      paths: [],
      command: "echo hi",
    });
  });

  it("a wrapper that overrides only write still guards delete", async () => {
    const inner = new InMemoryBackend({ files: { "/policies/p.md": "rule", "/notes/n.md": "n" } });
    const w = new PolicyWrapper(inner, ["/policies"]);
    expect((await w.delete!("/policies/p.md")).error?.code).toBe("permission_denied");
    expect((await w.delete!("/policies")).error?.code).toBe("permission_denied");
    expect((await w.edit("/policies/p.md", "rule", "none")).error?.code).toBe("permission_denied");
    expect((await w.write("/policies/p.md", "x")).error?.code).toBe("permission_denied");
    const uploads = await w.uploadFiles([
      { path: "/policies/q.md", content: new Uint8Array([65]) },
      { path: "/notes/q.md", content: new Uint8Array([66]) },
    ]);
    expect(uploads.map((u) => u.error?.code)).toEqual(["permission_denied", undefined]);
    expect(inner.snapshot()["/policies/p.md"]?.content).toBe("rule");
    expect(Object.keys(inner.snapshot()).sort()).toEqual([
      "/notes/n.md",
      "/notes/q.md",
      "/policies/p.md",
    ]);
    expect((await w.read("/policies/p.md")).lines).toEqual(["rule"]);
    expect(w.audit).toEqual(["write /policies/p.md"]);
  });

  it("the guard sees normalised paths, and the inner backend gets the guarded path", async () => {
    const inner = new InMemoryBackend();
    const w = new PolicyWrapper(inner, ["/secrets"]);
    for (const sneaky of ["secrets/.env", "/secrets//.env", "/./secrets/.env"]) {
      expect((await w.write(sneaky, "x")).error?.code).toBe("permission_denied");
      expect((await w.delete!(sneaky)).error?.code).toBe("permission_denied");
    }
    expect(inner.snapshot()).toEqual({});
  });

  it("an invalid path is refused before the guard runs", async () => {
    const w = new Recorder(new InMemoryBackend());
    expect((await w.write("/a/../../etc/passwd", "x")).error?.code).toBe("invalid_path");
    expect((await w.downloadFiles(["~/.ssh/id_rsa"]))[0]!.error?.code).toBe("invalid_path");
    expect(w.calls).toEqual([]);
  });

  it("grep and glob are guarded on the directory they search", async () => {
    const w = new Recorder(new InMemoryBackend());
    await w.grep("x");
    await w.glob("*", { path: "docs//api" });
    expect(w.calls.map((c) => c.paths)).toEqual([["/"], ["/docs/api"]]);
  });

  it("a refused execute returns an error result and does not run", async () => {
    class NoShell extends BackendWrapper {
      protected override async guard(call: GuardedCall) {
        return call.access === "execute"
          ? ({ code: "permission_denied", message: "no shell" } as const)
          : undefined;
      }
    }
    const result = await new NoShell(new RecordingExecBackend()).execute!("rm -rf /");
    expect(result).toEqual({
      output: "",
      exitCode: null,
      truncated: false,
      error: { code: "permission_denied", message: "no shell" },
    });
  });

  it("delete and execute exist exactly when the inner backend has them", () => {
    const plain = new Recorder(new InMemoryBackend());
    expect(typeof plain.delete).toBe("function");
    expect(typeof plain.execute).toBe("undefined");
    expect(typeof new Recorder(new RecordingExecBackend()).execute).toBe("function");
    expect(typeof new PolicyWrapper(withoutDelete(), []).delete).toBe("undefined");
  });

  it("the inner backend must be an instance", () => {
    expect(() => new BackendWrapper((() => new InMemoryBackend()) as never)).toThrow(
      ConfigurationError,
    );
  });
});
