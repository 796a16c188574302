// Reading the docs as data: which pages exist, their fenced code blocks, links and headings.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** README.md and every docs/*.md page, as root-relative paths. */
export function docPages(): string[] {
  const pages = readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`);
  return ["README.md", ...pages.sort()];
}

/** The text of a root-relative file. */
export function readDoc(path: string): string {
  return readFileSync(join(ROOT, path), "utf8");
}

/** True when a root-relative path exists. */
export function existsInRepo(path: string): boolean {
  return existsSync(join(ROOT, path));
}

/** One fenced code block: its language tag, its lines, and the line its fence opens on. */
export interface FencedBlock {
  lang: string;
  lines: string[];
  line: number;
}

/** The fenced code blocks of a markdown text, in order. */
export function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let open: FencedBlock | undefined;
  let fence = "";
  text.split("\n").forEach((row, i) => {
    if (!open) {
      const m = /^(`{3,}|~{3,})\s*([\w+-]*)/.exec(row);
      if (m) {
        fence = m[1]!;
        open = { lang: m[2]!.toLowerCase(), lines: [], line: i + 1 };
      }
    } else if (row.trimEnd() === fence) {
      blocks.push(open);
      open = undefined;
    } else {
      open.lines.push(row);
    }
  });
  if (open) throw new Error(`unclosed code fence opened on line ${open.line}`);
  return blocks;
}

/** The text with every fenced block's lines blanked (line numbers are kept). */
export function outsideFences(text: string): string {
  let fence = "";
  return text
    .split("\n")
    .map((row) => {
      const m = /^(`{3,}|~{3,})/.exec(row);
      if (!fence && m) fence = m[1]!;
      else if (fence && row.trimEnd() === fence) fence = "";
      else if (!fence) return row;
      return "";
    })
    .join("\n");
}

/** Relative link targets (`[text](target)`) of a markdown text; web and mail links skipped. */
export function relativeLinks(text: string): string[] {
  const targets = [
    ...outsideFences(text)
      .replace(/`[^`\n]*`/g, "")
      .matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g),
  ].map((m) => m[1]!);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** GitHub's anchor for each heading of a markdown text (duplicates get -1, -2, ...). */
export function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of outsideFences(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = headingSlug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

/** GitHub's slug of one heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}
