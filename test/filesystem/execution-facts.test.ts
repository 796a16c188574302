import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BackendWrapper,
  CompositeBackend,
  InMemoryBackend,
  LocalShellBackend,
  SandboxBackend,
} from "delve";
import { afterAll, describe, expect, it } from "vitest";
import { fsTools, toolNamed } from "./tools/fs-harness.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "delve-exec-facts-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("execute says where it runs, from the backend's real options", () => {
  it("LocalShellBackend: on the host as this process's user, not isolated, the network reachable, its rootDir is / in the file tools, its timeout", () => {
    const rootDir = tempDir();
    const { tools } = fsTools({ backend: new LocalShellBackend({ rootDir, timeout: 7 }) });
    const text = toolNamed(tools, "execute").description;
    expect(text).toContain(
      "on the host as this process's user, NOT isolated (it can reach the network and change anything that user can)",
    );
    expect(text).toContain(`It starts in ${rootDir}, which is / in the file tools`);
    expect(text).toContain(`(${rootDir}/src/a.js is /src/a.js)`);
    expect(text).toContain("Killed after 7 s");
    expect(text).not.toContain("sandbox");
  });

  it("SandboxBackend: isolated, no network, /workspace is / in the file tools", () => {
    const { tools } = fsTools({ backend: new SandboxBackend({ rootDir: tempDir(), timeout: 30 }) });
    const text = toolNamed(tools, "execute").description;
    expect(text).toContain("in an isolated sandbox with no network");
    expect(text).toContain("(/workspace/src/a.js is /src/a.js)");
    expect(text).toContain("Killed after 30 s");
    expect(text).not.toContain("NOT isolated");
  });

  it("through CompositeBackend and BackendWrapper the default backend's facts hold", () => {
    const rootDir = tempDir();
    const composite = new CompositeBackend({
      default: new LocalShellBackend({ rootDir, timeout: 9 }),
      routes: { "/memories/": new InMemoryBackend() },
    });
    for (const backend of [composite, new BackendWrapper(composite)]) {
      const text = toolNamed(fsTools({ backend }).tools, "execute").description;
      expect(text).toContain(`It starts in ${rootDir}`);
      expect(text).toContain("Killed after 9 s");
    }
    const plain = new BackendWrapper(new InMemoryBackend());
    expect(typeof plain.executionFacts).not.toBe("function");
  });

  it("a file tool given a shell path answers with the file-tool path", async () => {
    const sandbox = fsTools({ backend: new SandboxBackend({ rootDir: tempDir() }) });
    expect(await sandbox.fails("read_file", { file_path: "/workspace/src/a.js" })).toBe(
      "Error: /workspace/src/a.js does not exist. Shell paths under /workspace are / in the file tools: use /src/a.js.",
    );
    const rootDir = tempDir();
    const local = fsTools({ backend: new LocalShellBackend({ rootDir }) });
    expect(await local.fails("read_file", { file_path: `${rootDir}/notes/b.md` })).toBe(
      `Error: ${rootDir}/notes/b.md does not exist. Shell paths under ${rootDir} are / in the file tools: use /notes/b.md.`,
    );
    // A missing path that is not a shell path keeps the usual hint.
    expect(await local.fails("read_file", { file_path: "/notes/b.md" })).toBe(
      "Error: /notes/b.md does not exist. Check the path with ls.",
    );
  });
});
