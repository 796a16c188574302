import { describe, expect, it } from "vitest";
import { compileGlob, globProblem } from "../../../src/backends/protocol/glob.js";
import { expandBraces, literalSyntax } from "../../../src/backends/protocol/glob-braces.js";

// [pattern, path, matches?] for paths without a leading "/", dot-files not matched by wildcards.
const DIALECT: [string, string, boolean][] = [
  ["*.md", "a.md", true],
  ["*.md", "x/a.md", false],
  ["*", "", false],
  ["a*b*c", "aXbYc", true],
  ["a*b*c", "aXbY", false],
  ["*a*a*b", "aaab", true],
  ["?", "🔑", true],
  ["??", "🔑", false],
  ["[🔑🔒]x", "🔒x", true],
  ["[a-c]", "b", true],
  ["[!a-c]", "d", true],
  ["[^a-c]", "b", false],
  ["[]a]", "]", true],
  ["[a-]", "-", true],
  ["[[:digit:]][[:upper:]]", "7Q", true],
  ["[[:digit:]]", "x", false],
  ["[", "[", true],
  ["\\*", "*", true],
  ["\\*", "a", false],
  ["src/**/*.ts", "src/a.ts", true],
  ["src/**/*.ts", "src/x/y/a.ts", true],
  ["src/**/*.ts", "src/.cache/a.ts", false],
  ["**", "a/b/c", true],
  ["**", ".env", false],
  ["**.md", "a/b.md", false],
  ["a/**/**/**/b", "a/b", true],
  ["{a,b}.md", "b.md", true],
  ["{a,{b,{c,d}}}", "d", true],
  ["{a}", "{a}", true],
  ["{a,b", "{a,b", true],
  ["{1..3}", "2", true],
  ["{8..12}", "10", true],
  ["{01..10}", "07", true],
  ["{1..9..4}", "5", true],
  ["{1..9..4}", "3", false],
  ["{-2..2}", "-1", true],
  ["{e..a}", "c", true],
  ["{x,y}/{1..2}", "y/2", true],
  ["{src/a,lib}/*.ts", "src/a/x.ts", true],
  ["(a)", "(a)", true],
  ["+(a|aa)", "+(a|aa)", true],
  ["+(a|aa)", "aa", false],
  ["!a", "!a", true],
  ["*", ".env", false],
  [".*", ".env", true],
  ["[.]env", ".env", true],
  ["[!x]env", ".env", false],
  ["{.env,x}", ".env", true],
  ["*", "a\nb", true],
];

describe("the glob dialect", () => {
  it.each(DIALECT)("%j against %j is %s", (pattern, path, expected) => {
    expect(compileGlob(pattern).test(path)).toBe(expected);
  });

  it("with dot, wildcards and ** take dot-files too", () => {
    expect(compileGlob("*", { dot: true }).test(".env")).toBe(true);
    expect(compileGlob("a/**/b", { dot: true }).test("a/.x/b")).toBe(true);
  });

  it("a path matches itself or through an ancestor, never through the empty root", () => {
    const glob = compileGlob("logs/{2023..2025}", { dot: true });
    expect(glob.testPathOrAncestor("logs/2024/app.log")).toBe(true);
    expect(glob.testPathOrAncestor("logs/2026/app.log")).toBe(false);
    expect(compileGlob("*").testPathOrAncestor("")).toBe(false);
  });

  it("braces expand as a shell does, counting before building", () => {
    expect(expandBraces("a{b,c{d,e}}f")).toEqual({ ok: true, patterns: ["abf", "acdf", "acef"] });
    expect(expandBraces("[{]a,b[}]")).toEqual({ ok: true, patterns: ["[{]a,b[}]"] });
    expect(expandBraces("\\{a,b}")).toEqual({ ok: true, patterns: ["\\{a,b}"] });
    expect(expandBraces("{1..99999999999}").ok).toBe(false);
  });

  it("literal-looking syntax is named, so rules can refuse it", () => {
    expect(literalSyntax("/a/{b}")).toMatch(/no comma or range/);
    expect(literalSyntax("/a/{b,c")).toMatch(/unclosed "\{"/);
    expect(literalSyntax("/a/[b")).toMatch(/unclosed "\["/);
    expect(literalSyntax("/a/{b,c}/[!x]/{1..3}")).toBeUndefined();
  });

  it("globProblem names the limit a pattern passes, and compileGlob throws it", () => {
    expect(globProblem("*.md")).toBeUndefined();
    expect(globProblem("x".repeat(1001))).toMatch(/longer than 1000 characters/);
    expect(globProblem("{1..300}")).toMatch(/more than 256 patterns/);
    expect(globProblem(`{1..200}${"x".repeat(30)}`)).toMatch(/more than 4096 characters/);
    expect(() => compileGlob("{1..300}")).toThrow(/INVALID_GLOB|more than 256 patterns/);
  });
});
