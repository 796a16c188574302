import { ConfigurationError, decide, type PermissionRule, validatePermissions } from "delve";
import { describe, expect, it } from "vitest";

const denyRead = (...paths: string[]): PermissionRule[] =>
  validatePermissions([{ operations: ["read"], paths, mode: "deny" }]);

describe("decide", () => {
  it("a deny of /secrets/** blocks /secrets/.env", () => {
    const decision = decide(denyRead("/secrets/**"), "read", "/secrets/.env");
    expect(decision).toMatchObject({ mode: "deny", index: 0, pattern: "/secrets/**" });
  });

  it("non-normalised paths hit the rule: secrets/.env, /secrets//.env, /x/../secrets/.env", () => {
    const rules = denyRead("/secrets/**");
    for (const path of ["secrets/.env", "/secrets//.env", "/x/../secrets/.env"]) {
      expect(decide(rules, "read", path), path).toMatchObject({
        mode: "deny",
        path: "/secrets/.env",
      });
    }
  });

  it("first match wins", () => {
    const rules = validatePermissions([
      { operations: ["write"], paths: ["/policies/drafts/**"], mode: "allow" },
      { operations: ["write"], paths: ["/policies/**"], mode: "deny" },
    ]);
    expect(decide(rules, "write", "/policies/drafts/final.md")).toMatchObject({
      mode: "allow",
      index: 0,
    });
    expect(decide(rules, "write", "/policies/a.md")).toMatchObject({ mode: "deny", index: 1 });
  });

  it("no match allows, and an allow without a match names no rule", () => {
    const decision = decide(denyRead("/secrets/**"), "read", "/notes/a.md");
    expect(decision).toEqual({ mode: "allow", path: "/notes/a.md" });
    expect(decide([], "write", "/anything")).toEqual({ mode: "allow", path: "/anything" });
  });

  it("a rule only applies to its operations: a write deny does not block reads", () => {
    const rules = validatePermissions([
      { operations: ["write"], paths: ["/policies"], mode: "deny" },
    ]);
    expect(decide(rules, "read", "/policies/a.md").mode).toBe("allow");
    expect(decide(rules, "write", "/policies/a.md").mode).toBe("deny");
  });

  it("** matches dot-files and dot-directories", () => {
    const rules = denyRead("/secrets/**", "/**/.git/**");
    for (const path of [
      "/secrets/.env",
      "/secrets/.ssh/id_rsa",
      "/repo/.git/config",
      "/.git/HEAD",
    ]) {
      expect(decide(rules, "read", path).mode, path).toBe("deny");
    }
    expect(decide(denyRead("/**/*.pem"), "read", "/a/.hidden/.key.pem").mode).toBe("deny");
  });

  it("a rule path /secrets/** also matches the directory /secrets itself", () => {
    expect(decide(denyRead("/secrets/**"), "read", "/secrets").mode).toBe("deny");
    expect(decide(denyRead("/secrets/**"), "read", "/secrets/").mode).toBe("deny");
  });

  it("a literal rule path matches itself and everything below it, not a sibling sharing its prefix", () => {
    const rules = denyRead("/secrets");
    expect(decide(rules, "read", "/secrets").mode).toBe("deny");
    expect(decide(rules, "read", "/secrets/a/b/.c").mode).toBe("deny");
    expect(decide(rules, "read", "/secrets-public/a").mode).toBe("allow");
    expect(decide(rules, "read", "/secretsX").mode).toBe("allow");
  });

  it("a wildcard rule covers everything under a path it matches", () => {
    const rules = denyRead("/data/*.db");
    expect(decide(rules, "read", "/data/app.db").mode).toBe("deny");
    expect(decide(rules, "read", "/data/app.db/wal/0001").mode).toBe("deny");
    expect(decide(rules, "read", "/data/app.txt").mode).toBe("allow");
    expect(decide(rules, "read", "/data").mode).toBe("allow");
  });

  it("a single-star rule does not swallow the root", () => {
    const rules = denyRead("/*.md");
    expect(decide(rules, "read", "/").mode).toBe("allow");
    expect(decide(rules, "read", "/README.md").mode).toBe("deny");
    expect(decide(rules, "read", "/docs/a.md").mode).toBe("allow");
  });

  it("brace, character-class and ? globs match", () => {
    const rules = denyRead("/{keys,certs}/**", "/logs/app-[0-9].log", "/tmp/?.bin");
    for (const path of ["/keys/a", "/certs/.b", "/logs/app-7.log", "/tmp/x.bin"]) {
      expect(decide(rules, "read", path).mode, path).toBe("deny");
    }
    for (const path of ["/keysX/a", "/logs/app-x.log", "/tmp/xy.bin"]) {
      expect(decide(rules, "read", path).mode, path).toBe("allow");
    }
  });

  it("a rule with several paths matches any of them and reports the one that matched", () => {
    const rules = denyRead("/a/**", "/b/**");
    expect(decide(rules, "read", "/b/x")).toMatchObject({ mode: "deny", pattern: "/b/**" });
  });

  it("matching is case-sensitive, like every backend's virtual paths", () => {
    const rules = denyRead("/secrets/**");
    expect(decide(rules, "read", "/SECRETS/.env").mode).toBe("allow");
    expect(decide(rules, "read", "/Secrets/.env").mode).toBe("allow");
    // Case in the part a wildcard matches is irrelevant.
    expect(decide(rules, "read", "/secrets/.ENV").mode).toBe("deny");
  });

  it("an interrupt rule decides interrupt", () => {
    const rules = validatePermissions([
      { operations: ["write"], paths: ["/contracts"], mode: "interrupt" },
    ]);
    expect(decide(rules, "write", "/contracts/x.md")).toMatchObject({
      mode: "interrupt",
      index: 0,
    });
  });

  it("'..' is resolved lexically for matching and stops at the root", () => {
    const rules = denyRead("/secrets/**");
    expect(decide(rules, "read", "/../../../secrets/.env").mode).toBe("deny");
    expect(decide(rules, "read", "/notes/../../secrets/./.env").mode).toBe("deny");
    expect(decide(rules, "read", "/secrets/../notes/a.md").mode).toBe("allow");
  });

  it("a path another layer could decode differently is judged under every reading", () => {
    const rules = denyRead("/secrets/**");
    const paths = [
      "/secrets%2F.env",
      "/secrets%252F.env",
      "/notes\\..\\secrets\\.env",
      "/secrets\u2215.env",
      "/secrets\uff0f.env",
      "/notes/\uff0e\uff0e/secrets/.env",
      "/secrets/.env\0.txt",
      "/secrets\0/../notes",
    ];
    for (const path of paths)
      expect(decide(rules, "read", path).mode, JSON.stringify(path)).toBe("deny");
  });

  it("unvalidated rules are validated on first use", () => {
    const rules = [{ operations: ["read"], paths: ["secrets"], mode: "deny" }] as PermissionRule[];
    expect(() => decide(rules, "read", "/x")).toThrow(ConfigurationError);
    const loose = [
      { operations: ["read"], paths: ["/secrets//"], mode: "deny" },
    ] as PermissionRule[];
    expect(decide(loose, "read", "/secrets/.env")).toMatchObject({ mode: "deny", rule: loose[0] });
  });
});
