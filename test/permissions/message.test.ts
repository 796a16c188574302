import { decide, decideDelete, validatePermissions } from "delve";
import { describe, expect, it } from "vitest";
import { deleteDeniedMessage, permissionDeniedMessage } from "../../src/permissions/message.js";

const rules = validatePermissions([
  { operations: ["write"], paths: ["/policies/**"], mode: "deny" },
  { operations: ["read"], paths: ["/a/**", "/secrets/**"], mode: "deny" },
  { operations: ["write"], paths: ["/contracts"], mode: "interrupt" },
  { operations: ["write"], paths: ["/x/one"], mode: "deny" },
  { operations: ["write"], paths: ["/x/two"], mode: "deny" },
  { operations: ["write"], paths: ["/x/three"], mode: "deny" },
  { operations: ["write"], paths: ["/x/four"], mode: "deny" },
]);

describe("permission messages", () => {
  it("a denied write names the path, the rule number and the matching rule path", () => {
    const decision = decide(rules, "write", "/policies/a.md");
    expect(permissionDeniedMessage("write", decision.path, decision)).toBe(
      "Permission denied: write to /policies/a.md is blocked by rule 1 (deny write /policies/**).",
    );
  });

  it("a denied read shows the path of the rule that matched", () => {
    const decision = decide(rules, "read", "/secrets/.env");
    expect(permissionDeniedMessage("read", decision.path, decision)).toBe(
      "Permission denied: read of /secrets/.env is blocked by rule 2 (deny read /secrets/**).",
    );
  });

  it("an interrupt rule reads as needing approval", () => {
    const decision = decide(rules, "write", "/contracts/a.pdf");
    expect(permissionDeniedMessage("write", decision.path, decision)).toBe(
      "Permission denied: write to /contracts/a.pdf needs human approval under rule 3 (interrupt write /contracts).",
    );
  });

  it("a denied delete names its blocking rules, at most three", () => {
    expect(deleteDeniedMessage("/policies", decideDelete(rules, "/policies"))).toBe(
      "Permission denied: removing /policies is blocked by rule 1 (deny write /policies/**).",
    );
    expect(deleteDeniedMessage("/", decideDelete(rules, "/"))).toBe(
      "Permission denied: removing / is blocked by rule 1 (deny write /policies/**), rule 4 (deny write /x/one), rule 5 (deny write /x/two) and 2 more.",
    );
  });

  it("messages are one line and never name a tool", () => {
    const all = [
      deleteDeniedMessage("/", decideDelete(rules, "/")),
      permissionDeniedMessage("write", "/policies/a", decide(rules, "write", "/policies/a")),
    ];
    for (const text of all) {
      expect(text).not.toContain("\n");
      expect(text).not.toMatch(/read_file|write_file|edit_file|\bls\b|glob|grep|delete/);
    }
  });
});
