import { readFileSync } from "node:fs";

/** One public entry of the package: its import specifier and the source file behind it. */
export interface PublicEntry {
  specifier: string;
  source: string;
}

/** The package's public entries, read from package.json `exports` (dist paths mapped to src). */
export function publicEntries(): PublicEntry[] {
  const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
    name: string;
    exports: Record<string, string | { types: string }>;
  };
  return Object.entries(pkg.exports).flatMap(([subpath, target]) => {
    if (typeof target === "string") return []; // ./package.json
    const source = target.types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts");
    return [{ specifier: pkg.name + subpath.slice(1), source }];
  });
}
