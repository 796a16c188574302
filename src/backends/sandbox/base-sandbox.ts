import {
  DEFAULT_GLOB_MAX_RESULTS,
  DEFAULT_GREP_MAX_COUNT,
  fileMatchesGlob,
} from "../protocol/file-query.js";
import { looksBinary, mediaTypeOf } from "../protocol/media-types.js";
import { policyShows } from "../protocol/path-policy.js";
import { checkVirtualPath } from "../protocol/paths.js";
import type {
  BackendError,
  DeleteResult,
  EditOptions,
  EditResult,
  ExecutableBackend,
  ExecuteOptions,
  ExecuteResult,
  FileDownloadResult,
  FileInfo,
  FileUpload,
  FileUploadResult,
  GlobOptions,
  GlobResult,
  GrepMatch,
  GrepOptions,
  GrepResult,
  LsResult,
  ReadOptions,
  ReadResult,
  WriteResult,
} from "../protocol/protocol.js";
import { editResultOf, pageText, replaceInText } from "../protocol/text-content.js";
import {
  batches,
  enterDirScript,
  errorOf,
  IS_DIRECTORY,
  isoOf,
  MAX_SCRIPT_BYTES,
  MKDIR_FAILED,
  NOT_A_DIRECTORY,
  NOT_FOUND,
  parseGrep,
  records,
  type ScriptFailure,
  scriptPrelude,
  shellQuote,
  splitFields,
} from "./sandbox-scripts.js";

export { shellQuote } from "./sandbox-scripts.js";

/**
 * The file operations of a sandbox, built on four primitives: `execute` (a shell command in
 * the sandbox), `uploadFiles` and `downloadFiles` (bytes in and out), and `workspace` (the
 * absolute sandbox path that virtual "/" maps to). `ls`, `glob`, `grep` and `delete` run small
 * POSIX shell + GNU find/grep scripts inside the sandbox with every model-supplied string
 * single-quoted; `read`, `write` and `edit` go through download and upload. Results follow
 * the protocol exactly (paths checked with `checkVirtualPath`, the `fileMatchesGlob`
 * contract, literal grep with `maxCount` and `truncated`, directories ending in "/"), and
 * symlinked directories leading out of the workspace are refused, not searched.
 *
 * This is the class a remote sandbox provider subclasses: implement `id`, `workspace`,
 * `execute`, `uploadFiles` and `downloadFiles`. Those two receive virtual paths, also from
 * callers other than this class: refuse any that is not absolute and canonical (no `..`,
 * NUL or backslash) and map the rest with `sandboxPath`. Override `runScript` when internal
 * commands may return more output than `execute` allows.
 *
 * @example
 * class MyCloudSandbox extends BaseSandbox {
 *   readonly id = "sbx-123";
 *   readonly workspace = "/home/user";
 *   async execute(command: string, options?: ExecuteOptions) { return api.run(this.id, command, options); }
 *   async uploadFiles(files: FileUpload[]) { return api.put(this.id, files.map((f) => ({ ...f, path: this.sandboxPath(f.path) }))); }
 *   async downloadFiles(paths: string[]) { return api.get(this.id, paths.map((p) => this.sandboxPath(p))); }
 * }
 */
export abstract class BaseSandbox implements ExecutableBackend {
  /** A stable, non-empty identifier of this sandbox. */
  abstract readonly id: string;
  /** Absolute path inside the sandbox where virtual "/" lives ("/" for the sandbox root). */
  abstract readonly workspace: string;
  abstract execute(command: string, options?: ExecuteOptions): Promise<ExecuteResult>;
  abstract uploadFiles(files: FileUpload[]): Promise<FileUploadResult[]>;
  abstract downloadFiles(paths: string[]): Promise<FileDownloadResult[]>;

  /** Runs one internal script. Defaults to `execute`; override to lift its output cap. */
  protected runScript(script: string): Promise<ExecuteResult> {
    return this.execute(script);
  }

  /** The sandbox path of a canonical virtual path ("/a" is `${workspace}/a`). */
  protected sandboxPath(virtualPath: string): string {
    if (this.workspace === "/" || this.workspace === "") return virtualPath;
    return virtualPath === "/" ? this.workspace : `${this.workspace}${virtualPath}`;
  }

  async ls(path: string): Promise<LsResult> {
    const at = canonical(path);
    if ("error" in at) return at;
    const run = await this.script(`${this.enter(at.path)}
find . -mindepth 1 -maxdepth 1 -printf '%y/%s/%T@/%P\\0' 2>/dev/null; exit 0`);
    if ("failure" in run) return { error: errorOf(run.failure, at.path) };
    const files = records(run.output).map((record): FileInfo => {
      const [type, size, mtime, name] = splitFields(record, 3);
      const child = join(at.path, name);
      const modifiedAt = isoOf(mtime);
      if (type === "d") return { path: `${child}/`, isDir: true, modifiedAt };
      return { path: child, isDir: false, size: Number(size), modifiedAt };
    });
    return { files: files.filter((f) => policyShows(f.path)).sort(byPath) };
  }

  async read(path: string, options: ReadOptions = {}): Promise<ReadResult> {
    const at = canonical(path);
    if ("error" in at) return at;
    const [download] = await this.downloadFiles([at.path]);
    if (!download?.content) return { error: download?.error ?? noAnswer(at.path) };
    const bytes = download.content;
    if (isBinary(at.path, bytes)) return { kind: "binary", bytes, size: bytes.byteLength };
    return pageText(Buffer.from(bytes).toString("utf8"), options, bytes.byteLength);
  }

  async write(path: string, content: string | Uint8Array): Promise<WriteResult> {
    const at = canonical(path);
    if ("error" in at) return at;
    if (at.path === "/") return { error: { code: "is_directory", message: "/ is a directory" } };
    const target = this.sandboxPath(at.path);
    const ancestors = ancestorsOf(at.path).map((p) => shellQuote(this.sandboxPath(p)));
    const fileInTheWay = ancestors.length
      ? `for A in ${ancestors.join(" ")}; do [ -e "$A" ] && [ ! -d "$A" ] && exit ${NOT_A_DIRECTORY}; done`
      : "";
    // Refuse a directory or a file in the way, make the parents, and say whether it existed.
    const run = await this.script(`P=${shellQuote(target)}
[ -d "$P" ] && exit ${IS_DIRECTORY}
${fileInTheWay}
mkdir -p -- "$(dirname -- "$P")" 2>&1 || exit ${MKDIR_FAILED}
if [ -e "$P" ] || [ -L "$P" ]; then printf E; else printf N; fi`);
    if ("failure" in run) return { error: errorOf(run.failure, at.path) };
    const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    const [upload] = await this.uploadFiles([{ path: at.path, content: bytes }]);
    if (!upload || upload.error) return { error: upload?.error ?? noAnswer(at.path) };
    return { path: at.path, created: run.output.trim() === "N" };
  }

  async edit(
    path: string,
    oldString: string,
    newString: string,
    options: EditOptions = {},
  ): Promise<EditResult> {
    const at = canonical(path);
    if ("error" in at) return at;
    const [download] = await this.downloadFiles([at.path]);
    if (!download?.content) return { error: download?.error ?? noAnswer(at.path) };
    if (isBinary(at.path, download.content)) {
      return { error: { code: "unsupported", message: `${at.path} is a binary file` } };
    }
    const text = Buffer.from(download.content).toString("utf8");
    const outcome = replaceInText(text, oldString, newString, options.replaceAll);
    if ("error" in outcome) return editResultOf(at.path, outcome);
    const [upload] = await this.uploadFiles([
      { path: at.path, content: Buffer.from(outcome.text, "utf8") },
    ]);
    if (!upload || upload.error) return { error: upload?.error ?? noAnswer(at.path) };
    return editResultOf(at.path, outcome);
  }

  async delete(path: string): Promise<DeleteResult> {
    const at = canonical(path);
    if ("error" in at) return at;
    if (at.path === "/") {
      return { error: invalidPath(path, "refusing to delete the root directory") };
    }
    const parent = at.path.slice(0, at.path.lastIndexOf("/")) || "/";
    const name = `./${at.path.slice(parent.length === 1 ? 1 : parent.length + 1)}`;
    // Lists the files, removes, lists what is left: `deleted` is exactly what went away.
    const run = await this.script(`P=${shellQuote(this.sandboxPath(at.path))}
[ -e "$P" ] || [ -L "$P" ] || exit ${NOT_FOUND}
${this.enter(parent)}
N=${shellQuote(name)}
find "$N" ! -type d -print0 2>/dev/null
printf '::rm\\0%s\\0' "$(rm -rf -- "$N" 2>&1 >/dev/null | head -n 1)"
find "$N" ! -type d -print0 2>/dev/null; exit 0`);
    if ("failure" in run) return { error: errorOf(run.failure, at.path) };
    const fields = records(run.output);
    const marker = fields.indexOf("::rm");
    const toVirtual = (rel: string) => join(parent, rel.slice(2));
    const before = fields.slice(0, marker).map(toVirtual);
    const left = new Set(fields.slice(marker + 2).map(toVirtual));
    const deleted = before.filter((p) => !left.has(p)).sort();
    const failure = fields[marker + 1] ?? "";
    if (left.size > 0 || (failure && before.length === 0)) {
      const code = /read-only|busy|not permitted/i.test(failure) ? "permission_denied" : "io";
      return { error: { code, message: `${at.path}: could not delete everything` }, deleted };
    }
    return { deleted };
  }

  async glob(pattern: string, options: GlobOptions = {}): Promise<GlobResult> {
    const at = canonical(options.path ?? "/");
    if ("error" in at) return at;
    const run = await this.script(`${this.enter(at.path)}
find . -mindepth 1 -type f -printf '%s/%T@/%P\\0' 2>/dev/null; exit 0`);
    if ("failure" in run) return { error: errorOf(run.failure, at.path) };
    const found: FileInfo[] = [];
    for (const record of records(run.output)) {
      const [size, mtime, rel] = splitFields(record, 2);
      const file = join(at.path, rel);
      if (!fileMatchesGlob(pattern, file, at.path)) continue;
      // Hidden files are dropped before the cap, so the cap says nothing about them.
      if (!policyShows(file)) continue;
      found.push({ path: file, isDir: false, size: Number(size), modifiedAt: isoOf(mtime) });
    }
    found.sort(byPath);
    const max = capOf(options.maxResults, DEFAULT_GLOB_MAX_RESULTS);
    const truncated = found.length > max || run.truncated;
    return truncated ? { files: found.slice(0, max), truncated: true } : { files: found };
  }

  /**
   * Literal search: lists the candidate files (regular, singly-linked, never through a
   * symlink), filters them with the glob contract here, then runs `grep -F` inside the
   * sandbox on batches of them in path order, stopping at `maxCount`.
   */
  async grep(pattern: string, options: GrepOptions = {}): Promise<GrepResult> {
    const at = canonical(options.path ?? "/");
    if ("error" in at) return at;
    const max = capOf(options.maxCount, DEFAULT_GREP_MAX_COUNT);
    // grep -F reads a newline as "or": a line can never contain one, so nothing matches.
    if (pattern.includes("\n") || pattern.includes("\0")) return { matches: [] };
    const list = await this.script(`P=${shellQuote(this.sandboxPath(at.path))}
[ -e "$P" ] || [ -L "$P" ] || exit ${NOT_FOUND}
if [ -d "$P" ]; then
  inside "$P"; cd -- "$R" || exit ${NOT_FOUND}; printf 'D\\0'
  find . -type f -links 1 -print0 2>/dev/null
else
  inside "$(dirname -- "$P")"; cd -- "$R" || exit ${NOT_FOUND}; printf 'F\\0'
  find "./$(basename -- "$P")" -maxdepth 0 -type f -links 1 -print0 2>/dev/null
fi
exit 0`);
    if ("failure" in list) return { error: errorOf(list.failure, at.path) };
    const [kind, ...found] = records(list.output);
    const base = kind === "D" ? at.path : at.path.slice(0, at.path.lastIndexOf("/")) || "/";
    // Candidate files in path order, as [name relative to base, virtual path].
    const candidates: [string, string][] = [];
    for (const rel of found) {
      const file = kind === "D" ? join(at.path, rel.slice(2)) : at.path;
      if (options.glob && !fileMatchesGlob(options.glob, file, base)) continue;
      // Hidden files are never searched, so counts and the cap reveal nothing about them.
      if (!mediaTypeOf(file) && policyShows(file)) candidates.push([rel, file]);
    }
    candidates.sort((a, b) => byPath({ path: a[1] }, { path: b[1] }));
    const virtualOf = new Map(candidates);
    const matches: GrepMatch[] = [];
    let truncated = list.truncated;
    for (const batch of batches(
      candidates.map(([rel]) => shellQuote(rel)),
      MAX_SCRIPT_BYTES,
    )) {
      const room = max - matches.length;
      const limit = Number.isFinite(room) ? ` -m ${room + 1}` : "";
      const head = Number.isFinite(room) ? ` | head -n ${room + 1}` : "";
      const run = await this.script(`${this.enter(base)}
grep -nHIZF${limit} -e ${shellQuote(pattern)} -- ${batch.join(" ")} 2>/dev/null${head}; exit 0`);
      if ("failure" in run) return { error: errorOf(run.failure, at.path), matches };
      truncated ||= run.truncated;
      for (const match of parseGrep(run.output, virtualOf)) {
        if (matches.length >= max) return { matches, truncated: true };
        matches.push(match);
      }
      if (matches.length >= max && Number.isFinite(max)) break;
    }
    return truncated ? { matches, truncated: true } : { matches };
  }

  // Shell lines that enter a directory (virtual path) after checking that it exists, is a
  // directory and really lies in the workspace.
  private enter(virtualPath: string): string {
    return enterDirScript(this.sandboxPath(virtualPath));
  }

  // Runs a script with a C locale; an exit code other than 0 becomes `{ error }`.
  private async script(body: string): Promise<ExecuteResult | { failure: ScriptFailure }> {
    const prelude = scriptPrelude(this.workspace);
    const result = await this.runScript(`${prelude}\n${body}`);
    if (result.error || result.exitCode !== 0) {
      const cause: BackendError | undefined = result.timedOut
        ? { code: "timeout", message: "the sandbox command timed out" }
        : result.error;
      return { failure: { exitCode: result.exitCode, output: result.output, cause } };
    }
    return result;
  }
}

function canonical(input: string): { path: string } | { error: BackendError } {
  const checked = checkVirtualPath(input);
  return checked.ok ? { path: checked.path } : { error: invalidPath(input, checked.reason) };
}

function invalidPath(input: string, reason: string): BackendError {
  return { code: "invalid_path", message: `invalid path ${JSON.stringify(input)}: ${reason}` };
}

function noAnswer(path: string): BackendError {
  return { code: "io", message: `${path}: the sandbox returned no result` };
}

// The same rule as the filesystem backend: a media extension, or bytes that look binary.
function isBinary(path: string, bytes: Uint8Array): boolean {
  return mediaTypeOf(path) !== undefined || looksBinary(bytes);
}

function ancestorsOf(path: string): string[] {
  const out: string[] = [];
  for (let at = path.indexOf("/", 1); at !== -1; at = path.indexOf("/", at + 1)) {
    out.push(path.slice(0, at));
  }
  return out;
}

function join(dir: string, rel: string): string {
  return dir === "/" ? `/${rel}` : `${dir}/${rel}`;
}

function capOf(value: number | undefined, fallback: number): number {
  if (value === undefined || Number.isNaN(value)) return fallback;
  return value === Number.POSITIVE_INFINITY ? value : Math.max(0, Math.floor(value));
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
