/**
 * The backend protocol: where the file tools' files live. Types only.
 *
 * Every path is a virtual, absolute POSIX path ("/notes/a.md"). Every method is async and
 * reports failure through the `error` field of its result instead of throwing, so a
 * misbehaving model never crashes a run through a backend. Backends know nothing of tools,
 * prompts or permissions; the built-in ones consult the path policy in force
 * (`activePathPolicy`, path-policy.ts) to judge the path they really touch and to drop hidden
 * entries inside their walks.
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

/** What `ls` returns: the directory's direct entries (directories end with "/"), or `error`. */
export interface LsResult {
  error?: BackendError;
  files?: FileInfo[];
}

/** Which page of a text file `read` returns. */
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

/** What `write` returns: the path written and whether it was created or overwritten, or `error`. */
export interface WriteResult {
  error?: BackendError;
  path?: string;
  /** True when the file did not exist before; false when it was overwritten. */
  created?: boolean;
}

/** How `edit` replaces: `oldString` must occur exactly once unless `replaceAll` is set. */
export interface EditOptions {
  replaceAll?: boolean;
}

/**
 * What `edit` returns: the path and how many occurrences were replaced, or `error`
 * (`string_not_found`, or `not_unique` with the count found).
 */
export interface EditResult {
  error?: BackendError;
  path?: string;
  /** How many occurrences were replaced; on a `not_unique` error, how many were found. */
  occurrences?: number;
}

/** What `delete` returns: every file removed, or `error`. */
export interface DeleteResult {
  error?: BackendError;
  /** Every file path removed (a directory delete lists each file under it). */
  deleted?: string[];
}

/** Where `grep` searches and when it stops. The pattern itself is literal text, never a regex. */
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

/** What `grep` returns: the matching lines (`truncated` if it stopped at `maxCount`), or `error`. */
export interface GrepResult {
  error?: BackendError;
  matches?: GrepMatch[];
  /** True when the search stopped early: the matches are valid but incomplete. */
  truncated?: boolean;
}

/**
 * Where `glob` starts and when it stops. Patterns follow one contract for every backend:
 * without "/" (`*.md`) a pattern matches the file name at any depth; with "/" (`docs/*.md`)
 * it matches the path relative to `path`; a leading "/" anchors it at the root.
 */
export interface GlobOptions {
  /** Directory the pattern is relative to. Default "/". */
  path?: string;
  /** Stop after this many files and set `truncated`. */
  maxResults?: number;
}

/** What `glob` returns: the matching files (`truncated` if it stopped early), or `error`. */
export interface GlobResult {
  error?: BackendError;
  files?: FileInfo[];
  truncated?: boolean;
}

/** Per-command settings for `execute`; the backend's own default applies when unset. */
export interface ExecuteOptions {
  /** Seconds before the command (and every process it started) is killed. */
  timeout?: number;
  /** When aborted, the command and every process it started are killed (a tool timeout, a cancel). */
  signal?: AbortSignal;
}

/**
 * Where `execute` runs, as a backend reports it about itself: the model-facing text of
 * `execute` and the file tools' "does not exist" hints are built from these facts.
 */
export interface ExecutionFacts {
  /** The directory commands start in, as commands see it; it is "/" in the file tools. */
  workdir: string;
  /** True when commands are isolated from the host (a sandbox); false when they run on it. */
  isolated: boolean;
  /** True when commands can reach the network. */
  network: boolean;
  /** Seconds before a command is killed, unless the call sets its own. */
  timeoutSeconds: number;
}

/**
 * What `execute` returns: stdout and stderr interleaved in `output`, the exit code, and
 * whether output was cut or the command timed out. A command that ran and failed is a
 * non-zero `exitCode`, not an `error`; `error` means it could not be run at all.
 */
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

/** One file for `uploadFiles`: a virtual path and its bytes (encode text with `TextEncoder`). */
export interface FileUpload {
  path: string;
  content: Uint8Array;
}

/** The outcome of one upload, in the order given; `error` set when that file was refused. */
export interface FileUploadResult {
  path: string;
  error?: BackendError;
}

/** The outcome of one download, in the order given: the file's bytes, or `error`. */
export interface FileDownloadResult {
  path: string;
  content?: Uint8Array;
  error?: BackendError;
}

/**
 * What every backend implements: where the file tools' files live. Paths are absolute
 * virtual POSIX paths; every method reports failure in its result's `error` instead of
 * throwing. `delete` and `execute` are optional: the file tools hide `delete` from the model
 * when it is missing, and `execute` likewise. To add policy to an existing backend, extend
 * `BackendWrapper`; for a remote sandbox, extend `BaseSandbox`; prove a new backend with
 * `runBackendConformance` from `delve/testing`.
 *
 * @example
 * class KbBackend implements BackendProtocol {
 *   async read(path: string, options?: ReadOptions): Promise<ReadResult> {
 *     const text = await kb.fetch(path);
 *     if (text === undefined) {
 *       return { error: { code: "not_found", message: `${path} does not exist` } };
 *     }
 *     // ...page `text` by offset and limit into lines, startLine, endLine, nextOffset
 *   }
 *   // ls, write, edit, grep, glob, uploadFiles, downloadFiles alike
 * }
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
  /** Where `execute` runs (optional): without it, `execute` is described in general terms. */
  executionFacts?(): ExecutionFacts;
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
