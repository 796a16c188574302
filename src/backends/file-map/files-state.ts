import { ReducedValue } from "@langchain/langgraph";
import { z } from "zod";
import type { FileData } from "../protocol/protocol.js";
import { createFileData } from "./file-map-ops.js";

/** The zod shape of one stored file. */
export const fileDataSchema = z.object({
  content: z.string(),
  encoding: z.enum(["utf-8", "base64"]),
  createdAt: z.string(),
  modifiedAt: z.string(),
});

/** What may be written to `files`: a file, plain text (seeding), or null to delete. */
export type FilesUpdate = Record<string, FileData | string | null>;

/**
 * The `files` reducer: merges an update into the current files; `null` deletes a path and
 * plain strings become text files (so `invoke({ files: { "/kb/faq.md": "text" } })` works).
 */
export function reduceFiles(
  current: Record<string, FileData> | undefined,
  update: FilesUpdate | undefined,
): Record<string, FileData> {
  const next: Record<string, FileData> = { ...(current ?? {}) };
  if (!update) return next;
  const now = new Date().toISOString();
  for (const [rawPath, value] of Object.entries(update)) {
    const path = rawPath.startsWith("/") ? rawPath : `/${rawPath}`;
    if (value === null || value === undefined) delete next[path];
    else if (typeof value === "string") next[path] = createFileData(path, value, now, next[path]);
    else next[path] = value;
  }
  return next;
}

/**
 * The `files` state channel of the filesystem middleware: a reduced value so parallel tool
 * calls (separate tasks) can each write files in one step without conflicting.
 */
export function filesStateValue() {
  return new ReducedValue(
    z.record(z.string(), fileDataSchema).default(() => ({})),
    {
      inputSchema: z.record(z.string(), z.union([fileDataSchema, z.string(), z.null()])).optional(),
      reducer: reduceFiles as any,
    },
  );
}
