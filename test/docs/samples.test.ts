import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { docPages, existsInRepo, outsideFences, ROOT, readDoc } from "./markdown.js";
import { sampleProblems, samplesNamed } from "./samples.js";

const readSample = (path: string) => (existsInRepo(path) ? readDoc(path) : undefined);

describe("the docs' TypeScript samples are the type-checked files in docs/examples", () => {
  it.each(docPages())("every ts block of %s names its file and matches it", (page) => {
    expect(sampleProblems(page, readDoc(page), readSample)).toEqual([]);
  });

  it("every file in docs/examples is shown or linked by a page", () => {
    const pages = docPages().map(readDoc);
    const shown = new Set(pages.flatMap(samplesNamed));
    const linked = pages.map(outsideFences).join("\n");
    const orphans = readdirSync(join(ROOT, "docs/examples"))
      .map((name) => `docs/examples/${name}`)
      .filter((path) => !shown.has(path) && !linked.includes(path.slice("docs/".length)));
    expect(orphans).toEqual([]);
  });

  it("tsconfig.json compiles docs, so npm run typecheck checks the samples", () => {
    const config = JSON.parse(readDoc("tsconfig.json"));
    expect(config.include).toContain("docs");
  });
});

describe("the sample check itself", () => {
  const file = 'import { ok } from "delve";\n\nconst a = ok(1);\nconsole.log(a);\n';
  const read = (path: string) => (path === "docs/examples/a.ts" ? file : undefined);
  const page = (...lines: string[]) => ["# Page", "", "```ts", ...lines, "```", ""].join("\n");

  it("accepts a whole file or a run of its lines", () => {
    expect(
      sampleProblems("p.md", page("// docs/examples/a.ts", ...file.trimEnd().split("\n")), read),
    ).toEqual([]);
    expect(
      sampleProblems(
        "p.md",
        page("// docs/examples/a.ts", "const a = ok(1);", "console.log(a);"),
        read,
      ),
    ).toEqual([]);
  });

  it("flags a block edited in the page but not in the file", () => {
    expect(sampleProblems("p.md", page("// docs/examples/a.ts", "const a = ok(2);"), read)).toEqual(
      ["p.md:3: the block is not a run of lines of docs/examples/a.ts"],
    );
  });

  it("flags lines that are in the file but not consecutive there", () => {
    expect(
      sampleProblems(
        "p.md",
        page("// docs/examples/a.ts", 'import { ok } from "delve";', "const a = ok(1);"),
        read,
      ),
    ).toHaveLength(1);
  });

  it("flags a ts block without a marker, and a marker naming a missing file", () => {
    expect(sampleProblems("p.md", page("const db = open();"), read)).toEqual([
      'p.md:3: a ts block must start with "// docs/examples/<name>.ts"',
    ]);
    expect(sampleProblems("p.md", page("// docs/examples/gone.ts", "x"), read)).toEqual([
      "p.md:3: docs/examples/gone.ts does not exist",
    ]);
  });

  it("leaves bash and other blocks alone", () => {
    const text = ["```bash", "npm test", "```", "```json", "{}", "```"].join("\n");
    expect(sampleProblems("p.md", text, read)).toEqual([]);
  });
});
