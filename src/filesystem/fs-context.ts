import type { PathPolicy } from "../backends/protocol/path-policy.js";
import type {
  BackendProtocol,
  ExecutionFacts,
  FileInfo,
  GrepMatch,
} from "../backends/protocol/protocol.js";

/**
 * What a file tool may do with a path. Each check returns undefined to allow, or the
 * model-facing refusal text. The filesystem middleware builds it from permission rules.
 */
export interface FsGuard {
  read(path: string): string | undefined;
  write(path: string): string | undefined;
  /** A delete is a write checked against everything under `path`. */
  delete(path: string): string | undefined;
  /** Removes entries the agent may not read from listings. */
  visibleInfos(infos: FileInfo[]): FileInfo[];
  /** Removes matches in files the agent may not read. */
  visibleMatches(matches: GrepMatch[]): GrepMatch[];
  /** True when a listing, glob or grep may show `path` (its root included). */
  shows(path: string): boolean;
  /** The same decisions as the backend's path policy; undefined when nothing is restricted. */
  policy?: PathPolicy;
}

/** A guard that allows everything: the default without permission rules. */
export const ALLOW_ALL: FsGuard = {
  read: () => undefined,
  write: () => undefined,
  delete: () => undefined,
  visibleInfos: (infos) => infos,
  visibleMatches: (matches) => matches,
  shows: () => true,
};

/** What every file tool is built from. */
export interface FsToolContext {
  backend: BackendProtocol;
  guard: FsGuard;
  /** True when the named tool will be visible to the model: text may mention it. */
  mentions(toolName: string): boolean;
  /** The most characters one ls/glob/grep/read_file result shows (see output-budget.ts). */
  outputChars?: number;
  /** Where `execute` runs, when the backend says (its workdir is "/" in the file tools). */
  execution?: ExecutionFacts;
}
