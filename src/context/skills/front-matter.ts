import { createRequire } from "node:module";

// Loaded on the first front matter read, so that `import "delve"` does not pay for the parser.
let yaml: typeof import("yaml") | undefined;
const loadYaml = () => (yaml ??= createRequire(import.meta.url)("yaml") as typeof import("yaml"));

/**
 * The YAML front matter of SKILL.md (and other Markdown) files, read with the `yaml` library
 * under safe settings: the core schema (no custom or language tags), unique keys, at most
 * 100 alias expansions, and at most `MAX_FRONT_MATTER_CHARS` characters.
 */

/** The longest front matter read (characters between the `---` lines). */
export const MAX_FRONT_MATTER_CHARS = 64_000;

/** A parsed front matter: its top-level fields as YAML gives them, and the body after it. */
export interface FrontMatter {
  fields: Map<string, unknown>;
  body: string;
}

/** The front matter, or why the file has none that can be read (naming the file's line). */
export type FrontMatterResult = { ok: true; value: FrontMatter } | { ok: false; reason: string };

/**
 * Parses the front matter at the start of `text` (a `---` line, a YAML mapping, a `---` or
 * `...` line). A byte-order mark and CRLF line ends are accepted. A YAML error is reported
 * with its line in the file.
 *
 * @example
 * parseFrontMatter("---\nname: pdf-forms\nallowed-tools: [read_file]\n---\n# Body")
 * // { ok: true, value: { fields: Map { name => "pdf-forms", allowed-tools => ["read_file"] }, body: "# Body" } }
 */
export function parseFrontMatter(text: string): FrontMatterResult {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trimEnd() !== "---") {
    return { ok: false, reason: 'it has no front matter (the file must start with a "---" line)' };
  }
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === "---" || l.trimEnd() === "..."));
  if (end < 0) return { ok: false, reason: 'its front matter has no closing "---" line' };
  const source = lines.slice(1, end).join("\n");
  if (source.length > MAX_FRONT_MATTER_CHARS) {
    return {
      ok: false,
      reason: `its front matter is ${source.length} characters (at most ${MAX_FRONT_MATTER_CHARS})`,
    };
  }
  const doc = loadYaml().parseDocument(source, {
    schema: "core",
    uniqueKeys: true,
    prettyErrors: true,
    customTags: [],
  });
  // A file line: the YAML starts on line 2, after the opening "---".
  const lineOf = (pos: unknown) => ((pos as { line?: number }[] | undefined)?.[0]?.line ?? 0) + 1;
  const problem = doc.errors[0] ?? doc.warnings.find((w) => w.code === "TAG_RESOLVE_FAILED");
  if (problem) {
    const what =
      problem.code === "TAG_RESOLVE_FAILED"
        ? "custom YAML tags are not allowed"
        : problem.code === "DUPLICATE_KEY"
          ? duplicateKey(lines[lineOf(problem.linePos) - 1])
          : firstLine(problem.message);
    return { ok: false, reason: `front matter line ${lineOf(problem.linePos)}: ${what}` };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return { ok: false, reason: `front matter: ${firstLine((error as Error).message)}` };
  }
  if (value === null || value === undefined) value = {};
  if (typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, reason: 'its front matter is not a mapping of "key: value" lines' };
  }
  const fields = new Map<string, unknown>(Object.entries(value as Record<string, unknown>));
  return { ok: true, value: { fields, body: lines.slice(end + 1).join("\n") } };
}

// YAML messages end with a code frame after the first line; keep the sentence, drop " at line".
function firstLine(message: string): string {
  const line = message.split("\n")[0] ?? message;
  return line.replace(/ at line \d+, column \d+:?$/, "").replace(/:$/, "");
}

function duplicateKey(line: string | undefined): string {
  const key = /^\s*["']?([^"':]+)/.exec(line ?? "")?.[1]?.trim();
  return key ? `key "${key}" appears twice` : "a key appears twice";
}
