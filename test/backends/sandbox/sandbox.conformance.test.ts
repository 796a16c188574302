import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type {
  ExecuteOptions,
  ExecuteResult,
  FileDownloadResult,
  FileUpload,
  FileUploadResult,
} from "delve";
import { BaseSandbox, checkVirtualPath, SandboxBackend } from "delve";
import { runProcess } from "../../../src/backends/disk/process-runner.js";
import { runBackendConformance } from "../../../src/testing/conformance.js";

function tempRoot() {
  const rootDir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-sandbox-conformance-"));
  return { rootDir, cleanup: () => fs.rmSync(rootDir, { recursive: true, force: true }) };
}

runBackendConformance("SandboxBackend", () => {
  const { rootDir, cleanup } = tempRoot();
  return { backend: new SandboxBackend({ rootDir }), cleanup };
});

// What a remote provider writes: only the primitives. Here the "remote" sandbox is a host
// directory reached through a shell, with virtual "/" at a workspace other than "/workspace".
class ShellDirectorySandbox extends BaseSandbox {
  readonly id = "shell-directory";
  constructor(readonly workspace: string) {
    super();
  }

  execute(command: string, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    return runProcess(command, {
      cwd: this.workspace,
      env: { PATH: "/usr/bin:/bin" },
      timeoutSeconds: options.timeout ?? 30,
      maxOutputBytes: 10_000_000,
    });
  }

  async uploadFiles(files: FileUpload[]): Promise<FileUploadResult[]> {
    return files.map(({ path: input, content }) => {
      const checked = checkVirtualPath(input);
      if (!checked.ok)
        return { path: input, error: { code: "invalid_path", message: checked.reason } };
      const target = this.sandboxPath(checked.path);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, content);
      return { path: checked.path };
    });
  }

  async downloadFiles(paths: string[]): Promise<FileDownloadResult[]> {
    return paths.map((input) => {
      const checked = checkVirtualPath(input);
      if (!checked.ok)
        return { path: input, error: { code: "invalid_path", message: checked.reason } };
      try {
        return {
          path: checked.path,
          content: new Uint8Array(fs.readFileSync(this.sandboxPath(checked.path))),
        };
      } catch (error) {
        const code =
          (error as NodeJS.ErrnoException).code === "EISDIR" ? "is_directory" : "not_found";
        return { path: checked.path, error: { code, message: `${checked.path}: ${code}` } };
      }
    });
  }
}

runBackendConformance("BaseSandbox subclass implementing only the primitives", () => {
  const { rootDir, cleanup } = tempRoot();
  return { backend: new ShellDirectorySandbox(rootDir), cleanup };
});
