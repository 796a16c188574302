import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { publicEntries } from "./entries.js";
import { declarationOf, exportList, firstSentence } from "./exports.js";

// docs/api.md names every public export. To regenerate it after adding or removing a name:
//   UPDATE_API_DOCS=1 npx vitest run test/api/api-docs.test.ts
// (descriptions come from the first sentence of each name's doc comment; edit them freely).
const API_DOC = "docs/api.md";

interface Row {
  name: string;
  kind: string;
  entries: string[];
  description: string;
}

const entries = publicEntries();
const modules = new Map(
  await Promise.all(entries.map(async (e) => [e.specifier, await import(e.specifier)] as const)),
);

function kindOf(value: unknown, typeOnly: boolean): string {
  if (typeOnly) return "type";
  if (typeof value !== "function") return "constant";
  return /^class\b/.test(Function.prototype.toString.call(value)) ? "class" : "function";
}

// Every public name with its kind, the entries exporting it and its doc comment, by folder.
function expectedRows(): Map<string, Row & { folder: string; doc: string }> {
  const rows = new Map<string, Row & { folder: string; doc: string }>();
  for (const entry of entries) {
    for (const exported of exportList(entry.source)) {
      const declaration = declarationOf(exported.name, entry.source);
      const known = rows.get(exported.name);
      if (known) {
        known.entries.push(entry.specifier);
        continue;
      }
      const doc = declaration?.doc ?? "";
      const value = modules.get(entry.specifier)?.[exported.name];
      rows.set(exported.name, {
        name: exported.name,
        kind: kindOf(value, exported.typeOnly),
        entries: [entry.specifier],
        description: firstSentence(doc),
        folder: folderOf(exported.from, entry.source),
        doc,
      });
    }
  }
  return rows;
}

// The concept folder a name belongs to: the boundary the root takes it from, or the entry's own.
const folderOf = (from: string, source: string) =>
  /^\.\/([a-z-]+)\/index\.js$/.exec(from)?.[1] ?? source.split("/")[1]!;

function renderApiDoc(rows: Iterable<Row & { folder: string }>): string {
  const byFolder = new Map<string, Row[]>();
  for (const row of rows) byFolder.set(row.folder, [...(byFolder.get(row.folder) ?? []), row]);
  const lines = [
    "# API index",
    "",
    "Every name the package exports, by the `src/` folder it lives in. `entry` is the import",
    "path: `delve` is the root; `delve/backend` holds what backend authors need (also in the",
    "root), `delve/mcp` the MCP client, `delve/testing` the test helpers (needs vitest),",
    "`delve/sqlite` the SQLite store (needs better-sqlite3). A test keeps this page complete:",
    "regenerate it with `UPDATE_API_DOCS=1 npx vitest run test/api/api-docs.test.ts`.",
  ];
  for (const [folder, list] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(
      "",
      `## ${folder}`,
      "",
      "| name | kind | entry | description |",
      "| --- | --- | --- | --- |",
    );
    for (const row of list.sort((a, b) => a.name.localeCompare(b.name))) {
      const where = row.entries.map((e) => `\`${e}\``).join(", ");
      lines.push(`| \`${row.name}\` | ${row.kind} | ${where} | ${row.description} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}

// The rows of every table in docs/api.md.
function documentedRows(markdown: string): Row[] {
  return markdown
    .split("\n")
    .filter((line) => /^\| `/.test(line))
    .map((line) => {
      const cells = line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim());
      return {
        name: cells[0]!.replace(/`/g, ""),
        kind: cells[1]!,
        entries: cells[2]!.split(",").map((e) => e.trim().replace(/`/g, "")),
        description: cells[3] ?? "",
      };
    });
}

const expected = expectedRows();
if (process.env.UPDATE_API_DOCS) writeFileSync(API_DOC, renderApiDoc(expected.values()));

describe("the public API and docs/api.md", () => {
  it.each(entries.map((e) => e.specifier))(
    "%s: its runtime exports are exactly the value names its index file lists",
    (specifier) => {
      const entry = entries.find((e) => e.specifier === specifier)!;
      const listed = exportList(entry.source)
        .filter((e) => !e.typeOnly)
        .map((e) => e.name);
      expect(Object.keys(modules.get(specifier)!).sort()).toEqual([...listed].sort());
    },
  );

  it("docs/api.md names every export of every entry, with its kind and entries, and nothing else", () => {
    const documented = documentedRows(readFileSync(API_DOC, "utf8"));
    const shape = (rows: Row[]) =>
      rows.map((r) => `${r.name} | ${r.kind} | ${[...r.entries].sort().join(", ")}`).sort();
    expect(shape(documented)).toEqual(shape([...expected.values()]));
    expect(documented.filter((r) => !r.description)).toEqual([]);
  });

  it("every public name has a doc comment where it is declared", () => {
    const undocumented = [...expected.values()].filter((r) => !r.doc).map((r) => r.name);
    expect(undocumented).toEqual([]);
  });

  it("the root re-exports by name from folder boundaries only (no deep paths, no export *)", () => {
    const root = exportList("src/index.ts");
    expect(root.length).toBeGreaterThan(100);
    expect(root.filter((e) => !/^\.\/[a-z-]+\/index\.js$/.test(e.from))).toEqual([]);
  });

  it("every concept folder has an index.ts boundary that re-exports by name only", () => {
    // The CLI is a program, not a library folder: it has no boundary.
    const folders = readdirSync("src", { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== "cli")
      .map((d) => d.name);
    expect(folders.length).toBeGreaterThanOrEqual(15);
    for (const folder of folders) {
      const file = `src/${folder}/index.ts`;
      expect(existsSync(file), file).toBe(true);
      expect(() => exportList(file), file).not.toThrow();
      expect(exportList(file).length, file).toBeGreaterThan(0);
    }
  });
});
