import { literalRuleTargets, validatePermissions } from "delve";
import { describe, expect, it } from "vitest";

describe("literalRuleTargets", () => {
  it("literal rules map to hide/readOnly; wildcard rules are unenforceable", () => {
    const targets = literalRuleTargets(
      validatePermissions([
        { operations: ["read"], paths: ["/secrets/**"], mode: "deny" },
        { operations: ["write"], paths: ["/policies", "/contracts/"], mode: "deny" },
        { operations: ["read", "write"], paths: ["/keys"], mode: "deny" },
        { operations: ["write"], paths: ["/docs/*.md"], mode: "deny" },
      ]),
    );
    expect(targets.hide).toEqual(["/secrets", "/keys"]);
    expect(targets.readOnly).toEqual(["/policies", "/contracts", "/keys"]);
    expect(targets.unenforceable).toEqual([
      {
        index: 3,
        path: "/docs/*.md",
        reason: "the sandbox enforces literal paths by mounts; /docs/*.md cannot be mounted",
      },
    ]);
  });

  it("a rule whose only syntax is braces is its literal paths", () => {
    const targets = literalRuleTargets(
      validatePermissions([
        { operations: ["read"], paths: ["/logs/{2023..2025}/**"], mode: "deny" },
        { operations: ["write"], paths: ["/{contracts,policies}/{a,b}"], mode: "deny" },
        { operations: ["read"], paths: ["/logs/{x,y}/*.log"], mode: "deny" },
      ]),
    );
    expect(targets.hide).toEqual(["/logs/2023", "/logs/2024", "/logs/2025"]);
    expect(targets.readOnly).toEqual([
      "/contracts/a",
      "/contracts/b",
      "/policies/a",
      "/policies/b",
    ]);
    expect(targets.unenforceable.map((u) => u.path)).toEqual(["/logs/{x,y}/*.log"]);
  });

  it("an allow carving into one literal of a brace deny is unenforceable", () => {
    const targets = literalRuleTargets(
      validatePermissions([
        { operations: ["read"], paths: ["/logs/2024/public/**"], mode: "allow" },
        { operations: ["read"], paths: ["/logs/{2023..2025}/**"], mode: "deny" },
      ]),
    );
    expect(targets.unenforceable.map((u) => [u.index, u.path])).toEqual([
      [0, "/logs/2024/public/**"],
    ]);
  });

  it("a wildcard before a trailing /** is still a wildcard", () => {
    const targets = literalRuleTargets(
      validatePermissions([{ operations: ["read"], paths: ["/*/private/**"], mode: "deny" }]),
    );
    expect(targets.hide).toEqual([]);
    expect(targets.unenforceable.map((u) => u.path)).toEqual(["/*/private/**"]);
  });

  it("interrupt rules are unenforceable for shell commands", () => {
    const targets = literalRuleTargets(
      validatePermissions([{ operations: ["write"], paths: ["/contracts"], mode: "interrupt" }]),
    );
    expect(targets.readOnly).toEqual([]);
    expect(targets.unenforceable).toHaveLength(1);
    expect(targets.unenforceable[0]!.reason).toMatch(/needs a human decision/);
  });

  it("an allow that carves an exception out of a later deny is unenforceable", () => {
    const targets = literalRuleTargets(
      validatePermissions([
        { operations: ["read"], paths: ["/secrets/public/**"], mode: "allow" },
        { operations: ["read"], paths: ["/secrets/**"], mode: "deny" },
      ]),
    );
    expect(targets.unenforceable).toEqual([
      {
        index: 0,
        path: "/secrets/public/**",
        reason:
          "an allow that carves an exception out of permissions[1] (deny read /secrets/**) cannot be enforced by mounts",
      },
    ]);
  });

  it("allows that do not overlap a later deny, or follow it, are harmless", () => {
    const targets = literalRuleTargets(
      validatePermissions([
        { operations: ["read"], paths: ["/notes/**"], mode: "allow" },
        { operations: ["write"], paths: ["/secrets/public"], mode: "allow" },
        { operations: ["read"], paths: ["/secrets"], mode: "deny" },
        { operations: ["read"], paths: ["/secrets/public"], mode: "allow" },
      ]),
    );
    expect(targets).toEqual({ hide: ["/secrets"], readOnly: [], unenforceable: [] });
  });

  it("a deny wholly shadowed by an earlier allow yields no mount (rules not validated as a set)", () => {
    // validatePermissions refuses this set; literalRuleTargets still decides it consistently.
    const targets = literalRuleTargets([
      { operations: ["write"], paths: ["/work/**"], mode: "allow" },
      { operations: ["write"], paths: ["/work/out"], mode: "deny" },
    ]);
    expect(targets).toEqual({ hide: [], readOnly: [], unenforceable: [] });
  });

  it("no rules need nothing", () => {
    expect(literalRuleTargets([])).toEqual({ hide: [], readOnly: [], unenforceable: [] });
  });
});
