/**
 * One factory per backend family for the hostile permission suites: each gives a fresh
 * backend whose files live under "/w" (for the composite, "/w/" is a FilesystemBackend
 * route), and `seed`, which plants files directly (not through the guarded tools, since the
 * point is to plant files the agent may not read).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { InMemoryStore } from "@langchain/langgraph";
import type { BackendProtocol } from "delve";
import {
  CompositeBackend,
  FilesystemBackend,
  InMemoryBackend,
  SandboxBackend,
  StateBackend,
  StoreBackend,
} from "delve";

export interface FamilyBackend {
  backend: BackendProtocol;
  /** Plants files (virtual path -> text) beneath every guard. */
  seed(files: Record<string, string>): Promise<void>;
  /** The host directory behind "/" (disk families), for planting links. */
  root?: string;
  cleanup(): void;
}

export interface Family {
  name: string;
  /** True when a rule may use wildcards or `interrupt` (the sandbox enforces literal paths only). */
  wildcards: boolean;
  make(): FamilyBackend;
}

function tempRoot(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "delve-h9-")));
}

function seedDisk(root: string, files: Record<string, string>, strip = ""): void {
  for (const [virtual, text] of Object.entries(files)) {
    const host = path.join(root, virtual.slice(strip.length));
    fs.mkdirSync(path.dirname(host), { recursive: true });
    fs.writeFileSync(host, text);
  }
}

async function seedBackend(backend: BackendProtocol, files: Record<string, string>) {
  const enc = new TextEncoder();
  const results = await backend.uploadFiles(
    Object.entries(files).map(([p, text]) => ({ path: p, content: enc.encode(text) })),
  );
  const failed = results.find((r) => r.error);
  if (failed) throw new Error(`seed failed: ${failed.path}: ${failed.error!.message}`);
}

function mapFamily(name: string, create: () => BackendProtocol): Family {
  return {
    name,
    wildcards: true,
    make() {
      const backend = create();
      return { backend, seed: (files) => seedBackend(backend, files), cleanup() {} };
    },
  };
}

// A family whose files live in a fresh temporary directory behind `create(root)`.
function onDisk(
  name: string,
  create: (root: string) => BackendProtocol,
  options: { strip?: string; wildcards?: boolean } = {},
): Family {
  return {
    name,
    wildcards: options.wildcards ?? true,
    make() {
      const root = tempRoot();
      return {
        backend: create(root),
        root,
        seed: async (files) => seedDisk(root, files, options.strip),
        cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
      };
    },
  };
}

const diskFamily = () => onDisk("disk", (rootDir) => new FilesystemBackend({ rootDir }));

const compositeFamily = () =>
  onDisk(
    "composite",
    (rootDir) =>
      new CompositeBackend({
        default: new InMemoryBackend(),
        routes: { "/w/": new FilesystemBackend({ rootDir }) },
      }),
    { strip: "/w" },
  );

const sandboxFamily = () =>
  onDisk("sandbox", (rootDir) => new SandboxBackend({ rootDir, timeout: 30 }), {
    wildcards: false,
  });

/** True when bubblewrap can start here (the sandbox family runs only then). */
export const HAS_BWRAP = (() => {
  try {
    new SandboxBackend({ rootDir: os.tmpdir() });
    return true;
  } catch {
    return false;
  }
})();

/** Every backend family: file-map (state, in-memory), disk, store, composite, sandbox. */
export const FAMILIES: Family[] = [
  mapFamily("state", () => new StateBackend()),
  mapFamily("in-memory", () => new InMemoryBackend()),
  diskFamily(),
  mapFamily(
    "store",
    () => new StoreBackend({ namespace: () => ["h9"], store: new InMemoryStore() }),
  ),
  compositeFamily(),
  ...(HAS_BWRAP ? [sandboxFamily()] : []),
];
