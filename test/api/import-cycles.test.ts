import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCircular, parseDependencyTree } from "dpdm";
import { afterAll, describe, expect, it } from "vitest";
import { publicEntries } from "./entries.js";

// `transform: false` keeps type-only imports in the graph, so a type-only cycle counts too.
// The tsconfig maps the `./x.js` specifiers to `x.ts`.
const graphOf = (entries: string[], cwd = process.cwd()) =>
  parseDependencyTree(entries, {
    cwd,
    context: cwd,
    transform: false,
    tsconfig: join(cwd, "tsconfig.json"),
  });

const fixture = mkdtempSync(join(tmpdir(), "delve-cycles-"));
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

describe("import cycles (measured with dpdm)", () => {
  it("the measurement finds a type-only cycle when there is one", async () => {
    writeFileSync(
      join(fixture, "tsconfig.json"),
      '{ "compilerOptions": { "module": "NodeNext", "moduleResolution": "NodeNext" } }',
    );
    writeFileSync(
      join(fixture, "a.ts"),
      'import type { B } from "./b.js";\nexport type A = B[];\n',
    );
    writeFileSync(join(fixture, "b.ts"), 'import type { A } from "./a.js";\nexport type B = A;\n');
    const tree = await graphOf(["a.ts"], fixture);
    expect(parseCircular(tree)).toHaveLength(1);
  });

  it("there is none from any public entry, the CLI or any other source file", async () => {
    const entries = [...publicEntries().map((e) => e.source), "src/cli/main.ts", "src/**/*.ts"];
    const tree = await graphOf(entries);
    expect(Object.keys(tree).filter((file) => file.startsWith("src/")).length).toBeGreaterThan(100);
    // Every relative import resolved to a file, so no edge is missing from the graph.
    const unresolved = Object.values(tree)
      .flatMap((deps) => deps ?? [])
      .filter((dep) => dep.request.startsWith(".") && dep.id === null);
    expect(unresolved).toEqual([]);
    expect(parseCircular(tree)).toEqual([]);
  });
});
