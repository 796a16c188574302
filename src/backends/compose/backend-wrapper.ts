import { assertBackendInstance } from "../protocol/assert-backend.js";
import { checkVirtualPath } from "../protocol/paths.js";
import type {
  BackendError,
  BackendProtocol,
  DeleteResult,
  EditOptions,
  EditResult,
  ExecuteOptions,
  ExecuteResult,
  ExecutionFacts,
  FileDownloadResult,
  FileUpload,
  FileUploadResult,
  GlobOptions,
  GlobResult,
  GrepOptions,
  GrepResult,
  LsResult,
  ReadOptions,
  ReadResult,
  WriteResult,
} from "../protocol/protocol.js";

/** Each protocol method, as named to `guard`. */
export type BackendOperation =
  | "ls"
  | "read"
  | "grep"
  | "glob"
  | "download"
  | "write"
  | "edit"
  | "delete"
  | "upload"
  | "execute";

/** What an operation does: reads files, changes them, or runs a command. */
export type BackendAccess = "read" | "write" | "execute";

const ACCESS: Record<BackendOperation, BackendAccess> = {
  ls: "read",
  read: "read",
  grep: "read",
  glob: "read",
  download: "read",
  write: "write",
  edit: "write",
  delete: "write",
  upload: "write",
  execute: "execute",
};

/**
 * One call as a guard sees it. `paths` are canonical ("/a/b.md"): the path a file operation
 * names, the directory `ls`/`glob`/`grep` search ("/" by default), the single path of one
 * upload or download, none for `execute` (which carries `command`).
 */
export interface GuardedCall {
  operation: BackendOperation;
  access: BackendAccess;
  paths: string[];
  command?: string;
}

/**
 * A base for policy, audit and rate-limit wrappers. It forwards every protocol method to
 * `inner` and calls the one hook `guard` before each; a `BackendError` from `guard` is
 * returned instead of calling `inner`. Put the policy in `guard`: it then covers `write`,
 * `edit`, `delete`, `uploadFiles`, `execute` and the reads alike. Overriding only `write`
 * (as a port of the classic `PolicyWrapper` would) is NOT enough, since `edit`, `delete` and
 * `uploadFiles` also write; override a method only to add behaviour around `super`'s call.
 * Paths are checked and normalised before `guard`, so "/secrets//a" is seen as "/secrets/a",
 * and `inner` receives exactly the path that was guarded. `delete` and `execute` exist only
 * when `inner` has them (test with `typeof wrapper.delete === "function"`).
 *
 * @example
 * class ReadOnlyPolicies extends BackendWrapper {
 *   protected override async guard(call: GuardedCall) {
 *     const underPolicies = (p: string) => p === "/policies" || p.startsWith("/policies/");
 *     if (call.access === "write" && call.paths.some(underPolicies))
 *       return { code: "permission_denied", message: "/policies is read-only" } as const;
 *     return undefined;
 *   }
 * }
 * const backend = new ReadOnlyPolicies(new FilesystemBackend({ rootDir }));
 */
export class BackendWrapper implements BackendProtocol {
  constructor(readonly inner: BackendProtocol) {
    assertBackendInstance(inner, "BackendWrapper inner backend");
    // Hide capabilities the inner backend lacks, so capability detection stays truthful.
    if (typeof inner.delete !== "function") hide(this, "delete");
    if (typeof inner.execute !== "function") hide(this, "execute");
    if (typeof inner.executionFacts !== "function") hide(this, "executionFacts");
  }

  /** The inner backend's facts about where `execute` runs. */
  executionFacts?(): ExecutionFacts {
    return this.inner.executionFacts!();
  }

  /**
   * The policy hook, called before every forwarded operation. Returns an error to refuse
   * the call, or undefined to let it through. The default lets everything through.
   */
  protected async guard(_call: GuardedCall): Promise<BackendError | undefined> {
    return undefined;
  }

  async ls(path: string): Promise<LsResult> {
    return this.#run("ls", path, (p) => this.inner.ls(p));
  }

  async read(path: string, options?: ReadOptions): Promise<ReadResult> {
    return this.#run("read", path, (p) => this.inner.read(p, options));
  }

  async write(path: string, content: string | Uint8Array): Promise<WriteResult> {
    return this.#run("write", path, (p) => this.inner.write(p, content));
  }

  async edit(
    path: string,
    oldString: string,
    newString: string,
    options?: EditOptions,
  ): Promise<EditResult> {
    return this.#run("edit", path, (p) => this.inner.edit(p, oldString, newString, options));
  }

  async grep(pattern: string, options: GrepOptions = {}): Promise<GrepResult> {
    return this.#run("grep", options.path ?? "/", (path) =>
      this.inner.grep(pattern, { ...options, path }),
    );
  }

  async glob(pattern: string, options: GlobOptions = {}): Promise<GlobResult> {
    return this.#run("glob", options.path ?? "/", (path) =>
      this.inner.glob(pattern, { ...options, path }),
    );
  }

  async delete?(path: string): Promise<DeleteResult> {
    return this.#run("delete", path, (p) => this.inner.delete!(p));
  }

  async execute?(command: string, options?: ExecuteOptions): Promise<ExecuteResult> {
    const refused = await this.guard({
      operation: "execute",
      access: "execute",
      paths: [],
      command,
    });
    if (refused) return { output: "", exitCode: null, truncated: false, error: refused };
    return this.inner.execute!(command, options);
  }

  /** Guards each file on its own, so one refused path does not fail the batch. */
  async uploadFiles(files: FileUpload[]): Promise<FileUploadResult[]> {
    const out: FileUploadResult[] = new Array(files.length);
    const allowed: FileUpload[] = [];
    const slots: number[] = [];
    for (const [at, file] of files.entries()) {
      const refused = await this.#check("upload", file.path);
      if ("error" in refused) out[at] = { path: file.path, error: refused.error };
      else {
        allowed.push({ path: refused.path, content: file.content });
        slots.push(at);
      }
    }
    if (allowed.length > 0) {
      const answers = await this.inner.uploadFiles(allowed);
      slots.forEach((at, i) => {
        out[at] = answers[i] ?? { path: allowed[i]!.path, error: noAnswer };
      });
    }
    return out;
  }

  /** Guards each path on its own, so one refused path does not fail the batch. */
  async downloadFiles(paths: string[]): Promise<FileDownloadResult[]> {
    const out: FileDownloadResult[] = new Array(paths.length);
    const allowed: string[] = [];
    const slots: number[] = [];
    for (const [at, path] of paths.entries()) {
      const refused = await this.#check("download", path);
      if ("error" in refused) out[at] = { path, error: refused.error };
      else {
        allowed.push(refused.path);
        slots.push(at);
      }
    }
    if (allowed.length > 0) {
      const answers = await this.inner.downloadFiles(allowed);
      slots.forEach((at, i) => {
        out[at] = answers[i] ?? { path: allowed[i]!, error: noAnswer };
      });
    }
    return out;
  }

  // Normalises the path, then asks the guard; the error, or the path to forward.
  async #check(
    operation: BackendOperation,
    input: string,
  ): Promise<{ path: string } | { error: BackendError }> {
    const checked = checkVirtualPath(input);
    if (!checked.ok) {
      const message = `invalid path ${JSON.stringify(input)}: ${checked.reason}`;
      return { error: { code: "invalid_path", message } };
    }
    const refused = await this.guard({
      operation,
      access: ACCESS[operation],
      paths: [checked.path],
    });
    return refused ? { error: refused } : { path: checked.path };
  }

  async #run<R>(
    operation: BackendOperation,
    input: string,
    forward: (path: string) => Promise<R>,
  ): Promise<R | { error: BackendError }> {
    const checked = await this.#check(operation, input);
    return "error" in checked ? { error: checked.error } : forward(checked.path);
  }
}

const noAnswer: BackendError = { code: "io", message: "the inner backend returned no answer" };

function hide(target: object, method: "delete" | "execute" | "executionFacts"): void {
  Object.defineProperty(target, method, { value: undefined, configurable: true, writable: true });
}
