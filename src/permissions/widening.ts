/**
 * Refuses rule sets where an earlier, less strict rule silently opens a later, stricter one.
 * A rule covers its path and everything below it and the first match wins, so with
 * `allow read /docs/item` then `deny read /docs/item/secrets/**` the deny never applies: the
 * allow took `/docs/item/secrets` as part of `/docs/item`. An earlier rule may carve an
 * exception only strictly *inside* a later one (`allow /policies/drafts/**` then
 * `deny /policies/**`), never at or above it.
 */
import { expandBraces } from "../backends/protocol/glob-braces.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { severity } from "./decide.js";
import {
  type CompiledPattern,
  type CompiledRule,
  compilePattern,
  compileRules,
  patternMatches,
} from "./match.js";
import { GLOB_CHARS } from "./normalize.js";
import type { PermissionRule } from "./types.js";

/**
 * Throws a `ConfigurationError` (`INVALID_PERMISSION`) when an earlier rule with a less
 * strict mode (allow < interrupt < deny) on a shared operation takes a later rule's paths at
 * or above the depth where the later rule starts: the later rule would decide nothing there.
 * The message says how to order or narrow the rules.
 *
 * @example
 * refuseWidening([
 *   { operations: ["read"], paths: ["/docs/item"], mode: "allow" },
 *   { operations: ["read"], paths: ["/docs/item/secrets/**"], mode: "deny" },
 * ]); // throws: permissions[1] ... is opened by the earlier permissions[0] ...
 */
export function refuseWidening(rules: readonly PermissionRule[]): void {
  const compiled = compileRules(rules);
  for (const later of compiled) {
    for (const earlier of compiled) {
      if (earlier.index >= later.index) break;
      if (severity(earlier.rule.mode) >= severity(later.rule.mode)) continue;
      const shared = [...later.operations].filter((op) => earlier.operations.has(op));
      if (shared.length === 0) continue;
      for (const strict of later.patterns) {
        for (const loose of earlier.patterns) {
          const path = openedPath(loose, strict);
          if (path !== undefined) fail(earlier, loose, later, strict, path, shared.join("+"));
        }
      }
    }
  }
}

// A path the strict pattern starts at (its shallowest match) that the loose one already
// takes at the same depth or above; undefined when the loose one only carves inside.
function openedPath(loose: CompiledPattern, strict: CompiledPattern): string | undefined {
  for (const path of witnesses(strict, loose)) {
    if (!patternMatches(strict, path)) continue;
    const strictDepth = matchDepth(strict, path);
    const looseDepth = matchDepth(loose, path);
    if (looseDepth !== undefined && strictDepth !== undefined && looseDepth <= strictDepth) {
      return path;
    }
  }
  return undefined;
}

// Concrete paths the strict pattern matches at its shallowest: each wildcard segment filled
// with the loose pattern's literal segment at that position when it fits, or a generic
// filler; "**" segments as zero segments.
function witnesses(strict: CompiledPattern, loose: CompiledPattern): string[] {
  const aligned: string[] = [];
  const generic: string[] = [];
  let position = 0;
  for (const segment of strict.segments) {
    if (segment === "**") continue;
    const theirs = loose.segments[position];
    position++;
    if (!GLOB_CHARS.test(segment)) {
      aligned.push(segment);
      generic.push(segment);
      continue;
    }
    const filler = fillerFor(segment);
    const fits =
      theirs !== undefined && !GLOB_CHARS.test(theirs) && segmentGlobMatches(segment, theirs);
    aligned.push(fits ? theirs : (filler ?? ""));
    generic.push(filler ?? "");
  }
  return [aligned, generic]
    .filter((parts) => parts.every((p) => p !== ""))
    .map((parts) => `/${parts.join("/")}`);
}

// The depth (number of segments) of the shallowest prefix of `path` the pattern matches.
function matchDepth(pattern: CompiledPattern, path: string): number | undefined {
  const parts = path.split("/").filter(Boolean);
  for (let depth = 0; depth <= parts.length; depth++) {
    if (patternMatches(pattern, `/${parts.slice(0, depth).join("/")}`)) return depth;
  }
  return undefined;
}

// A name matching one wildcard segment, found by trying plain fillers for each wildcard.
function fillerFor(segment: string): string | undefined {
  const expanded = expandBraces(segment);
  const firstAlternative = expanded.ok ? expanded.patterns[0]! : segment;
  for (const fill of ["x", "a", "0", "_"]) {
    const name = firstAlternative
      .replace(/\[!?([^\]]*)\]/g, (whole, chars: string) =>
        whole.startsWith("[!") ? fill : (chars[0] ?? fill),
      )
      .replace(/\*+/g, fill)
      .replace(/\?/g, fill);
    if (name !== "" && segmentGlobMatches(segment, name)) return name;
  }
  return undefined;
}

function segmentGlobMatches(segment: string, name: string): boolean {
  return patternMatches(compilePattern(`/${segment}`), `/${name}`);
}

function fail(
  earlier: CompiledRule,
  loose: CompiledPattern,
  later: CompiledRule,
  strict: CompiledPattern,
  path: string,
  operations: string,
): never {
  const label = (rule: CompiledRule, pattern: CompiledPattern) =>
    `permissions[${rule.index}] (${rule.rule.mode} ${operations} ${pattern.source})`;
  throw new ConfigurationError(
    "INVALID_PERMISSION",
    `Invalid permission rules: ${label(later, strict)} never applies to ${path}, because the earlier ${label(earlier, loose)} already covers it (a rule covers its path and everything under it, and the first matching rule wins). Put permissions[${later.index}] before permissions[${earlier.index}], or narrow permissions[${earlier.index}] so it does not contain ${path}.`,
    {
      index: later.index,
      openedBy: earlier.index,
      path,
      problem: "an earlier, less strict rule covers this rule's paths",
    },
  );
}
