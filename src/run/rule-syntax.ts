import { compileGlob, type GlobMatcher } from "../backends/protocol/glob.js";
import { ConfigurationError } from "../errors/configuration-error.js";

/**
 * The text form of one approval rule: `tool` (every call of the tool) or `tool(pattern)`.
 * For `execute` the pattern matches each command's words, `*` standing for any characters
 * (`\*` is a literal star); for file tools it is a glob over the workspace-relative path.
 */

/** Every verdict a rule list can give, from the most to the least protective. */
export type RuleKind = "deny" | "ask" | "allow";

/** The file tools whose rules take a path glob, and the argument that holds the path. */
export const FILE_TOOL_PATH_ARG: Readonly<Record<string, string>> = {
  read_file: "file_path",
  write_file: "file_path",
  edit_file: "file_path",
  delete: "file_path",
  ls: "path",
  glob: "path",
  grep: "path",
};

/** The file tools that change files. */
export const FILE_WRITE_TOOLS: ReadonlySet<string> = new Set(["write_file", "edit_file", "delete"]);

/** The shell tool, whose rules match commands. */
export const SHELL_TOOL = "execute";

/** One parsed rule: its text, its tool, and a matcher when it has a pattern. */
export interface ParsedRule {
  text: string;
  kind: RuleKind;
  tool: string;
  /** Absent for a bare `tool` rule, which matches every call. */
  match?: (subject: string) => boolean;
}

const TOOL_NAME = /^[A-Za-z0-9_.-]+$/;

/** A command pattern split at its stars: literal pieces, a star between each two. */
type StarPattern = string[];

// Wildcard match where `*` is any characters, in O(pattern x subject) time: greedy with one
// backtrack point, so no pattern (`*a*a*a*b`) can make a long command take exponential time.
function starMatch(pieces: StarPattern, subject: string): boolean {
  const first = pieces[0]!;
  if (!subject.startsWith(first)) return false;
  if (pieces.length === 1) return subject === first;
  const last = pieces[pieces.length - 1]!;
  if (subject.length - first.length < last.length || !subject.endsWith(last)) return false;
  let at = first.length;
  const end = subject.length - last.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const found = subject.indexOf(pieces[i]!, at);
    if (found < 0 || found + pieces[i]!.length > end) return false;
    at = found + pieces[i]!.length;
  }
  return at <= end;
}

/** Splits a pattern at unescaped stars, unescaping `\x`. */
function starPieces(pattern: string): StarPattern {
  const pieces: string[] = [""];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\" && i + 1 < pattern.length) pieces[pieces.length - 1] += pattern[++i];
    else if (c === "*") pieces.push("");
    else pieces[pieces.length - 1] += c;
  }
  return pieces;
}

/**
 * Compiles an `execute` pattern. Allow rules match a trailing `*` at a word boundary
 * (`git status*` is `git status` plus any further words, never `git statusx`); deny and ask
 * rules are protective, so their `*` matches any characters (`rm -rf*` catches `rm -rfv`).
 */
function commandMatcher(pattern: string, kind: RuleKind): (subject: string) => boolean {
  const normalized = pattern.trim().replace(/\s+/g, " ");
  const pieces = starPieces(normalized);
  const trailing = pieces.length > 1 && pieces[pieces.length - 1] === "";
  const beforeStar = pieces[pieces.length - 2] ?? "";
  if (kind === "allow" && trailing && beforeStar !== "" && !beforeStar.endsWith(" ")) {
    // `X*` is `X` exactly, or `X` then a space and anything.
    const exact = pieces.slice(0, -1);
    const more = [...exact.slice(0, -1), `${exact[exact.length - 1]} `, ""];
    return (subject) => starMatch(exact, subject) || starMatch(more, subject);
  }
  return (subject) => starMatch(pieces, subject);
}

/** Parses one rule or throws a `ConfigurationError` naming it, its file and the fix. */
export function parseRule(text: unknown, kind: RuleKind, source?: string): ParsedRule {
  const where = source ? ` in ${source}` : "";
  const fail = (why: string, fix: string): never => {
    throw new ConfigurationError(
      "INVALID_RULE",
      `Approval rule ${JSON.stringify(text)} (rules.${kind}${where}) ${why}. ${fix}`,
      { rule: text, kind, source },
    );
  };
  if (typeof text !== "string")
    return fail("is not a string", 'Write rules as strings, e.g. "execute(git status*)".');
  const trimmed = text.trim();
  const open = trimmed.indexOf("(");
  if (open < 0) {
    if (!TOOL_NAME.test(trimmed))
      fail("is not a tool name", 'Write "tool" or "tool(pattern)", e.g. "write_file(src/**)".');
    return { text: trimmed, kind, tool: trimmed };
  }
  if (!trimmed.endsWith(")"))
    fail("has no closing parenthesis", 'Write "tool(pattern)", e.g. "execute(git status*)".');
  const tool = trimmed.slice(0, open);
  const pattern = trimmed.slice(open + 1, -1);
  if (!TOOL_NAME.test(tool))
    fail(`names no tool before "("`, 'Write "tool(pattern)", e.g. "execute(npm test*)".');
  if (pattern.trim() === "")
    fail("has an empty pattern", `Write "${tool}" alone to match every call, or give a pattern.`);
  if (tool === SHELL_TOOL) {
    if (/[\r\n]/.test(pattern)) fail("has a newline in its pattern", "Keep a rule on one line.");
    return { text: trimmed, kind, tool, match: commandMatcher(pattern, kind) };
  }
  if (tool in FILE_TOOL_PATH_ARG) {
    const glob = pattern.trim().replace(/^\.?\/+/, "");
    if (glob.split("/").includes(".."))
      fail('climbs out with ".."', "Paths are relative to the workspace; drop the .. segments.");
    let re: GlobMatcher;
    try {
      // Protective rules also match dot-files; allow rules leave them to ask.
      re = compileGlob(glob, { dot: kind !== "allow" });
    } catch (error) {
      return fail(`has a bad glob (${(error as Error).message})`, "Fix the glob, e.g. src/**.");
    }
    return { text: trimmed, kind, tool, match: (path) => re.test(path) };
  }
  return fail(
    `gives a pattern to "${tool}", which only takes bare rules`,
    `Patterns work for ${SHELL_TOOL} and the file tools (${Object.keys(FILE_TOOL_PATH_ARG).join(", ")}); write "${tool}" alone.`,
  );
}
