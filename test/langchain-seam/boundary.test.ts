import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// Only src/langchain-seam/ may read private structure of langchain, @langchain/* or the
// savers: a maintainer upgrading them then has one folder (and its tests) to check.
const SEAM = "src/langchain-seam/";

// Each use of an internal, by what it reads. A new kind of use gets a pattern here.
const INTERNALS: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: "Pregel's private config keys (__pregel_*)", pattern: /__pregel_/ },
  { name: "the compiled graph's nodes", pattern: /\bgraph\??\.nodes\b|\.nodes\??\.tools\b/ },
  { name: "a graph builder's internals (branches, edges)", pattern: /\.builder\??\.\w/ },
  { name: "a bound ToolNode's tools", pattern: /\.bound\??\.tools\b/ },
  { name: "message internals (lc_kwargs)", pattern: /\blc_kwargs\b/ },
  { name: "LangGraph class tags (lg_name)", pattern: /\blg_name\b/ },
  {
    name: "a package's dist/ files",
    pattern: /(from\s+|import\s*\(\s*)["'](@langchain\/[\w-]+|langchain)\/dist\//,
  },
  {
    name: "underscore members of chat models",
    pattern: /\._(getModelInstance|useResponsesApi|llmType)\b/,
  },
  {
    name: "a saver's or store's private handles (db, pool, serde, core, options.schema)",
    pattern:
      /\b(saver|holder|checkpointer|s)\??\.(db|pool|serde|core|options\??\.schema)\b|as any\)\??\.(db|pool|serde|core|options)\b/,
  },
  {
    name: "raw SQL on LangGraph's saver tables",
    pattern:
      /\b(FROM|JOIN|INTO|UPDATE|TABLE)\s+(\$\{[^}]+\}\.)?"?(checkpoints|checkpoint_blobs|checkpoint_writes|checkpoint_migrations|writes)\b/i,
  },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [relative(process.cwd(), path)] : [];
  });
}

// Comment lines say what code does and may name an internal; only code counts.
function codeOf(path: string): string {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join("\n");
}

function internalsUsedBy(path: string): string[] {
  const code = codeOf(path);
  return INTERNALS.filter(({ pattern }) => pattern.test(code)).map(({ name }) => name);
}

const files = sourceFiles("src");

describe("the langchain seam is the only place that touches LangChain internals", () => {
  it("no file outside src/langchain-seam/ reads a private structure of langchain or LangGraph", () => {
    const offenders = files
      .filter((f) => !f.startsWith(SEAM))
      .flatMap((f) => internalsUsedBy(f).map((what) => `${f}: ${what}`));
    expect(offenders, "move these uses into src/langchain-seam/<surface>.ts").toEqual([]);
  });

  it("the walk sees the seam's own uses, so the patterns still match real code", () => {
    const seen = new Set(files.filter((f) => f.startsWith(SEAM)).flatMap(internalsUsedBy));
    const kindsTheSeamUses = INTERNALS.map((i) => i.name).filter((name) => !name.includes("dist/"));
    expect([...seen].sort()).toEqual(expect.arrayContaining(kindsTheSeamUses));
  });

  it("every seam file says what it relies on and the versions it was checked against", () => {
    for (const path of files.filter((f) => f.startsWith(SEAM) && f !== `${SEAM}index.ts`)) {
      const header = readFileSync(path, "utf8").split("\n").slice(0, 12).join("\n");
      expect(header, path).toMatch(/^\/\/ Relies on: /);
      expect(header, path).toMatch(/Checked against: .*\d+\.\d+\.\d+/);
    }
  });
});
