import { getConfig } from "@langchain/langgraph";
import { PrefixedBackend } from "../../backends/compose/prefixed.js";
import type {
  BackendProtocol,
  DeleteResult,
  EditOptions,
  EditResult,
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
} from "../../backends/protocol/protocol.js";
import { safeFileName } from "../safe-name.js";

/** The folder of a shared harness backend that holds one subfolder per thread. */
export const THREADS_DIR = "/threads";
/** The subfolder of runs that have no `thread_id` (they share it). */
export const UNTHREADED_SCOPE = "~unthreaded";

/**
 * A backend shared by many threads (a `harnessBackend` such as one `FilesystemBackend` or
 * `StoreBackend` for every conversation) seen by one thread at a time: "/x" here is
 * `/threads/<thread_id>/x` in the shared backend, the thread read from the current run. A
 * thread can neither overwrite nor read (list, grep) another thread's evicted results and
 * transcripts, whatever names a model picks. Runs without a `thread_id` share
 * `/threads/~unthreaded` (a name no thread id maps to).
 *
 * @example
 * const harness = new ThreadScopedBackend(new FilesystemBackend({ rootDir: "/var/delve" }));
 * // in thread "t-42": harness.write("/large_tool_results/a", text) writes /var/delve/threads/t-42/large_tool_results/a
 */
export class ThreadScopedBackend implements BackendProtocol {
  declare delete?: (path: string) => Promise<DeleteResult>;
  private readonly views = new Map<string, PrefixedBackend>();

  constructor(private readonly shared: BackendProtocol) {
    if (typeof shared.delete === "function") {
      this.delete = (path) => this.view().delete!(path);
    }
  }

  // The shared backend seen from the current thread's folder.
  private view(): PrefixedBackend {
    const root = `${THREADS_DIR}/${threadScope()}`;
    let view = this.views.get(root);
    if (!view) {
      if (this.views.size >= 256) this.views.clear(); // a cache, not a registry of threads
      view = new PrefixedBackend(this.shared, root);
      this.views.set(root, view);
    }
    return view;
  }

  ls(path: string): Promise<LsResult> {
    return this.view().ls(path);
  }

  read(path: string, options?: ReadOptions): Promise<ReadResult> {
    return this.view().read(path, options);
  }

  write(path: string, content: string | Uint8Array): Promise<WriteResult> {
    return this.view().write(path, content);
  }

  edit(path: string, a: string, b: string, options?: EditOptions): Promise<EditResult> {
    return this.view().edit(path, a, b, options);
  }

  glob(pattern: string, options?: GlobOptions): Promise<GlobResult> {
    return this.view().glob(pattern, options);
  }

  grep(pattern: string, options?: GrepOptions): Promise<GrepResult> {
    return this.view().grep(pattern, options);
  }

  uploadFiles(files: FileUpload[]): Promise<FileUploadResult[]> {
    return this.view().uploadFiles(files);
  }

  downloadFiles(paths: string[]): Promise<FileDownloadResult[]> {
    return this.view().downloadFiles(paths);
  }
}

// The current run's thread as a folder name (ids are made file-name safe without collisions).
function threadScope(): string {
  let thread: unknown;
  try {
    thread = getConfig()?.configurable?.thread_id;
  } catch {
    thread = undefined; // not inside a LangGraph run
  }
  if (typeof thread === "number") thread = String(thread);
  return typeof thread === "string" && thread !== "" ? safeFileName(thread) : UNTHREADED_SCOPE;
}
