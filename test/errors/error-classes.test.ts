import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { publicEntries } from "../api/entries.js";

// Every public entry of the package (package.json `exports`). An error class exported from
// any of them is walked, so a new entry or class cannot slip past.
const ENTRIES = publicEntries().map((e) => e.specifier);

type ErrorClass = (new (
  ...args: any[]
) => Error) & {
  isInstance(value: unknown): boolean;
  codes?: readonly string[];
};

// One way to build each exported error class. A class exported without an entry here fails
// the walk below, so a new error class cannot skip these checks.
const BUILD: Record<string, (C: ErrorClass) => Error> = {
  ConfigurationError: (C) => new C("UNKNOWN_OPTION", "Unknown option modle.", { key: "modle" }),
  MissingProviderError: (C) => new C("deepseek", "@langchain/deepseek"),
  CassetteDriftError: (C) =>
    new C("REQUEST_CHANGED", "The request of step 2 changed.", { task: "t", step: 2, change: "x" }),
  McpConnectionError: (C) => new C("MCP_CONNECT_FAILED", "crm", "crm did not start"),
  ModelCallError: (C) =>
    new C("MODEL_CALL_FAILED", { provider: "openai", status: 503, attempts: 5 }, new Error("x")),
};

// One copy of the package: its entry modules and the error classes they export, by name.
async function copyOfPackage() {
  const modules = await Promise.all(ENTRIES.map((entry) => import(entry)));
  const classes = new Map<string, ErrorClass>();
  for (const module of modules) {
    for (const [name, value] of Object.entries(module)) {
      if (typeof value !== "function" || !(value.prototype instanceof Error)) continue;
      const known = classes.get(name);
      if (known && known !== value) throw new Error(`two different classes exported as ${name}`);
      classes.set(name, value as ErrorClass);
    }
  }
  return { modules, classes };
}

const firstCopy = await copyOfPackage();
// A second copy: the same files evaluated again, so every class is a different object with
// its own prototype chain (as with two installed copies of the package).
vi.resetModules();
const secondCopy = await copyOfPackage();
const first = firstCopy.classes;
const second = secondCopy.classes;
const concrete = [...first.keys()].filter((name) => name !== "DelveError").sort();

describe("every exported error class", () => {
  it("the walk finds the base and each class, and knows how to build each one", () => {
    expect(first.has("DelveError")).toBe(true);
    expect(concrete).toEqual(Object.keys(BUILD).sort());
    expect(second.get("ConfigurationError")).not.toBe(first.get("ConfigurationError"));
  });

  it.each(concrete)("%s: its name, its code from its declared codes, a DelveError", (name) => {
    const C = first.get(name)!;
    const error = BUILD[name]!(C);
    expect(error.name).toBe(name);
    expect(error).toBeInstanceOf(first.get("DelveError")!);
    expect(C.codes?.length).toBeGreaterThan(0);
    expect(C.codes).toContain((error as Error & { code: string }).code);
    expect(first.get("DelveError")!.isInstance(error)).toBe(true);
  });

  it.each(concrete)("%s: its code list is exported by the entry that exports it", (name) => {
    const C = first.get(name)!;
    const exportedLists = firstCopy.modules.flatMap((module) =>
      Object.values(module).filter((v) => v === C.codes),
    );
    expect(exportedLists.length).toBeGreaterThan(0);
  });

  it.each(concrete)("%s.isInstance: true for itself only, in this copy and another", (name) => {
    for (const [otherName, Other] of first) {
      if (otherName === "DelveError") continue;
      const here = BUILD[otherName]!(Other);
      const there = BUILD[otherName]!(second.get(otherName)!);
      const expected = otherName === name;
      expect(first.get(name)!.isInstance(here), `${name}.isInstance(${otherName})`).toBe(expected);
      expect(first.get(name)!.isInstance(there), `${name}.isInstance(copy ${otherName})`).toBe(
        expected,
      );
      expect(second.get(name)!.isInstance(here), `copy ${name}.isInstance(${otherName})`).toBe(
        expected,
      );
    }
    // Passed as a callback (unbound), it still works: `errors.filter(X.isInstance)`.
    const own = BUILD[name]!(first.get(name)!);
    expect([own, new Error("plain")].filter(first.get(name)!.isInstance)).toEqual([own]);
    // Instances from the other copy are not `instanceof` this one: only the marker joins them.
    expect(BUILD[name]!(second.get(name)!)).not.toBeInstanceOf(first.get(name)!);
  });

  it.each(concrete)("%s.isInstance: true for a subclass, false for look-alikes", (name) => {
    const C = first.get(name)!;
    const Sub = class extends (C as new (...args: any[]) => Error) {};
    expect(C.isInstance(BUILD[name]!(Sub as ErrorClass))).toBe(true);
    const lookAlike = Object.assign(new Error("x"), { name, code: C.codes?.[0] });
    expect(C.isInstance(lookAlike)).toBe(false);
    expect(first.get("DelveError")!.isInstance(lookAlike)).toBe(false);
    // Another Delve error given this class's name is still the other class.
    for (const [otherName, Other] of first) {
      if (otherName === "DelveError" || otherName === name) continue;
      const renamed = BUILD[otherName]!(Other);
      renamed.name = name;
      expect(C.isInstance(renamed), `${name}.isInstance(${otherName} renamed ${name})`).toBe(false);
    }
    for (const value of [null, undefined, "ConfigurationError", 42, {}]) {
      expect(C.isInstance(value)).toBe(false);
    }
  });

  it("DelveError.isInstance is true for every Delve error from either copy, false otherwise", () => {
    const base = first.get("DelveError")!;
    for (const name of concrete) {
      expect(base.isInstance(BUILD[name]!(first.get(name)!))).toBe(true);
      expect(base.isInstance(BUILD[name]!(second.get(name)!))).toBe(true);
    }
    expect(base.isInstance(new Error("plain"))).toBe(false);
    expect(base.isInstance(new TypeError("plain"))).toBe(false);
  });
});

describe("error codes", () => {
  // Classes whose one code is set in their own constructor, not at the throw site.
  const BUILT_IN_CODE_OWNERS = new Set(["MissingProviderError"]);
  // The source files outside the error classes themselves.
  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((entry) => {
      const path = join(dir, entry);
      return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
    });
  const throwers = sources("src")
    .filter((path) => !/(errors[\\/]|-error\.ts$)/.test(path))
    .map((path) => readFileSync(path, "utf8"))
    .join("\n");

  it.each(concrete)("every code %s declares is one Delve really uses", (name) => {
    const unused = (first.get(name)!.codes ?? []).filter(
      (code) => !throwers.includes(`"${code}"`) && !BUILT_IN_CODE_OWNERS.has(name),
    );
    expect(unused).toEqual([]);
  });

  it("a real construction error carries a declared code", async () => {
    const { createDeepAgent, ConfigurationError, ScriptedChatModel } = await import("delve");
    const model = new ScriptedChatModel(["hi"]);
    const caught = (options: object) => {
      try {
        createDeepAgent(options as never);
      } catch (error) {
        return error;
      }
      throw new Error("expected createDeepAgent to throw");
    };
    const unknown = caught({ model, modle: "x" });
    expect(ConfigurationError.isInstance(unknown)).toBe(true);
    expect(ConfigurationError.codes).toContain((unknown as { code: string }).code);
    const badCache = caught({ model, cache: true });
    expect(ConfigurationError.isInstance(badCache)).toBe(true);
    expect((badCache as { code: string }).code).toBe("INVALID_OPTION");
  });
});
