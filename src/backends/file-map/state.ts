import { getConfig } from "@langchain/langgraph";
import type { FileData } from "../protocol/protocol.js";
import { FileMapBackend, type FileMapChannel } from "./file-map-backend.js";
import { applyFileChanges, fileMapOfRecord } from "./file-map-ops.js";

const READ_KEY = "__pregel_read";
const SEND_KEY = "__pregel_send";

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
}

function currentConfigurable(): Record<string, any> | undefined {
  try {
    return getConfig()?.configurable as Record<string, any> | undefined;
  } catch {
    return undefined; // Not inside a LangGraph run.
  }
}
