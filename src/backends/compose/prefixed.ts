import { underMappedPolicy } from "../protocol/path-policy.js";
import type {
  BackendProtocol,
  DeleteResult,
  EditOptions,
  EditResult,
  FileDownloadResult,
  FileInfo,
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

/**
 * Shows the subtree `root` of another backend as a whole backend: "/a.md" here is
 * `root + "/a.md"` there. Mounted in a `CompositeBackend` at the same `root`, it keeps the
 * inner backend's paths unchanged, so harness files routed to the thread's state keep their
 * full path (`/large_tool_results/x`) in `files`.
 */
export class PrefixedBackend implements BackendProtocol {
  declare delete?: (path: string) => Promise<DeleteResult>;

  constructor(
    private readonly inner: BackendProtocol,
    private readonly root: string,
  ) {
    if (typeof inner.delete === "function") {
      this.delete = async (path) => {
        const result = await this.#under(() => inner.delete!(this.in(path)));
        return result.deleted
          ? { ...result, deleted: result.deleted.map((p) => this.out(p)) }
          : result;
      };
    }
  }

  // The inner backend judges its own paths ("/root/a.md") as this view's ("/a.md").
  #under<T>(run: () => T): T {
    return underMappedPolicy((inner) => this.out(inner), run);
  }

  private in(path: string): string {
    return path === "/" || path === ""
      ? this.root
      : `${this.root}${path.startsWith("/") ? "" : "/"}${path}`;
  }

  private out(path: string): string {
    if (path === this.root) return "/";
    return path.startsWith(`${this.root}/`) ? path.slice(this.root.length) : path;
  }

  private infos(files: FileInfo[] | undefined): FileInfo[] | undefined {
    return files?.map((f) => ({ ...f, path: this.out(f.path) }));
  }

  async ls(path: string): Promise<LsResult> {
    const result = await this.#under(() => this.inner.ls(this.in(path)));
    return { ...result, files: this.infos(result.files) };
  }

  read(path: string, options?: ReadOptions): Promise<ReadResult> {
    return this.#under(() => this.inner.read(this.in(path), options));
  }

  async write(path: string, content: string | Uint8Array): Promise<WriteResult> {
    const result = await this.#under(() => this.inner.write(this.in(path), content));
    return result.path ? { ...result, path: this.out(result.path) } : result;
  }

  async edit(path: string, a: string, b: string, options?: EditOptions): Promise<EditResult> {
    const result = await this.#under(() => this.inner.edit(this.in(path), a, b, options));
    return result.path ? { ...result, path: this.out(result.path) } : result;
  }

  async glob(pattern: string, options: GlobOptions = {}): Promise<GlobResult> {
    const result = await this.#under(() =>
      this.inner.glob(pattern, { ...options, path: this.in(options.path ?? "/") }),
    );
    return { ...result, files: this.infos(result.files) };
  }

  async grep(pattern: string, options: GrepOptions = {}): Promise<GrepResult> {
    const result = await this.#under(() =>
      this.inner.grep(pattern, { ...options, path: this.in(options.path ?? "/") }),
    );
    return { ...result, matches: result.matches?.map((m) => ({ ...m, path: this.out(m.path) })) };
  }

  async uploadFiles(files: FileUpload[]): Promise<FileUploadResult[]> {
    const results = await this.#under(() =>
      this.inner.uploadFiles(files.map((f) => ({ ...f, path: this.in(f.path) }))),
    );
    return results.map((r) => ({ ...r, path: this.out(r.path) }));
  }

  async downloadFiles(paths: string[]): Promise<FileDownloadResult[]> {
    const results = await this.#under(() => this.inner.downloadFiles(paths.map((p) => this.in(p))));
    return results.map((r) => ({ ...r, path: this.out(r.path) }));
  }
}
