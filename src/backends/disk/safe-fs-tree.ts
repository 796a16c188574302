import fs from "node:fs";
import { DIR_FLAGS, joinShown, O_NOFOLLOW, type OpenDir, type TreeJail } from "./safe-fs-core.js";

/**
 * The confined walk and delete of `Confinement`: both go down a tree one open directory at a
 * time, never through a symlink, so a directory swapped for a symlink mid-way is not entered.
 */

/** A file met by `walk`: a regular file, or a symlink still to be checked by `openEntry`. */
export interface WalkEntry {
  dir: OpenDir;
  name: string;
  /** The display (virtual) path of the entry. */
  shown: string;
  symlink: boolean;
}

/**
 * Calls `visit` for each file under `start` in path order, never descending into a
 * symlinked directory. Return false from `visit` to stop. `start` stays open.
 */
export function walkTree(
  jail: TreeJail,
  start: OpenDir,
  startShown: string,
  visit: (entry: WalkEntry) => boolean,
): void {
  const stack = [{ dir: start, shown: startShown, entries: sortedEntries(jail, start), i: 0 }];
  try {
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.i >= top.entries.length) {
        if (top.dir !== start) jail.close(top.dir);
        stack.pop();
        continue;
      }
      const entry = top.entries[top.i++]!;
      const shown = joinShown(top.shown, entry.name);
      if (entry.isDirectory()) {
        const sub = tryOpenSubdir(jail, top.dir, entry.name);
        if (sub) stack.push({ dir: sub, shown, entries: sortedEntries(jail, sub), i: 0 });
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        const symlink = entry.isSymbolicLink();
        if (!visit({ dir: top.dir, name: entry.name, shown, symlink })) return;
      }
    }
  } finally {
    for (const frame of stack) if (frame.dir !== start) jail.close(frame.dir);
  }
}

/**
 * Removes the file, symlink (never its target) or directory tree at `segments` and
 * returns the display path of every file and symlink removed.
 */
export function removeConfined(
  jail: TreeJail,
  segments: readonly string[],
  shown: string,
  judge?: (parent: OpenDir, name: string) => void,
): string[] {
  const parent = jail.openDir(segments.slice(0, -1), shown);
  try {
    const name = segments[segments.length - 1]!;
    judge?.(parent, name);
    const stat = fs.lstatSync(jail.child(parent, name));
    const removed: string[] = [];
    if (stat.isDirectory()) removeTree(jail, parent, name, shown, removed);
    else {
      fs.unlinkSync(jail.child(parent, name));
      removed.push(shown);
    }
    return removed.sort();
  } finally {
    jail.close(parent);
  }
}

function removeTree(
  jail: TreeJail,
  parent: OpenDir,
  name: string,
  shown: string,
  out: string[],
): void {
  // O_NOFOLLOW: a directory swapped for a symlink after lstat is not entered.
  const fd = fs.openSync(jail.child(parent, name), DIR_FLAGS | O_NOFOLLOW);
  const dir = { fd, host: `${parent.host === "/" ? "" : parent.host}/${name}` };
  try {
    for (const entry of fs.readdirSync(jail.listing(dir), { withFileTypes: true })) {
      const childShown = joinShown(shown, entry.name);
      if (entry.isDirectory()) removeTree(jail, dir, entry.name, childShown, out);
      else {
        fs.unlinkSync(jail.child(dir, entry.name));
        out.push(childShown);
      }
    }
  } finally {
    jail.close(dir);
  }
  fs.rmdirSync(jail.child(parent, name));
}

function tryOpenSubdir(jail: TreeJail, dir: OpenDir, name: string): OpenDir | undefined {
  try {
    const fd = fs.openSync(jail.child(dir, name), DIR_FLAGS | O_NOFOLLOW);
    return { fd, host: `${dir.host === "/" ? "" : dir.host}/${name}` };
  } catch {
    return undefined; // vanished, unreadable, or swapped for a symlink: not walked
  }
}

function sortedEntries(jail: TreeJail, dir: OpenDir): fs.Dirent[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(jail.listing(dir), { withFileTypes: true });
  } catch {
    return [];
  }
  // Sorting directories as "name/" makes a depth-first walk yield files in full-path order.
  const keyed = entries.map((e) => ({ e, key: e.isDirectory() ? `${e.name}/` : e.name }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.e);
}
