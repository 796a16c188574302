import type { BackendProtocol, ExecuteResult } from "delve";
import { InMemoryBackend } from "delve";

/** A real in-memory backend with the optional `delete` capability left out. */
export function withoutDelete(inner = new InMemoryBackend()): BackendProtocol {
  return {
    ls: (p) => inner.ls(p),
    read: (p, o) => inner.read(p, o),
    write: (p, c) => inner.write(p, c),
    edit: (p, a, b, o) => inner.edit(p, a, b, o),
    grep: (p, o) => inner.grep(p, o),
    glob: (p, o) => inner.glob(p, o),
    uploadFiles: (f) => inner.uploadFiles(f),
    downloadFiles: (p) => inner.downloadFiles(p),
  };
}

/** An in-memory backend with an `execute` that records commands instead of running them. */
export class RecordingExecBackend extends InMemoryBackend {
  readonly commands: string[] = [];
  async execute(command: string): Promise<ExecuteResult> {
    this.commands.push(command);
    return { output: `ran ${command}`, exitCode: 0, truncated: false };
  }
}
