import { DeltaValue, ReducedValue } from "@langchain/langgraph";
import { z } from "zod";
import type { FileData } from "../protocol/protocol.js";
import { createFileData } from "./file-data.js";

/** The zod shape of one stored file. */
export const fileDataSchema = z.object({
  content: z.string(),
  encoding: z.enum(["utf-8", "base64"]),
  createdAt: z.string(),
  modifiedAt: z.string(),
});

/** What may be written to `files`: a file, plain text (seeding), or null to delete. */
export type FilesUpdate = Record<string, FileData | string | null>;

/** The timestamp a plain-text seed gets when nothing stamped it before the reducer ran. */
export const UNSTAMPED_TIME = "1970-01-01T00:00:00.000Z";

/**
 * The `files` reducer: merges an update into the current files; `null` deletes a path and
 * plain strings become text files (so `invoke({ files: { "/kb/faq.md": "text" } })` works).
 * Pure: it never reads the clock, because a checkpoint replays it to rebuild the files. A
 * plain string keeps the file's earlier timestamps, or gets {@link UNSTAMPED_TIME};
 * `invoke` input is stamped before it gets here (see {@link stampFileSeeds}).
 */
export function reduceFiles(
  current: Record<string, FileData> | undefined,
  update: FilesUpdate | undefined,
): Record<string, FileData> {
  const next: Record<string, FileData> = { ...(current ?? {}) };
  if (update) applyFilesUpdate(next, update);
  return next;
}

/**
 * The batch form of {@link reduceFiles} for a delta channel: folding writes one by one or
 * all at once gives the same files, so a checkpoint can replay any number of steps at once.
 */
export function reduceFilesBatch(
  current: Record<string, FileData> | undefined,
  updates: readonly (FilesUpdate | undefined)[],
): Record<string, FileData> {
  const next: Record<string, FileData> = { ...(current ?? {}) };
  for (const update of updates) if (update) applyFilesUpdate(next, update);
  return next;
}

function applyFilesUpdate(next: Record<string, FileData>, update: FilesUpdate): void {
  for (const [rawPath, value] of Object.entries(update)) {
    const path = rawPath.startsWith("/") ? rawPath : `/${rawPath}`;
    if (value === null || value === undefined) delete next[path];
    else if (typeof value === "string") {
      const previous = next[path];
      next[path] = createFileData(path, value, previous?.modifiedAt ?? UNSTAMPED_TIME, previous);
    } else next[path] = value;
  }
}

/**
 * Turns plain-text seeds into files stamped with the current time. It runs when LangGraph
 * validates graph input, so the stamp is saved with the write instead of being re-read from
 * the clock each time a checkpoint replays the reducer.
 */
export function stampFileSeeds(update: FilesUpdate | undefined): FilesUpdate | undefined {
  if (!update || !Object.values(update).some((v) => typeof v === "string")) return update;
  const now = new Date().toISOString();
  const stamped: FilesUpdate = {};
  for (const [path, value] of Object.entries(update)) {
    stamped[path] = typeof value === "string" ? createFileData(path, value, now) : value;
  }
  return stamped;
}

const filesInputSchema = () =>
  z
    .record(z.string(), z.union([fileDataSchema, z.string(), z.null()]))
    .overwrite((update) => stampFileSeeds(update) as typeof update)
    .optional();

const filesValueSchema = () => z.record(z.string(), fileDataSchema).default(() => ({}));

// The value as a middleware's state schema holds it: LangChain parses each middleware's
// schema against the state at every model call, and a full parse would walk every file of
// the thread each time. The writes are checked by the input schema; the stored value is
// what the reducer made of them.
const filesShapeSchema = () =>
  z
    .custom<Record<string, z.infer<typeof fileDataSchema>>>(
      (value) => typeof value === "object" && value !== null && !Array.isArray(value),
      { message: "files must be an object of path -> file data" },
    )
    .default(() => ({}));

/**
 * The `files` state channel of the filesystem middleware: a reduced value so parallel tool
 * calls (separate tasks) can each write files in one step without conflicting.
 * `createDeepAgent` replaces it with {@link filesDeltaValue}.
 */
export function filesStateValue() {
  return new ReducedValue(filesShapeSchema(), {
    inputSchema: filesInputSchema(),
    reducer: reduceFiles as any,
  });
}

/**
 * The `files` state channel `createDeepAgent` uses: a delta channel, so a checkpoint stores
 * the files a step wrote (plus a full copy every `snapshotFrequency` updates), not all files.
 */
export function filesDeltaValue(snapshotFrequency?: number) {
  return new DeltaValue(filesValueSchema(), {
    inputSchema: filesInputSchema() as any,
    reducer: reduceFilesBatch as any,
    snapshotFrequency,
  });
}
