/**
 * The backend protocol: where the file tools' files live. Types only.
 *
 * Every path is a virtual, absolute POSIX path ("/notes/a.md"). Every method is async and
 * reports failure through the `error` field of its result instead of throwing, so a
 * misbehaving model never crashes a run through a backend. Backends know nothing of tools,
 * prompts or permissions.
 */

/** Why a backend operation failed. Tools turn the code into model-facing text. */
export type BackendErrorCode =
  | "not_found"
  | "is_directory"
  | "not_a_directory"
  | "invalid_path"
  | "permission_denied"
  | "string_not_found"
  | "not_unique"
  | "too_large"
  | "unsupported"
  | "timeout"
  | "io";

/** A structured backend failure: a stable code plus a one-line human message. */
export interface BackendError {
  code: BackendErrorCode;
  message: string;
}

/**
 * One file as held by in-memory backends (the `files` state channel, stores). Text is kept
 * as UTF-8 text; bytes as base64 so the value stays JSON-serialisable in checkpoints.
 */
export interface FileData {
  content: string;
  encoding: "utf-8" | "base64";
  createdAt: string;
  modifiedAt: string;
}

/** An entry of a listing. Directory paths end with "/". */
export interface FileInfo {
  path: string;
  isDir: boolean;
  size?: number;
  modifiedAt?: string;
}

export interface LsResult {
  error?: BackendError;
  files?: FileInfo[];
}

export interface ReadOptions {
  /** 0-based line to start at (text files). Default 0. */
  offset?: number;
  /** Lines to return (text files). Default 2,000 at the protocol level. */
  limit?: number;
}

/**
 * A read. Text files return one page of `lines` with 1-based `startLine`/`endLine`, the
 * file's `totalLines`, and `nextOffset` when more remains. Binary files return `bytes`.
 */
export interface ReadResult {
  error?: BackendError;
  kind?: "text" | "binary";
  lines?: string[];
  totalLines?: number;
  startLine?: number;
  endLine?: number;
  nextOffset?: number;
  bytes?: Uint8Array;
  /** Size of the whole file in bytes. */
  size?: number;
}

export interface WriteResult {
  error?: BackendError;
  path?: string;
  /** True when the file did not exist before; false when it was overwritten. */
  created?: boolean;
}

export interface EditOptions {
  replaceAll?: boolean;
}

export interface EditResult {
  error?: BackendError;
  path?: string;
  /** How many occurrences were replaced; on a `not_unique` error, how many were found. */
  occurrences?: number;
}

export interface DeleteResult {
  error?: BackendError;
  /** Every file path removed (a directory delete lists each file under it). */
  deleted?: string[];
}

export interface GrepOptions {
  /** Directory (or file) to search under. Default "/". */
  path?: string;
  /** Only files whose path matches this glob (same rules as `glob`). */
  glob?: string;
  /** Stop after this many matching lines and set `truncated`. */
  maxCount?: number;
}

/** One matching line. `line` is 1-based. */
export interface GrepMatch {
  path: string;
  line: number;
  text: string;
}

export interface GrepResult {
  error?: BackendError;
  matches?: GrepMatch[];
  /** True when the search stopped early: the matches are valid but incomplete. */
  truncated?: boolean;
}

export interface GlobOptions {
  /** Directory the pattern is relative to. Default "/". */
  path?: string;
  /** Stop after this many files and set `truncated`. */
  maxResults?: number;
}

export interface GlobResult {
  error?: BackendError;
  files?: FileInfo[];
  truncated?: boolean;
}

export interface ExecuteOptions {
  /** Seconds before the command (and every process it started) is killed. */
  timeout?: number;
}

export interface ExecuteResult {
  output: string;
  /** The exit code; null when the process was killed or the code is unknown. */
  exitCode: number | null;
  /** True when `output` was cut at the backend's output cap. */
  truncated: boolean;
  /** True when the command was killed at its timeout. */
  timedOut?: boolean;
  error?: BackendError;
}

export interface FileUpload {
  path: string;
  content: Uint8Array;
}

export interface FileUploadResult {
  path: string;
  error?: BackendError;
}

export interface FileDownloadResult {
  path: string;
  content?: Uint8Array;
  error?: BackendError;
}

/**
 * What every backend implements. `delete` and `execute` are optional: the file tools hide
 * `delete` from the model when it is missing and `execute` when it is missing.
 *
 * @example
 * class MyBackend implements BackendProtocol { async ls(path: string) { ... } ... }
 */
export interface BackendProtocol {
  ls(path: string): Promise<LsResult>;
  read(path: string, options?: ReadOptions): Promise<ReadResult>;
  write(path: string, content: string | Uint8Array): Promise<WriteResult>;
  edit(
    path: string,
    oldString: string,
    newString: string,
    options?: EditOptions,
  ): Promise<EditResult>;
  grep(pattern: string, options?: GrepOptions): Promise<GrepResult>;
  glob(pattern: string, options?: GlobOptions): Promise<GlobResult>;
  delete?(path: string): Promise<DeleteResult>;
  execute?(command: string, options?: ExecuteOptions): Promise<ExecuteResult>;
  uploadFiles(files: FileUpload[]): Promise<FileUploadResult[]>;
  downloadFiles(paths: string[]): Promise<FileDownloadResult[]>;
}

/** A backend that can run shell commands. */
export interface ExecutableBackend extends BackendProtocol {
  execute(command: string, options?: ExecuteOptions): Promise<ExecuteResult>;
}

/**
 * A backend whose `execute` can be confined to honour literal-path permission rules, as
 * the bubblewrap sandbox does by not mounting (hide) or mounting read-only. `createDeepAgent`
 * calls it when permissions are combined with an executing backend; an executing backend
 * without it, or a rule it cannot enforce, is a construction error.
 */
export interface PathRestrictable {
  /**
   * Returns a backend (this one or a copy) whose commands cannot read `hide` paths nor
   * write `readOnly` paths. Throws a `ConfigurationError` naming any path it cannot enforce.
   */
  restrictPaths(rules: { hide: string[]; readOnly: string[] }): BackendProtocol;
}
