// The thread's `files` state as a backend outside a run: compaction writes its transcript
// here, and the changes go into the thread with the compacted messages.
import { FileMapBackend, type FileMapChannel } from "../../backends/file-map/file-map-backend.js";
import { applyFileChanges, type FileChanges } from "../../backends/file-map/file-map-ops.js";
import type { FileData } from "../../backends/protocol/protocol.js";

/** A map of the thread's files that records every change made to it. */
export class ThreadFilesBackend extends FileMapBackend {
  /** Every file written or deleted (null), by path: the `files` update for the thread. */
  readonly changes: FileChanges = {};
  readonly #files: Map<string, FileData>;

  constructor(files: Record<string, FileData> | undefined) {
    super();
    this.#files = new Map(Object.entries(files ?? {}));
  }

  protected channel(): FileMapChannel {
    return {
      view: this.#files,
      commit: (changes) => {
        Object.assign(this.changes, changes);
        applyFileChanges(this.#files, changes);
      },
    };
  }
}
