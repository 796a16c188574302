/**
 * A small reader for the YAML front matter of SKILL.md files: top-level `key: value` pairs
 * with plain, single- or double-quoted, and `|` / `>` block scalars (chomping and indentation
 * indicators included). Nested maps, lists and flow collections are recognised and kept as
 * `null` (their content is not needed). It is lenient where skill authors usually are: a
 * plain value may contain ": " (YAML proper refuses it).
 */

/** A parsed front matter: scalar values as text, collections as null, and the body after it. */
export interface FrontMatter {
  fields: Map<string, string | null>;
  body: string;
}

/** The front matter, or why the file has none that can be read. */
export type FrontMatterResult = { ok: true; value: FrontMatter } | { ok: false; reason: string };

const KEY_LINE = /^([^\s#:'"\-?[\]{},&*!|>%@`][^:]*?)[ \t]*:(?:[ \t]+(.*))?$/;
const BLOCK_HEADER = /^([|>])(?:([1-9])([+-])?|([+-])([1-9])?)?[ \t]*(?:#.*)?$/;
const NULL_WORDS = new Set(["~", "null", "Null", "NULL"]);

/**
 * Parses the front matter at the start of `text` (a `---` line, fields, a `---` or `...`
 * line). A byte-order mark and CRLF line ends are accepted.
 *
 * @example
 * parseFrontMatter("---\nname: pdf-forms\ndescription: >\n  Fill PDF forms.\n---\n# Body")
 * // { ok: true, value: { fields: Map { name => "pdf-forms", description => "Fill PDF forms.\n" }, body: "# Body" } }
 */
export function parseFrontMatter(text: string): FrontMatterResult {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trimEnd() !== "---") {
    return { ok: false, reason: 'it has no front matter (the file must start with a "---" line)' };
  }
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === "---" || l.trimEnd() === "..."));
  if (end < 0) return { ok: false, reason: 'its front matter has no closing "---" line' };
  const block = lines.slice(1, end);
  const fields = new Map<string, string | null>();
  let i = 0;
  while (i < block.length) {
    const line = block[i]!;
    const where = `line ${i + 2}`; // file line: the block starts after the opening "---"
    if (isBlankOrComment(line)) {
      i++;
      continue;
    }
    const match = /^\s/.test(line) ? null : KEY_LINE.exec(line);
    if (!match) return { ok: false, reason: `front matter ${where} is not "key: value"` };
    const key = match[1]!;
    if (fields.has(key)) return { ok: false, reason: `front matter key "${key}" appears twice` };
    const parsed = parseValue(block, i, (match[2] ?? "").trim());
    if ("reason" in parsed) return { ok: false, reason: `front matter ${where}: ${parsed.reason}` };
    fields.set(key, parsed.value);
    i = parsed.next;
  }
  return { ok: true, value: { fields, body: lines.slice(end + 1).join("\n") } };
}

type Parsed = { value: string | null; next: number } | { reason: string };

// Parses the value of the key on block[at], whose text after the colon is `raw`.
function parseValue(block: string[], at: number, raw: string): Parsed {
  if (raw === "" || raw.startsWith("#")) {
    const next = continuation(
      block,
      at + 1,
      (l) => /^\s/.test(l) || l === "-" || l.startsWith("- "),
    );
    const first = block.slice(at + 1, next).findIndex((l) => !isBlankOrComment(l));
    if (first < 0) return { value: "", next };
    // A value may start on the next, indented line; a list or a map there is a collection.
    const row = at + 1 + first;
    const text = block[row]!.trim();
    if (/^-(\s|$)|^[[{]/.test(text) || KEY_LINE.test(text)) return { value: null, next };
    return parseValue(block, row, text);
  }
  if (raw.startsWith("|") || raw.startsWith(">")) return blockScalar(block, at, raw);
  if (raw.startsWith('"') || raw.startsWith("'")) return quoted(block, at, raw);
  const next = continuation(block, at + 1, (l) => /^\s/.test(l));
  if (raw.startsWith("[") || raw.startsWith("{")) return { value: null, next };
  const pieces = [
    stripComment(raw),
    ...block.slice(at + 1, next).map((l) => stripComment(l.trim())),
  ];
  const value = fold(trimTrailingBlanks(pieces));
  return { value: NULL_WORDS.has(value) ? "" : value, next };
}

// The index after the lines that continue a value: those `belongs` accepts, and blank lines
// followed by one it accepts.
function continuation(block: string[], from: number, belongs: (line: string) => boolean): number {
  let next = from;
  for (let j = from; j < block.length; j++) {
    const line = block[j]!;
    if (line.trim() === "") continue;
    if (!belongs(line)) break;
    next = j + 1;
  }
  return next;
}

function blockScalar(block: string[], at: number, raw: string): Parsed {
  const header = BLOCK_HEADER.exec(raw);
  if (!header) return { reason: `"${raw}" is not a block scalar header` };
  const style = header[1]!;
  const explicit = Number(header[2] ?? header[5] ?? 0);
  const chomp = header[3] ?? header[4] ?? "";
  let next = at + 1;
  while (next < block.length && (block[next]!.trim() === "" || /^\s/.test(block[next]!))) next++;
  const raws = block.slice(at + 1, next);
  const first = raws.find((l) => l.trim() !== "");
  const indent = explicit || (first ? first.length - first.trimStart().length : 0);
  const lines = raws.map((l) =>
    l.trim() === "" ? "" : l.slice(Math.min(indent, l.length - l.trimStart().length)),
  );
  const trailing = lines.length - trimTrailingBlanks(lines).length;
  const content = trimTrailingBlanks(lines);
  let text = style === "|" ? content.join("\n") : foldBlock(content);
  if (content.length && chomp !== "-") text += "\n";
  if (chomp === "+") text += "\n".repeat(trailing);
  return { value: text, next };
}

// Folded block: lines join with a space, a blank line is a line break, and more-indented
// lines keep their breaks.
function foldBlock(lines: string[]): string {
  let out = "";
  let breaks = 0;
  let previousMore = false;
  let started = false;
  for (const line of lines) {
    if (line === "") {
      breaks++;
      continue;
    }
    const more = /^\s/.test(line);
    if (started)
      out += breaks
        ? "\n".repeat(breaks + (previousMore || more ? 1 : 0))
        : previousMore || more
          ? "\n"
          : " ";
    else out += "\n".repeat(breaks);
    out += line;
    breaks = 0;
    previousMore = more;
    started = true;
  }
  return out;
}

// Single- or double-quoted scalars, possibly over several lines (folded as YAML does).
function quoted(block: string[], at: number, raw: string): Parsed {
  const q = raw[0]!;
  let text = "";
  let line = raw.slice(1);
  let row = at;
  for (;;) {
    let escapedBreak = false;
    let i = 0;
    while (i < line.length) {
      const c = line[i]!;
      if (q === "'" && c === "'") {
        if (line[i + 1] === "'") {
          text += "'";
          i += 2;
          continue;
        }
        return afterQuote(line.slice(i + 1), text, row + 1);
      }
      if (q === '"' && c === '"') return afterQuote(line.slice(i + 1), text, row + 1);
      if (q === '"' && c === "\\") {
        if (i === line.length - 1) {
          escapedBreak = true; // a backslash ending the line joins the lines with no space
          break;
        }
        const escaped = decodeEscape(line, i + 1);
        if (!escaped) return { reason: `unknown escape "\\${line[i + 1]}"` };
        text += escaped.text;
        i = escaped.next;
        continue;
      }
      text += c;
      i++;
    }
    if (!escapedBreak) text = text.trimEnd();
    let blanks = 0;
    row++;
    while (row < block.length && block[row]!.trim() === "") {
      blanks++;
      row++;
    }
    if (row >= block.length)
      return { reason: `unterminated ${q === '"' ? "double" : "single"}-quoted value` };
    if (!escapedBreak) text += blanks ? "\n".repeat(blanks) : " ";
    line = block[row]!.trimStart();
  }
}

function afterQuote(rest: string, text: string, next: number): Parsed {
  const tail = rest.trim();
  if (tail !== "" && !tail.startsWith("#"))
    return { reason: `unexpected "${tail}" after a quoted value` };
  return { value: text, next };
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  "\t": "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
};
const HEX_ESCAPES: Record<string, number> = { x: 2, u: 4, U: 8 };

function decodeEscape(line: string, at: number): { text: string; next: number } | undefined {
  const c = line[at]!;
  if (c in SIMPLE_ESCAPES) return { text: SIMPLE_ESCAPES[c]!, next: at + 1 };
  const width = HEX_ESCAPES[c];
  if (!width) return undefined;
  const hex = line.slice(at + 1, at + 1 + width);
  if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) return undefined;
  const code = Number.parseInt(hex, 16);
  if (code > 0x10ffff) return undefined;
  return { text: String.fromCodePoint(code), next: at + 1 + width };
}

// Plain multi-line scalars: lines join with a space, blank lines are line breaks.
function fold(pieces: string[]): string {
  let out = "";
  let breaks = 0;
  for (const piece of pieces) {
    if (piece === "") {
      breaks++;
      continue;
    }
    if (out) out += breaks ? "\n".repeat(breaks) : " ";
    out += piece;
    breaks = 0;
  }
  return out;
}

function stripComment(text: string): string {
  const hash = text.search(/(^|\s)#/);
  return (hash < 0 ? text : text.slice(0, hash)).trimEnd();
}

function trimTrailingBlanks(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === "") end--;
  return lines.slice(0, end);
}

function isBlankOrComment(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === "" || trimmed.startsWith("#");
}
