import picomatch from "picomatch";

/**
 * Delve's one glob matcher: `picomatch` (what bundlers, test runners and linters use) behind
 * a small interface, for the `glob` tool, grep's file filter, composite routes and permission
 * rules. The dialect: `*`, `?`, `[...]` / `[!...]`, `{a,b}` and `**` as a whole segment (zero
 * or more directories); `\` escapes the next character. Parentheses, `|` and a leading `!`
 * are plain characters (no extglobs, no negated patterns), so a path such as `/docs/(draft)`
 * is matched literally and a rule can never mean its opposite.
 */

/** Options of `compileGlob`. */
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
    const literalPunctuation = pattern.replace(/^!/, "\\!").replace(/[()|]/g, (c) => `\\${c}`);
    re = picomatch.makeRe(literalPunctuation, {
      dot: options.dot ?? false,
      posix: true,
      noextglob: true,
      strictSlashes: true,
      flags: "s",
    });
    if (cache.size > 500) cache.clear();
    cache.set(key, re);
  }
  return re;
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
