// The workspace's ignore rules for its snapshots: the `.gitignore` files (the root one and one
// in any directory, each applying below its own directory), in git's pattern syntax: `#`
// comments, `!` re-includes, a trailing `/` for directories only, a `/` inside anchoring the
// pattern to its file's directory, `*`, `?`, `[...]` and `**`. `.git` and `.delve` are
// always left out.

/** One pattern of an ignore file, compiled. */
interface Rule {
  /** The directory (workspace-relative, "" for the root) whose ignore file holds it. */
  base: string;
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
  /** Matched against the path below `base`, not the last name only. */
  anchored: boolean;
}

/** Names never snapshotted, wherever they are. */
export const ALWAYS_IGNORED = new Set([".git", ".delve"]);

/** The rules that apply in one directory: its parents' and its own ignore file's. */
export class IgnoreRules {
  readonly #rules: Rule[];

  constructor(rules: Rule[] = []) {
    this.#rules = rules;
  }

  /** These rules plus the patterns of `text`, an ignore file in directory `base`. */
  with(base: string, text: string): IgnoreRules {
    const added = text.split(/\r?\n/).flatMap((line) => {
      const rule = compile(base, line);
      return rule ? [rule] : [];
    });
    return added.length ? new IgnoreRules([...this.#rules, ...added]) : this;
  }

  /** Whether the workspace-relative `file` (a directory when `dir`) is ignored. */
  ignores(file: string, dir: boolean): boolean {
    const name = file.slice(file.lastIndexOf("/") + 1);
    if (ALWAYS_IGNORED.has(name)) return true;
    let ignored = false;
    // The last rule that matches decides, as in git.
    for (const rule of this.#rules) {
      if (rule.dirOnly && !dir) continue;
      if (rule.base && !file.startsWith(`${rule.base}/`)) continue;
      const below = rule.base ? file.slice(rule.base.length + 1) : file;
      if (rule.regex.test(rule.anchored ? below : name)) ignored = !rule.negate;
    }
    return ignored;
  }
}

function compile(base: string, line: string): Rule | undefined {
  let text = line.replace(/(?<!\\)\s+$/, "");
  if (!text || text.startsWith("#")) return undefined;
  const negate = text.startsWith("!");
  if (negate) text = text.slice(1);
  if (text.startsWith("\\")) text = text.slice(1);
  const dirOnly = text.endsWith("/");
  if (dirOnly) text = text.slice(0, -1);
  const anchored = text.includes("/");
  if (text.startsWith("/")) text = text.slice(1);
  if (!text) return undefined;
  return { base, regex: new RegExp(`^${toRegex(text)}$`), negate, dirOnly, anchored };
}

function toRegex(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      out += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\");
        out += `[${body}]`;
        i = end;
      }
    } else if (c === "\\" && i + 1 < glob.length) {
      out += escapeChar(glob[i + 1]!);
      i++;
    } else out += escapeChar(c);
  }
  return out;
}

const escapeChar = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
