import { globProblem } from "../backends/protocol/glob.js";
import { braceHoldsSlash, literalSyntax } from "../backends/protocol/glob-braces.js";

/**
 * Path normalisation for permissions: rule paths are checked strictly at construction;
 * paths being decided are normalised leniently (never refused) and, when they carry
 * characters a backend or the OS might reinterpret, expanded into every reading so the
 * most restrictive one wins.
 */

/** The wildcard characters of the glob dialect in backends/protocol/glob.ts. */
export const GLOB_CHARS = /[*?[\]{}]/;

/** A normalised rule path, or why it is refused. */
export type RulePathCheck = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Normalises a rule path: duplicate, trailing and "." segments go, Unicode is put in NFC; it
 * must be absolute and may not contain "..", control characters, backslashes, "/" inside
 * a `{...}` group, syntax that would match literally (an unclosed `[` or `{`, a group with
 * neither comma nor range) or braces expanding past the glob limits.
 *
 * @example
 * normalizeRulePath("/secrets//./**") // { ok: true, path: "/secrets/**" }
 */
export function normalizeRulePath(input: unknown): RulePathCheck {
  if (typeof input !== "string") return { ok: false, reason: "a rule path must be a string" };
  if (input.length === 0) return { ok: false, reason: "a rule path must not be empty" };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(input)) {
    return { ok: false, reason: `rule path ${JSON.stringify(input)} contains a control character` };
  }
  if (input.includes("\\")) {
    // Virtual paths never contain "\" and in a glob it escapes the next character: such a
    // rule would not mean what it says, which would be a silent hole.
    return { ok: false, reason: `rule path ${JSON.stringify(input)} contains a backslash` };
  }
  if (!input.startsWith("/")) {
    return {
      ok: false,
      reason: `rule path ${JSON.stringify(input)} must be absolute (start with "/")`,
    };
  }
  if (braceHoldsSlash(input)) {
    return {
      ok: false,
      reason: `rule path ${JSON.stringify(input)} has "/" inside {...}; list the alternatives as separate paths`,
    };
  }
  const segments: string[] = [];
  for (const segment of input.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      return { ok: false, reason: `rule path ${JSON.stringify(input)} must not contain ".."` };
    }
    segments.push(segment);
  }
  // NFC, like every path decided: a rule pasted in NFD covers the NFC file name and back.
  const path = `/${segments.join("/")}`.normalize("NFC");
  const problem = GLOB_CHARS.test(path)
    ? (literalSyntax(path) ?? globProblem(path.slice(1)))
    : undefined;
  if (problem) return { ok: false, reason: `rule path ${JSON.stringify(input)}: ${problem}` };
  return { ok: true, path };
}

/**
 * Lexical normalisation of a path being decided: Unicode NFC (as rule paths), relative paths
 * start at "/", empty and "." segments go, ".." climbs one level and stops at the root.
 * Never throws.
 *
 * @example
 * normalizeForMatch("x/../../secrets//.env") // "/secrets/.env"
 */
export function normalizeForMatch(path: string): string {
  // Most paths are already canonical ASCII: skip the work (a listing decides every entry).
  const text = NON_ASCII.test(path) ? path.normalize("NFC") : path;
  if (text.startsWith("/") && !NOT_CANONICAL.test(text)) return text;
  const segments: string[] = [];
  for (const segment of text.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

const NON_ASCII = /[\u0080-\uffff]/;
// "//", a "." or ".." segment, or a trailing "/" (the root "/" alone is canonical).
const NOT_CANONICAL = /\/\/|\/\.\.?(?:\/|$)|.\/$/;

// Characters that some layer (C strings, Windows, URL decoding, Unicode folding) may turn
// into a separator, a dot, or the end of the path.
const SUSPICIOUS = /[\0\\%\u0080-\uffff]/;
const SLASH_LOOKALIKES = /[\u2215\u2044\u29f8\uff0f]/g;
const DOT_LOOKALIKES = /[\u2024\ufe52\uff0e\u3002]/g;
const MAX_READINGS = 32;

const REINTERPRETATIONS: ((path: string) => string)[] = [
  (p) => (p.includes("\0") ? p.slice(0, p.indexOf("\0")) : p),
  (p) => p.replaceAll("\\", "/"),
  (p) =>
    p.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    ),
  (p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  },
  (p) => p.normalize("NFKC").replace(SLASH_LOOKALIKES, "/").replace(DOT_LOOKALIKES, "."),
];

/**
 * Every normalised reading of `path`, the plain lexical one first. The tools refuse NUL,
 * backslashes, percent-encodings and look-alike characters before any backend sees them;
 * this is defence in depth for callers that do not, so `/secrets%2F.env` or
 * `/secrets\.env` is judged as `/secrets/.env` too.
 *
 * @example
 * pathReadings("/a\\..\\secrets/x") // ["/a\\..\\secrets/x", "/secrets/x"]
 */
export function pathReadings(path: string): string[] {
  const first = normalizeForMatch(path);
  if (!SUSPICIOUS.test(path)) return [first];
  const seen = new Set([path]);
  const queue = [path];
  for (let i = 0; i < queue.length && seen.size < MAX_READINGS; i++) {
    for (const reinterpret of REINTERPRETATIONS) {
      const next = reinterpret(queue[i]!);
      if (!seen.has(next) && seen.size < MAX_READINGS) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return [...new Set(queue.map(normalizeForMatch))];
}
