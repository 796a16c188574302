import { decideDelete, validatePermissions } from "delve";
import { describe, expect, it } from "vitest";

const denyPolicies = validatePermissions([
  { operations: ["write"], paths: ["/policies/**"], mode: "deny" },
]);

describe("decideDelete", () => {
  it("delete checks everything under the path", () => {
    expect(decideDelete(denyPolicies, "/")).toMatchObject({ mode: "deny", index: 0 });
    expect(decideDelete(denyPolicies, "/policies/a.md").mode).toBe("deny");
    expect(decideDelete(denyPolicies, "/policies").mode).toBe("deny");
    expect(decideDelete(denyPolicies, "/notes")).toEqual({
      mode: "allow",
      path: "/notes",
      blocking: [],
    });
  });

  it("an allow that covers the whole deleted subtree wins over a later deny; a partial allow does not", () => {
    const rules = validatePermissions([
      { operations: ["write"], paths: ["/policies/drafts/**"], mode: "allow" },
      { operations: ["write"], paths: ["/policies/**"], mode: "deny" },
    ]);
    expect(decideDelete(rules, "/policies/drafts").mode).toBe("allow");
    expect(decideDelete(rules, "/policies/drafts/old/v1.md").mode).toBe("allow");
    expect(decideDelete(rules, "/policies")).toMatchObject({ mode: "deny", index: 1 });
    expect(decideDelete(rules, "/")).toMatchObject({ mode: "deny", index: 1 });
  });

  it("a deny on something deep below blocks deleting any ancestor, even after a partial allow", () => {
    const rules = validatePermissions([
      { operations: ["write"], paths: ["/repo/src/**"], mode: "allow" },
      { operations: ["write"], paths: ["/repo/**/.git/**"], mode: "deny" },
    ]);
    expect(decideDelete(rules, "/repo").mode).toBe("deny");
    expect(decideDelete(rules, "/repo/vendor/lib").mode).toBe("deny");
    // The allow covers /repo/src whole: a .git inside it is allowed by first match.
    expect(decideDelete(rules, "/repo/src").mode).toBe("allow");
    expect(decideDelete(rules, "/other").mode).toBe("allow");
  });

  it("a wildcard deny blocks deleting the directory that holds matching files", () => {
    const rules = validatePermissions([
      { operations: ["write"], paths: ["/docs/*.pdf"], mode: "deny" },
    ]);
    expect(decideDelete(rules, "/docs").mode).toBe("deny");
    expect(decideDelete(rules, "/docs/a.pdf").mode).toBe("deny");
    expect(decideDelete(rules, "/docs/a.md").mode).toBe("allow");
    // "*.pdf" matches one level below /docs only: /docs/sub/x.pdf is not protected.
    expect(decideDelete(rules, "/docs/sub").mode).toBe("allow");
  });

  it("an allow matching a file decides that file, as write_file would", () => {
    const rules = validatePermissions([
      { operations: ["write"], paths: ["/docs/*.md"], mode: "allow" },
      { operations: ["write"], paths: ["/docs/**"], mode: "deny" },
    ]);
    expect(decideDelete(rules, "/docs/a.md").mode).toBe("allow");
    expect(decideDelete(rules, "/docs/a.txt").mode).toBe("deny");
  });

  it("the decision names every blocking rule, and deny outranks interrupt", () => {
    const rules = validatePermissions([
      { operations: ["write"], paths: ["/data/contracts"], mode: "interrupt" },
      { operations: ["read"], paths: ["/data/secrets"], mode: "deny" },
      { operations: ["write"], paths: ["/data/policies/**"], mode: "deny" },
      { operations: ["write"], paths: ["/data/notes/**"], mode: "allow" },
    ]);
    const decision = decideDelete(rules, "/data");
    expect(decision).toMatchObject({ mode: "deny", index: 2, pattern: "/data/policies/**" });
    expect(decision.blocking.map((m) => [m.index, m.rule.mode])).toEqual([
      [0, "interrupt"],
      [2, "deny"],
    ]);
    expect(decideDelete(rules, "/data/contracts/a.pdf")).toMatchObject({
      mode: "interrupt",
      index: 0,
    });
    expect(decideDelete(rules, "/data/notes").mode).toBe("allow");
  });

  it("read rules never block a delete", () => {
    const rules = validatePermissions([
      { operations: ["read"], paths: ["/secrets"], mode: "deny" },
    ]);
    expect(decideDelete(rules, "/").mode).toBe("allow");
  });

  it("the deleted path is normalised before the check", () => {
    for (const path of ["", ".", "/x/..", "//", "policies/../.."]) {
      expect(decideDelete(denyPolicies, path)).toMatchObject({ mode: "deny", path: "/" });
    }
  });
});
