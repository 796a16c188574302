// The workspace files as they were at each step (the viewer, and rewind and the thread diff
// of a thread without workspace snapshots). The built-in agent writes to disk, not to state,
// so the files at a checkpoint are rebuilt from the checkpoint's own messages: each
// successful write_file / edit_file applied in order, a subagent's (carried on its task
// result) at the step of that result. `execute` changes are not seen here. A file edited before any write starts
// from its content on disk with the later edits undone.
import fs from "node:fs";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import type { StepView } from "./thread-history.js";

/** Path (workspace-relative) to content at one step; null when the content is unknown. */
export type FileMap = Record<string, string | null>;

interface Change {
  step: number;
  path: string;
  op: "write" | "edit";
  args: any;
  /** For a write: false when its result says it overwrote a file that was there. */
  created?: boolean;
}

const relative = (p: unknown) => String(p ?? "").replace(/^\/+/, "");

/** The successful file changes of the steps, in order, each at the step of its result. */
function changesOf(steps: StepView[]): Change[] {
  const calls = new Map<string, { name: string; args: any }>();
  const out: Change[] = [];
  steps.forEach((step, index) => {
    for (const m of step.messages) {
      for (const c of m.tool_calls ?? []) calls.set(c.id, c);
      if (m.role !== "tool" || m.status === "error") continue;
      // A subagent's file calls, carried on its task result, count at the result's step.
      for (const f of m.file_calls ?? []) {
        const op = f.name === "write_file" ? "write" : "edit";
        const created = op === "write" ? !f.result.startsWith("Overwrote") : undefined;
        out.push({ step: index, path: relative(f.args.file_path), op, args: f.args, created });
      }
      const call = calls.get(m.tool_call_id ?? "");
      if (call?.name !== "write_file" && call?.name !== "edit_file") continue;
      const args = call.args ?? {};
      const op = call.name === "write_file" ? "write" : "edit";
      const created = op === "write" ? !m.text.startsWith("Overwrote") : undefined;
      out.push({ step: index, path: relative(args.file_path), op, args, created });
    }
  });
  return out;
}

function applyEdit(text: string, args: any, undo: boolean): string {
  const [from, to] = undo
    ? [String(args.new_string ?? ""), String(args.old_string ?? "")]
    : [String(args.old_string ?? ""), String(args.new_string ?? "")];
  if (!from) return text;
  return args.replace_all ? text.split(from).join(to) : text.replace(from, () => to);
}

// A file's content before the run's first change to it, when that change is an edit.
function baseOf(workspace: string, file: string, changes: Change[]): string | null {
  const own = changes.filter((c) => c.path === file);
  if (own[0]?.op !== "edit") return null;
  const firstWrite = own.findIndex((c) => c.op === "write");
  // A later write hides what the earlier edits produced: the base stays unknown.
  if (firstWrite >= 0) return null;
  let text: string;
  try {
    text = fs.readFileSync(path.join(workspace, file), "utf8");
  } catch {
    return null;
  }
  for (const c of own.toReversed()) {
    // The edit's new text is gone from the file: it changed since, and the base is unknown.
    if (!text.includes(String(c.args.new_string ?? ""))) return null;
    text = applyEdit(text, c.args, true);
  }
  return text;
}

/**
 * The files the run touched, as they were after each step (one map per step); a file the run
 * edited that existed before it is there from the first step.
 */
export function filesByStep(steps: StepView[], workspace: string): FileMap[] {
  const changes = changesOf(steps);
  const files: FileMap = {};
  const bases = new Map<string, string | null>();
  for (const c of changes) {
    if (bases.has(c.path)) continue;
    const base = baseOf(workspace, c.path, changes);
    bases.set(c.path, base);
    // A file that was there before the run is in every step's map, from the first.
    if (base !== null) files[c.path] = base;
  }
  return steps.map((_, index) => {
    for (const c of changes) {
      if (c.step !== index) continue;
      if (c.op === "write") files[c.path] = String(c.args.content ?? "");
      else {
        const current = files[c.path] ?? null;
        files[c.path] = current === null ? null : applyEdit(current, c.args, false);
      }
    }
    return { ...files };
  });
}

/** How a file stood before the steps' first change to it, and the step of that change. */
export interface FileOrigin {
  /** `created` by a write; `existed` when first edited or overwritten. */
  origin: "created" | "existed";
  step: number;
}

/** The files the steps changed (workspace-relative), each with its origin. */
export function fileOrigins(steps: StepView[]): Map<string, FileOrigin> {
  const out = new Map<string, FileOrigin>();
  for (const c of changesOf(steps)) {
    if (out.has(c.path)) continue;
    out.set(c.path, { origin: c.created ? "created" : "existed", step: c.step });
  }
  return out;
}

/** One file's unified diff between two maps (absent = empty). */
export interface FileDiff {
  path: string;
  op: "create" | "edit" | "delete";
  diff: string;
}

/** Unified diffs (jsdiff) of every file that differs between `from` and `to`. */
export function diffFiles(from: FileMap, to: FileMap): FileDiff[] {
  const out: FileDiff[] = [];
  for (const file of [...new Set([...Object.keys(from), ...Object.keys(to)])].sort()) {
    const a = from[file] ?? null;
    const b = to[file] ?? null;
    if (a === b) continue;
    const op = !(file in from) ? "create" : !(file in to) ? "delete" : "edit";
    out.push({ path: file, op, diff: createTwoFilesPatch(file, file, a ?? "", b ?? "") });
  }
  return out;
}
