import { ConfigurationError } from "../../errors/configuration-error.js";
import { checkVirtualPath } from "../protocol/paths.js";
import type { FileData } from "../protocol/protocol.js";
import { FileMapBackend, type FileMapChannel } from "./file-map-backend.js";
import { applyFileChanges, createFileData } from "./file-map-ops.js";

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
export class InMemoryBackend extends FileMapBackend {
  readonly #files = new Map<string, FileData>();

  constructor(options: InMemoryBackendOptions = {}) {
    super();
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

  protected channel(): FileMapChannel {
    return { view: this.#files, commit: (changes) => applyFileChanges(this.#files, changes) };
  }
}
