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
} from "../protocol/protocol.js";
import {
  deleteFiles,
  downloadFileBytes,
  editFile,
  type FileChanges,
  type FileMapView,
  type FileOpOutcome,
  globFiles,
  grepFiles,
  lsFiles,
  readFile,
  uploadFileBytes,
  writeFile,
} from "./file-map-ops.js";

/** Where a map-backed backend reads its files and how it saves a change. */
export interface FileMapChannel {
  view: FileMapView;
  commit(changes: FileChanges): void;
}

/**
 * The protocol over `file-map-ops` for backends whose files are a synchronous map of
 * `FileData` (a `Map` in memory, the run's `files` state). A subclass says only where the
 * files are (`channel()`); every operation and its semantics live here once.
 */
export abstract class FileMapBackend implements BackendProtocol {
  /** The files to operate on now, and how to save changes to them. */
  protected abstract channel(): FileMapChannel;

  private mutate<R>(op: (view: FileMapView) => FileOpOutcome<R>): R {
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
    const replaceAll = options.replaceAll;
    return this.mutate((view) => editFile(view, { path, oldString, newString, replaceAll }));
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
