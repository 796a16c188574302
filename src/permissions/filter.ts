import type { FileInfo, GrepMatch } from "../backends/protocol/protocol.js";
import { decide } from "./decide.js";
import { compileRules } from "./match.js";
import type { PermissionRule } from "./types.js";

/**
 * True when `path` may be read without asking anyone: the read decision is `allow`. Paths
 * under an `interrupt` read rule count as unreadable here, because a listing cannot stop
 * to ask a human about each entry; reading such a file directly still goes through approval.
 *
 * @example
 * canRead([{ operations: ["read"], paths: ["/secrets"], mode: "deny" }], "/secrets/.env") // false
 */
export function canRead(rules: readonly PermissionRule[], path: string): boolean {
  return decide(rules, "read", path).mode === "allow";
}

/**
 * Keeps the items whose `path` `canRead` allows, in order; one decision per distinct path.
 * A directory entry ("/secrets/") is judged by its own path, which a rule like
 * `/secrets/**` matches; a directory holding only denied files stays listed (its name
 * only), while every file inside is hidden.
 *
 * @example
 * filterReadable(rules, [{ path: "/a.md" }, { path: "/secrets/" }]) // [{ path: "/a.md" }]
 */
export function filterReadable<T extends { path: string }>(
  rules: readonly PermissionRule[],
  items: readonly T[],
): T[] {
  const restrictsReads = compileRules(rules).some(
    (rule) => rule.rule.mode !== "allow" && rule.operations.has("read"),
  );
  if (!restrictsReads) {
    return [...items];
  }
  const verdicts = new Map<string, boolean>();
  return items.filter((item) => {
    let readable = verdicts.get(item.path);
    if (readable === undefined) {
      readable = canRead(rules, item.path);
      verdicts.set(item.path, readable);
    }
    return readable;
  });
}

/**
 * Removes `ls` and `glob` entries the agent may not read (see `filterReadable`).
 *
 * @example
 * filterFileInfos(rules, (await backend.ls("/")).files ?? [])
 */
export function filterFileInfos(
  rules: readonly PermissionRule[],
  infos: readonly FileInfo[],
): FileInfo[] {
  return filterReadable(rules, infos);
}

/**
 * Removes grep matches in files the agent may not read. Filter before rendering: every
 * output mode (paths, counts, lines) is then built from visible matches only.
 *
 * @example
 * filterGrepMatches(rules, (await backend.grep("key")).matches ?? [])
 */
export function filterGrepMatches(
  rules: readonly PermissionRule[],
  matches: readonly GrepMatch[],
): GrepMatch[] {
  return filterReadable(rules, matches);
}
