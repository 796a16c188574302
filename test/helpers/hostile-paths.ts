/**
 * Malformed paths shared by the hostile-path suites (FilesystemBackend and SandboxBackend):
 * each one must be refused with `invalid_path` by every file operation, before anything on
 * disk is touched. Families: traversal, tilde, NUL and control characters, percent and
 * Unicode look-alike encodings, backslashes.
 *
 * @example
 * for (const p of MALFORMED_PATHS.nul) expect((await backend.read(p)).error?.code).toBe("invalid_path");
 */
export const MALFORMED_PATHS = {
  traversal: [
    "../secret.txt",
    "/a/../../etc/passwd",
    "/../etc/passwd",
    "a/b/../../../x",
    "/./../x",
    "..",
    "/..",
    "/a/..",
    "/a/b/c/../../../../secret.txt",
    "//../x",
    "/a/..//..//x",
    "./../x",
    `/${"../".repeat(20)}etc/passwd`,
    "/../secret.txt",
    "/a/../../secret.txt",
    `/${"../".repeat(12)}etc/passwd`,
    "/own.txt/../../x",
  ],
  tilde: [
    "~",
    "~/",
    "~/secret.txt",
    "~root",
    "~root/.bashrc",
    "~/../../etc/passwd",
    "~+",
    "~-/x",
    "~nobody/x",
    "~~/x",
    "~/.ssh/id_rsa",
    "~root/.ssh/id_rsa",
    "~nobody",
    "~~",
    "~/.bashrc",
  ],
  nul: [
    "\0",
    "/a\0b",
    "/secret.txt\0.png",
    "\0/etc/passwd",
    "/etc/passwd\0",
    "../\0",
    "/a/\0/b",
    "/x.txt\0../../etc/passwd",
    "/\0\0",
    "/a\nb",
    "/a\rb",
    "/a\u0001b",
    "/a\u007f",
    "/own.txt\0.png",
    "/secret.txt\0",
    "/x\0/../../y",
  ],
  encodings: [
    "%2e%2e%2f",
    "/%2e%2e/%2e%2e/etc/passwd",
    "%2f",
    "/a%2fb",
    "..%2fsecret.txt",
    "%2e%2e/x",
    "%252e%252e%252f",
    "/．．／x",
    "/a／b",
    "..∕x",
    "⁄etc⁄passwd",
    "%c0%ae%c0%ae/x",
    "/a。b",
    "/\u2024\u2024/x",
    "%00",
    "/..%c0%af..%c0%afetc",
    "/\uFE52\uFE52/x",
    "/a\u29F8b",
    "%2e%2e%2fsecret.txt",
    "..%2fx",
    "/%00",
    "/\uff0e\uff0e/x",
  ],
  backslashes: [
    "..\\..\\etc\\passwd",
    "\\etc\\passwd",
    "/a\\..\\..\\x",
    "C:\\Windows\\win.ini",
    "\\\\server\\share",
    "/a\\b",
    "..\\",
    "\\..",
    "/a/..\\..\\b",
    "C:/Windows",
    "/\\",
    "\\\\?\\C:\\x",
    "..\\secret.txt",
  ],
} as const satisfies Record<string, readonly string[]>;

/**
 * JSON of any result, with bytes as latin1 text, so one `not.toContain(marker)` checks every
 * string and byte a backend returned.
 *
 * @example
 * expect(serialize(await backend.read("/ln"))).not.toContain(SECRET_MARKER);
 */
export function serialize(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v instanceof Uint8Array ? Buffer.from(v).toString("latin1") : v,
  );
}
