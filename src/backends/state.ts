import { getConfig } from "@langchain/langgraph";
import {
  applyFileChanges,
  deleteFiles,
  downloadFileBytes,
  editFile,
  type FileChanges,
  type FileMapView,
  fileMapOfRecord,
  globFiles,
  grepFiles,
  lsFiles,
  readFile,
  uploadFileBytes,
  writeFile,
} from "./file-map-ops.js";
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

const READ_KEY = "__pregel_read";
const SEND_KEY = "__pregel_send";

type Channel = { view: FileMapView; commit: (changes: FileChanges) => void };

/**
 * The default backend: files live in the agent's graph state (`files`), so they are per
 * thread, saved with the checkpointer, and shared by the agent and its subagents. Writes are
 * sent as state updates of the running step, and reads see the step's own pending writes.
 * Used outside a run (in tests, or before an agent exists), it keeps files in memory.
 *
 * @example
 * const agent = createDeepAgent({ model, backend: new StateBackend() });
 * const out = await agent.invoke({ messages: [...], files: { "/kb/faq.md": "..." } });
 * out.files["/brief.md"].content;
 */
export class StateBackend implements BackendProtocol {
  private readonly detached = new Map<string, FileData>();

  private channel(): Channel {
    const configurable = currentConfigurable();
    const read = configurable?.[READ_KEY];
    const send = configurable?.[SEND_KEY];
    if (typeof read === "function" && typeof send === "function") {
      let files: Record<string, FileData> | undefined;
      try {
        files = read("files", true) as Record<string, FileData> | undefined;
      } catch {
        files = undefined; // The running graph has no `files` channel: fall back to memory.
      }
      if (files !== undefined) {
        return {
          view: fileMapOfRecord(files ?? {}),
          commit: (changes) => send([["files", changes]]),
        };
      }
    }
    return { view: this.detached, commit: (changes) => applyFileChanges(this.detached, changes) };
  }

  private mutate<R>(op: (view: FileMapView) => { result: R; changes?: FileChanges }): R {
    const { view, commit } = this.channel();
    const { result, changes } = op(view);
    if (changes && Object.keys(changes).length > 0) commit(changes);
    return result;
  }

  async ls(path: string): Promise<LsResult> {
    return lsFiles(this.channel().view, { path });
  }

  async read(path: string, options: ReadOptions = {}): Promise<ReadResult> {
    return readFile(this.channel().view, { path, ...options });
  }

  async write(path: string, content: string | Uint8Array): Promise<WriteResult> {
    return this.mutate((view) => writeFile(view, { path, content }));
  }

  async edit(
    path: string,
    oldString: string,
    newString: string,
    options: EditOptions = {},
  ): Promise<EditResult> {
    return this.mutate((view) =>
      editFile(view, { path, oldString, newString, replaceAll: options.replaceAll }),
    );
  }

  async delete(path: string): Promise<DeleteResult> {
    return this.mutate((view) => deleteFiles(view, { path }));
  }

  async glob(pattern: string, options: GlobOptions = {}): Promise<GlobResult> {
    return globFiles(this.channel().view, { pattern, ...options });
  }

  async grep(pattern: string, options: GrepOptions = {}): Promise<GrepResult> {
    return grepFiles(this.channel().view, { pattern, ...options });
  }

  async uploadFiles(files: FileUpload[]): Promise<FileUploadResult[]> {
    return this.mutate((view) => uploadFileBytes(view, { files }));
  }

  async downloadFiles(paths: string[]): Promise<FileDownloadResult[]> {
    return downloadFileBytes(this.channel().view, { paths });
  }
}

function currentConfigurable(): Record<string, any> | undefined {
  try {
    return getConfig()?.configurable as Record<string, any> | undefined;
  } catch {
    return undefined; // Not inside a LangGraph run.
  }
}
