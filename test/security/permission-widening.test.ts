/**
 * A careless developer against rule order: a rule covers its path and everything below it and
 * the first match wins, so an earlier `allow` on a parent silently opens a later `deny` of a
 * subtree. Such rule sets are refused at construction with a message that says how to write
 * them; a carve-out strictly inside a later rule is kept.
 */

import {
  createDeepAgent,
  decide,
  filesystemMiddleware,
  type PermissionRule,
  validatePermissions,
} from "delve";
import { ScriptedChatModel } from "delve/testing";
import { describe, expect, it } from "vitest";

type Mode = PermissionRule["mode"];
const rule = (mode: Mode, paths: string[], operations: ("read" | "write")[] = ["read"]) => ({
  operations,
  paths,
  mode,
});

function refusal(rules: PermissionRule[]): string {
  try {
    validatePermissions(rules);
  } catch (error) {
    expect((error as { code?: string }).code).toBe("INVALID_PERMISSION");
    return (error as Error).message;
  }
  throw new Error("validatePermissions accepted the rules");
}

describe("an earlier, looser rule may not open a later, stricter one", () => {
  it("allow /docs/item then deny /docs/item/secrets/** is refused, saying how to fix it", () => {
    const message = refusal([
      rule("allow", ["/docs/item"]),
      rule("deny", ["/docs/item/secrets/**"]),
    ]);
    expect(message).toContain(
      "permissions[1] (deny read /docs/item/secrets/**) never applies to /docs/item/secrets",
    );
    expect(message).toContain("earlier permissions[0] (allow read /docs/item)");
    expect(message).toContain("Put permissions[1] before permissions[0]");
  });

  it("the same rules in the other order are accepted and deny the subtree", () => {
    const rules = validatePermissions([
      rule("deny", ["/docs/item/secrets/**"]),
      rule("allow", ["/docs/item"]),
    ]);
    expect(decide(rules, "read", "/docs/item/secrets/k").mode).toBe("deny");
    expect(decide(rules, "read", "/docs/item/a.md").mode).toBe("allow");
  });

  it("a wildcard parent opening a literal deny is refused", () => {
    refusal([rule("allow", ["/docs/*"]), rule("deny", ["/docs/item/secrets"])]);
  });

  it("a literal parent opening a wildcard deny is refused", () => {
    refusal([rule("allow", ["/docs/item"]), rule("deny", ["/docs/*/secrets"])]);
  });

  it("an allow of the very same path as a later deny is refused", () => {
    refusal([rule("allow", ["/x"]), rule("deny", ["/x/**"])]);
  });

  it("an interrupt above a later deny is refused (approval would open the denied paths)", () => {
    refusal([rule("interrupt", ["/a"], ["write"]), rule("deny", ["/a/b"], ["write"])]);
  });

  it("an allow above a later interrupt is refused", () => {
    refusal([rule("allow", ["/a"], ["write"]), rule("interrupt", ["/a/b"], ["write"])]);
  });

  it("one of several paths of a rule is enough to refuse", () => {
    const message = refusal([rule("allow", ["/a", "/b"]), rule("deny", ["/c", "/b/c"])]);
    expect(message).toContain("never applies to /b/c");
  });

  it("a carve-out strictly inside a later deny is kept", () => {
    const rules = validatePermissions([
      rule("allow", ["/policies/drafts/**"], ["write"]),
      rule("deny", ["/policies/**"], ["write"]),
    ]);
    expect(decide(rules, "write", "/policies/drafts/a.md").mode).toBe("allow");
    expect(decide(rules, "write", "/policies/a.md").mode).toBe("deny");
  });

  it("rules on different operations never conflict", () => {
    expect(() =>
      validatePermissions([rule("allow", ["/a"], ["read"]), rule("deny", ["/a/b"], ["write"])]),
    ).not.toThrow();
  });

  it("a sibling whose name only starts like the deny's parent does not conflict", () => {
    expect(() =>
      validatePermissions([rule("allow", ["/docs/itemx"]), rule("deny", ["/docs/item/**"])]),
    ).not.toThrow();
  });

  it("a stricter rule first and a looser one after is accepted (the looser one is the exception)", () => {
    expect(() =>
      validatePermissions([
        rule("deny", ["/a/b"]),
        rule("allow", ["/a"]),
        rule("interrupt", ["/c"]),
      ]),
    ).not.toThrow();
  });

  it("createDeepAgent and filesystemMiddleware refuse the ambiguous set at construction", () => {
    const rules = [rule("allow", ["/docs/item"]), rule("deny", ["/docs/item/secrets/**"])];
    expect(() => filesystemMiddleware({ permissions: rules })).toThrow(/never applies/);
    expect(() =>
      createDeepAgent({ model: new ScriptedChatModel([]), permissions: rules } as any),
    ).toThrow(/never applies/);
  });
});
