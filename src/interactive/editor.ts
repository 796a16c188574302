import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseEditArgs } from "../cli/edit-args.js";

/**
 * Opens a call's arguments as JSON in `$VISUAL` / `$EDITOR` (vi without either) and reads
 * them back with the same checks as `delve approve --edit`. `suspend` hands the terminal to
 * the editor (raw mode off) and takes it back. Throws `UsageError` on arguments that do not parse.
 */
export function editArgsInEditor(
  args: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  suspend: <T>(run: () => T) => T,
): Record<string, unknown> | undefined {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "delve-edit-"));
  const file = path.join(dir, "args.json");
  try {
    const before = `${JSON.stringify(args, null, 2)}\n`;
    fs.writeFileSync(file, before);
    const editor = env.VISUAL || env.EDITOR || "vi";
    // Through the shell, as git does: EDITOR may carry its own flags ("code --wait").
    const run = suspend(() =>
      spawnSync(`${editor} ${shellQuote(file)}`, { shell: true, stdio: "inherit", env }),
    );
    if (run.status !== 0) return undefined;
    const after = fs.readFileSync(file, "utf8");
    return parseEditArgs(after);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
