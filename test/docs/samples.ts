// The rule that keeps the docs' code samples compiled: a ```ts block names the type-checked
// file it is cut from on its first line, and its other lines are a run of that file's lines.
import { type FencedBlock, fencedBlocks } from "./markdown.js";

/** The marker a TypeScript block opens with: `// docs/examples/<name>.ts`. */
export const SAMPLE_MARKER = /^\/\/ (docs\/examples\/[\w.-]+\.ts)$/;

const TS_LANGS = new Set(["ts", "typescript", "tsx", "mts"]);

/** What is wrong with one page's TypeScript blocks, as messages; empty when all is well. */
export function sampleProblems(
  page: string,
  text: string,
  readSample: (path: string) => string | undefined,
): string[] {
  const problems: string[] = [];
  for (const block of fencedBlocks(text).filter((b) => TS_LANGS.has(b.lang))) {
    const where = `${page}:${block.line}`;
    const marker = SAMPLE_MARKER.exec(block.lines[0] ?? "");
    if (!marker) {
      problems.push(`${where}: a ts block must start with "// docs/examples/<name>.ts"`);
      continue;
    }
    const source = readSample(marker[1]!);
    if (source === undefined) {
      problems.push(`${where}: ${marker[1]} does not exist`);
    } else if (!isRunOf(block, source)) {
      problems.push(`${where}: the block is not a run of lines of ${marker[1]}`);
    }
  }
  return problems;
}

/** The sample files a page's markers name. */
export function samplesNamed(text: string): string[] {
  return fencedBlocks(text).flatMap((b) => SAMPLE_MARKER.exec(b.lines[0] ?? "")?.[1] ?? []);
}

// True when the block's lines after the marker appear, consecutive and exact, in the file.
function isRunOf(block: FencedBlock, source: string): boolean {
  const shown = block.lines.slice(1);
  const lines = source.replace(/\n$/, "").split("\n");
  if (shown.length === 0) return false;
  for (let start = 0; start + shown.length <= lines.length; start++) {
    if (shown.every((line, i) => line === lines[start + i])) return true;
  }
  return false;
}
