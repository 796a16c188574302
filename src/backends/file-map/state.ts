import { stepChannel } from "../../langchain-seam/pregel-config.js";
import type { FileData } from "../protocol/protocol.js";
import { FileMapBackend, type FileMapChannel } from "./file-map-backend.js";
import { applyFileChanges, fileMapOfRecord } from "./file-map-ops.js";

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
export class StateBackend extends FileMapBackend {
  private readonly detached = new Map<string, FileData>();

  protected channel(): FileMapChannel {
    const channel = stepChannel<Record<string, FileData>>("files");
    if (channel) {
      let files: Record<string, FileData> | undefined;
      try {
        files = channel.read();
      } catch {
        files = undefined; // The running graph has no `files` channel: fall back to memory.
      }
      if (files !== undefined) {
        return {
          view: fileMapOfRecord(files ?? {}),
          commit: (changes) => channel.write(changes),
        };
      }
    }
    return { view: this.detached, commit: (changes) => applyFileChanges(this.detached, changes) };
  }
}
