/**
 * Glob patterns compiled to regular expressions, with no dependency. Supports `*`, `?`,
 * `[...]` (and `[!...]`), `{a,b}` and `**` as a whole segment (zero or more directories).
 */

export interface GlobMatchOptions {
  /** When false (the default), `*`, `?` and `**` do not match a leading "." in a segment. */
  dot?: boolean;
}

const cache = new Map<string, RegExp>();

/** Compiles a glob to an anchored RegExp matched against a path without a leading "/". */
export function compileGlob(pattern: string, options: GlobMatchOptions = {}): RegExp {
  const key = `${options.dot ? 1 : 0}\0${pattern}`;
  let re = cache.get(key);
  if (!re) {
    re = new RegExp(`^${globBody(pattern, options.dot ?? false)}$`, "s");
    if (cache.size > 500) cache.clear();
    cache.set(key, re);
  }
  return re;
}

/** True when `path` (no leading "/") matches `pattern`. */
export function globMatches(
  pattern: string,
  path: string,
  options: GlobMatchOptions = {},
): boolean {
  return compileGlob(pattern, options).test(path);
}

function globBody(pattern: string, dot: boolean): string {
  const segments = splitTopLevel(pattern, "/");
  let out = "";
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    if (segment === "**") {
      const anySegment = dot ? "[^/]*" : "(?!\\.)[^/]*";
      // "a/**" matches everything under a; "**/b" and "a/**/b" match zero or more dirs.
      out += last ? `(?:${anySegment}(?:/${anySegment})*)?` : `(?:${anySegment}/)*`;
      continue;
    }
    out += segmentBody(segment, dot);
    if (!last) out += "/";
  }
  return out;
}

function segmentBody(segment: string, dot: boolean): string {
  let out = "";
  const startsWild = segment.startsWith("*") || segment.startsWith("?") || segment.startsWith("[");
  if (!dot && startsWild) out += "(?!\\.)";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === "*") {
      while (segment[i + 1] === "*") i++;
      out += "[^/]*";
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[") {
      const end = segment.indexOf("]", i + 2);
      if (end === -1) {
        out += "\\[";
        continue;
      }
      let body = segment.slice(i + 1, end);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      body = body.replace(/[\\\]]/g, (m) => `\\${m}`);
      out += negate ? `[^/${body}]` : `[${body}]`;
      i = end;
    } else if (c === "{") {
      const end = matchingBrace(segment, i);
      if (end === -1) {
        out += "\\{";
        continue;
      }
      const alternatives = splitTopLevel(segment.slice(i + 1, end), ",");
      out += `(?:${alternatives.map((a) => segmentBody(a, true)).join("|")})`;
      i = end;
    } else {
      out += c.replace(/[.+^$()|\\/]/g, (m) => `\\${m}`);
    }
  }
  return out;
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

/** Splits `text` on `separator` outside `{...}` groups ("a/{b/c,d}" is ["a", "{b/c,d}"]). */
export function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{") depth++;
    else if (c === "}") depth = Math.max(0, depth - 1);
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
