import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

/** One name an index file re-exports: `export { a, type B as C } from "./x.js"`. */
export interface ExportedName {
  /** The name importers see. */
  name: string;
  /** The name in the module it comes from. */
  original: string;
  typeOnly: boolean;
  /** The module specifier, as written. */
  from: string;
}

const REEXPORT = /export\s+(type\s+)?\{([^}]*)\}\s*from\s*"([^"]+)"/g;

/**
 * The names a boundary file exports, read from its `export { ... } from` lists. Throws on
 * `export *` or on a declaration in the file itself: a boundary only re-exports, by name.
 */
export function exportList(file: string): ExportedName[] {
  const text = readFileSync(file, "utf8");
  const star = /export\s+(type\s+)?\*/.exec(text);
  if (star) throw new Error(`${file}: "${star[0]}" (re-export by name instead)`);
  const declared = /^export\s+(?!type\s*\{|\{)\S+/m.exec(text);
  if (declared) throw new Error(`${file}: a declaration ("${declared[0]}") in a boundary file`);
  const names: ExportedName[] = [];
  for (const match of text.matchAll(REEXPORT)) {
    for (const part of splitList(match[2]!)) {
      const typeOnly = Boolean(match[1]) || part.startsWith("type ");
      const [original, name = original] = part.replace(/^type\s+/, "").split(/\s+as\s+/);
      names.push({ name: name!, original: original!, typeOnly, from: match[3]! });
    }
  }
  return names;
}

function splitList(list: string): string[] {
  return list
    .split(",")
    .map((part) => part.replace(/\/\/.*$/gm, "").trim())
    .filter(Boolean);
}

/** Where a name is declared, with the doc comment written above it. */
export interface Declaration {
  file: string;
  /** The doc comment's text, without the comment markers; empty when there is none. */
  doc: string;
}

/** Follows re-exports from `file` to the declaration of `name` and its doc comment. */
export function declarationOf(name: string, file: string, depth = 0): Declaration | undefined {
  if (depth > 10 || !existsSync(file)) return undefined;
  const text = readFileSync(file, "utf8");
  for (const match of text.matchAll(REEXPORT)) {
    for (const part of splitList(match[2]!)) {
      const [original, exported = original] = part.replace(/^type\s+/, "").split(/\s+as\s+/);
      if (exported !== name) continue;
      const here = { file, doc: docBefore(text, match.index) };
      if (!match[3]!.startsWith(".")) return here; // a re-export from another package
      const found = declarationOf(original!, resolveSource(file, match[3]!), depth + 1);
      return found?.doc ? found : here.doc ? here : found;
    }
  }
  const declaration = new RegExp(
    `^export\\s+(?:declare\\s+)?(?:abstract\\s+)?(?:async\\s+)?(?:const|let|function|class|interface|type)\\s+${name}\\b`,
    "m",
  ).exec(text);
  if (declaration) return { file, doc: docBefore(text, declaration.index) };
  // `import { name } from "./x.js"; export { name };`
  if (new RegExp(`^export\\s+\\{[^}]*\\b${name}\\b[^}]*\\};`, "m").test(text)) {
    const source = new RegExp(`import\\s+\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\s*"([^"]+)"`).exec(
      text,
    );
    if (source?.[1]?.startsWith(".")) {
      return declarationOf(name, resolveSource(file, source[1]), depth + 1);
    }
  }
  return undefined;
}

function resolveSource(file: string, specifier: string): string {
  return normalize(join(dirname(file), specifier.replace(/\.js$/, ".ts")));
}

// The /** ... */ comment that ends right before `index`, as plain text.
function docBefore(text: string, index: number): string {
  const before = text.slice(0, index).trimEnd();
  if (!before.endsWith("*/")) return "";
  // The comment opens on a line of its own ("/**" may also occur inside it, as in "/a/**").
  const lines = before.split("\n");
  let start = lines.length - 1;
  while (start > 0 && !lines[start]!.trimStart().startsWith("/**")) start--;
  const comment = lines.slice(start).join("\n").trimStart();
  if (!comment.startsWith("/**")) return "";
  return comment
    .slice(3, -2)
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, ""))
    .join("\n")
    .trim();
}

/**
 * The first sentence of a doc comment, on one line, for a table cell: up to the first full
 * stop outside backticks, or, for a long sentence, up to its first colon or semicolon.
 */
export function firstSentence(doc: string): string {
  const prose = doc
    .split(/\n\s*@/)[0]!
    .replace(/\s+/g, " ")
    .trim();
  const sentence = cutAt(prose, /^(?<!\be\.g|\bi\.e)\.(\s|$)/) ?? prose;
  const short = sentence.length > 140 ? cutAt(sentence, /^[:;]\s/) : undefined;
  return (short ? `${short.slice(0, -1)}.` : sentence).replace(/\|/g, "\\|");
}

// The text up to and including the first character (outside backticks) where `end` matches.
function cutAt(text: string, end: RegExp): string | undefined {
  let code = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "`") code = !code;
    else if (!code && end.test(text.slice(i)) && !/\b(e\.g|i\.e)$/.test(text.slice(0, i))) {
      return text.slice(0, i + 1);
    }
  }
  return undefined;
}
