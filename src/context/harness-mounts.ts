import { CompositeBackend } from "../backends/compose/composite.js";
import { PrefixedBackend } from "../backends/compose/prefixed.js";
import type { BackendProtocol, LsResult } from "../backends/protocol/protocol.js";

/**
 * The agent's backend with the harness directories (evicted results, transcripts) mounted
 * from where harness files live, so `read_file` reads them back at the paths the notices
 * name. A harness directory shows in listings only once it holds a file, and the mounts
 * never change what the agent's backend can do: without `delete` of its own it gets none.
 */
export class HarnessMountedBackend extends CompositeBackend {
  readonly #harness: BackendProtocol;
  readonly #dirs: readonly string[];

  constructor(base: BackendProtocol, harness: BackendProtocol, dirs: readonly string[]) {
    const routes = Object.fromEntries(dirs.map((d) => [`${d}/`, new PrefixedBackend(harness, d)]));
    super({ default: base, routes });
    this.#harness = harness;
    this.#dirs = dirs;
    if (typeof base.delete !== "function") {
      Object.defineProperty(this, "delete", { value: undefined, configurable: true });
    }
  }

  override async ls(path: string): Promise<LsResult> {
    const listed = await super.ls(path);
    if (!listed.files?.length) return listed;
    const empty = new Set<string>();
    for (const dir of this.#dirs) {
      if (!listed.files.some((f) => f.isDir && f.path === `${dir}/`)) continue;
      const inside = await this.#harness.ls(dir);
      if (!inside.files?.length) empty.add(`${dir}/`);
    }
    if (empty.size === 0) return listed;
    return { ...listed, files: listed.files.filter((f) => !(f.isDir && empty.has(f.path))) };
  }
}
