import { ConfigurationError } from "../errors/configuration-error.js";
import {
  applyFileChanges,
  createFileData,
  deleteFiles,
  downloadFileBytes,
  editFile,
  type FileOpOutcome,
  globFiles,
  grepFiles,
  lsFiles,
  readFile,
  uploadFileBytes,
  writeFile,
} from "./file-map-ops.js";
import { checkVirtualPath } from "./paths.js";
import type {
  BackendProtocol,
  DeleteResult,
  EditOptions,
  EditResult,
  FileData,
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
} from "./protocol.js";

/** Options of `InMemoryBackend`. */
export interface InMemoryBackendOptions {
  /** Files to start with, by virtual path: text, or bytes. */
  files?: Record<string, string | Uint8Array>;
}

/**
 * A backend whose files live in a `Map` in this process: nothing persists, nothing is shared
 * between instances. Useful for tests, scratch routes of a `CompositeBackend`, and as the
 * reference implementation of the protocol (it is `file-map-ops` applied to a `Map`).
 *
 * @example
 * const backend = new InMemoryBackend({ files: { "/notes/a.md": "hello\n" } });
 * await backend.grep("hello"); // { matches: [{ path: "/notes/a.md", line: 1, text: "hello" }] }
 */
export class InMemoryBackend implements BackendProtocol {
  readonly #files = new Map<string, FileData>();

  constructor(options: InMemoryBackendOptions = {}) {
    const now = new Date().toISOString();
    for (const [path, content] of Object.entries(options.files ?? {})) {
      const checked = checkVirtualPath(path);
      if (!checked.ok) {
        throw new ConfigurationError(
          "INVALID_PATH",
          `InMemoryBackend files: invalid path ${JSON.stringify(path)}: ${checked.reason}`,
          { path },
        );
      }
      this.#files.set(checked.path, createFileData(checked.path, content, now));
    }
  }

  /** A copy of every file, by path; for tests and debugging. */
  snapshot(): Record<string, FileData> {
    return Object.fromEntries(this.#files);
  }

  async ls(path: string): Promise<LsResult> {
    return lsFiles(this.#files, { path });
  }

  async read(path: string, options: ReadOptions = {}): Promise<ReadResult> {
    return readFile(this.#files, { path, ...options });
  }

  async write(path: string, content: string | Uint8Array): Promise<WriteResult> {
    return this.#apply(writeFile(this.#files, { path, content }));
  }

  async edit(
    path: string,
    oldString: string,
    newString: string,
    options: EditOptions = {},
  ): Promise<EditResult> {
    const replaceAll = options.replaceAll;
    return this.#apply(editFile(this.#files, { path, oldString, newString, replaceAll }));
  }

  async grep(pattern: string, options: GrepOptions = {}): Promise<GrepResult> {
    return grepFiles(this.#files, { pattern, ...options });
  }

  async glob(pattern: string, options: GlobOptions = {}): Promise<GlobResult> {
    return globFiles(this.#files, { pattern, ...options });
  }

  async delete(path: string): Promise<DeleteResult> {
    return this.#apply(deleteFiles(this.#files, { path }));
  }

  async uploadFiles(files: FileUpload[]): Promise<FileUploadResult[]> {
    return this.#apply(uploadFileBytes(this.#files, { files }));
  }

  async downloadFiles(paths: string[]): Promise<FileDownloadResult[]> {
    return downloadFileBytes(this.#files, { paths });
  }

  #apply<R>(outcome: FileOpOutcome<R>): R {
    if (outcome.changes) applyFileChanges(this.#files, outcome.changes);
    return outcome.result;
  }
}
