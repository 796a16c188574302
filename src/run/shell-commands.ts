import { parse } from "shell-quote";

/**
 * Splits a shell line into the commands it runs, for the approval rules. Two views:
 * `parseShellLine` is faithful (what an allow rule may trust; anything it cannot represent
 * exactly is a hazard), `denyCandidates` is eager (every word list that might run, with
 * wrappers, `sh -c`, `eval`, `find -exec` and substitutions unpacked, for deny and ask rules).
 */

/** One simple command of a shell line: its words (quotes removed) and what makes it unsafe. */
export interface ShellCommand {
  words: string[];
  /** Why an allow rule cannot vouch for this command; empty when it can. */
  hazards: string[];
  /** Files redirected to or from (`> out.txt`, `< in.txt`). */
  redirects: string[];
}

/** A parsed line: its commands and the hazards of the line as a whole. */
export interface ParsedShellLine {
  commands: ShellCommand[];
  hazards: string[];
  /** True when the line hides code the rules cannot read (expansions, code fed to a shell). */
  opaque: boolean;
}

type Token = string | { op: string; pattern?: string; name?: string } | { comment: string };

const SEPARATORS = new Set([";", "&&", "||", "|", "|&", "&", ";;", ";&", ";;&", "(", ")"]);
const REDIRECTS = new Set([">", ">>", "<", ">&", "<&", ">|", "&>", "&>>", "<>"]);
const HEREDOCS = new Set(["<<", "<<-", "<<<"]);
const PROCESS_SUBSTITUTION = new Set(["<(", ">("]);
const KEYWORDS = new Set([
  "{",
  "}",
  "!",
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "for",
  "case",
  "esac",
  "select",
  "function",
  "[[",
  "]]",
  "time",
  "coproc",
]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash", "fish", "busybox"]);
// Commands that run another command given in their arguments: an allow rule never vouches
// for them, and deny rules see the inner command too.
const RUNNERS = new Set([
  "env",
  "eval",
  "exec",
  "xargs",
  "sudo",
  "doas",
  "su",
  "nice",
  "nohup",
  "timeout",
  "command",
  "builtin",
  "stdbuf",
  "ionice",
  "setsid",
  "chroot",
  "unshare",
  "nsenter",
  "watch",
  "busybox",
  "flock",
  "source",
  ".",
  "trap",
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
// Control and format characters (zero-width spaces, bidi marks) and any whitespace other
// than space and tab: the shell and a reader may split such a line differently.
const INVISIBLE = /[^\P{Cc}\t]|[\p{Cf}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/u;

// `{a,b}` and `{1..3}` unquoted: bash turns one word into several (`{rm,-rf,/}` is `rm -rf /`).
const BRACE_EXPANSION = /^\{[^\s{}'"]*(,|\.\.)[^\s{}'"]*\}/;

/** Hazards of the raw text that `shell-quote` would hide (it drops newlines and `$` text). */
function scanLine(line: string): { hazards: string[]; expands: boolean } {
  const hazards = new Set<string>();
  if (/[\r\n]/.test(line)) hazards.add("a newline or line continuation joins several lines");
  else if (INVISIBLE.test(line)) hazards.add("invisible or control characters");
  let quote: "'" | '"' | undefined;
  let expands = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      continue;
    }
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "$") {
      expands = true;
      hazards.add("a $ expansion (variable or command substitution)");
    } else if (c === "`") hazards.add("a backtick command substitution");
    else if (c === "{" && !quote && BRACE_EXPANSION.test(line.slice(i))) {
      expands = true;
      hazards.add("a brace expansion");
    } else if (c === '"') quote = quote ? undefined : '"';
    else if (c === "'" && !quote) quote = "'";
  }
  if (quote) hazards.add("unbalanced quotes");
  return { hazards: [...hazards], expands };
}

/** A word as a rule sees it: bare when plain, else single-quoted (so spaces cannot fake words). */
export function showWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./~^-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

function tokens(line: string): Token[] {
  return parse(line, (name) => ({ op: "$var", name })) as Token[];
}

/** The faithful view: each command with the hazards that stop an allow rule from vouching. */
export function parseShellLine(line: string): ParsedShellLine {
  const scanned = scanLine(line);
  const hazards = [...scanned.hazards];
  let opaque = scanned.expands;
  const commands: ShellCommand[] = [];
  let current: ShellCommand = { words: [], hazards: [], redirects: [] };
  const flush = () => {
    if (current.words.length > 0 || current.redirects.length > 0) commands.push(current);
    current = { words: [], hazards: [], redirects: [] };
  };
  let list: Token[];
  try {
    list = tokens(line);
  } catch {
    return {
      commands: [],
      hazards: [...hazards, "the shell parser refused the line"],
      opaque: true,
    };
  }
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!;
    if (typeof t === "string") {
      current.words.push(t);
      continue;
    }
    if ("comment" in t) {
      hazards.push("a # comment");
      continue;
    }
    const op = t.op;
    if (op === "glob") {
      current.hazards.push(
        current.words.length === 0
          ? "a glob in the command word"
          : "a glob argument expands to file names the rule cannot see",
      );
      current.words.push(t.pattern ?? "*");
    } else if (op === "$var") {
      current.hazards.push("a $ expansion");
      current.words.push(`$${t.name ?? ""}`);
    } else if (SEPARATORS.has(op)) {
      flush();
    } else if (REDIRECTS.has(op)) {
      const target = list[i + 1];
      if (typeof target === "string") {
        i++;
        // `2>&1` duplicates a descriptor: no file involved.
        if (!((op === ">&" || op === "<&") && /^(\d+|-)$/.test(target)))
          current.redirects.push(target);
      } else current.hazards.push(`a redirection "${op}" without a plain file name`);
    } else if (HEREDOCS.has(op)) {
      hazards.push("a here-document or here-string");
    } else if (PROCESS_SUBSTITUTION.has(op)) {
      hazards.push("a process substitution");
      flush();
    } else hazards.push(`the shell operator "${op}"`);
  }
  flush();
  for (const command of commands) {
    const inner = commandHazards(command.words);
    command.hazards.push(...inner.hazards);
    if (inner.opaque) opaque = true;
  }
  return { commands, hazards, opaque };
}

/** What in a command's own words stops an allow rule: prefixes, runners, `-exec`. */
function commandHazards(words: string[]): { hazards: string[]; opaque: boolean } {
  const hazards: string[] = [];
  let opaque = false;
  const head = words[0];
  if (head === undefined) return { hazards: ["a redirection without a command"], opaque };
  if (ASSIGNMENT.test(head)) hazards.push("an environment assignment before the command");
  const name = basename(head);
  if (KEYWORDS.has(head)) hazards.push(`the shell keyword "${head}"`);
  if (head.includes("/")) hazards.push("a command given by path");
  if (RUNNERS.has(name)) {
    hazards.push(`"${name}" runs another command`);
    if (name === "eval" || name === "source" || name === ".") opaque = true;
  }
  if (SHELLS.has(name)) {
    hazards.push(`"${name}" runs shell code`);
    if (!words.slice(1).some((w) => /^-[a-z]*c[a-z]*$/.test(w))) opaque = true;
  }
  if (words.some((w) => /^-(exec|execdir|ok|okdir|delete)$/.test(w)) && name === "find")
    hazards.push("find -exec or -delete runs or deletes");
  if (/[\p{L}\p{N}]/u.test(head) && /[^\x20-\x7e]/.test(head))
    hazards.push("non-ASCII characters in the command word");
  return { hazards, opaque };
}

function basename(word: string): string {
  const slash = word.lastIndexOf("/");
  return slash >= 0 ? word.slice(slash + 1) : word;
}

// Options of the wrappers that take a value, so `timeout -s KILL 5 rm` strips to `rm`.
const VALUED_OPTIONS: Record<string, RegExp> = {
  sudo: /^-[ugCDhpRrTU]$/,
  doas: /^-[uC]$/,
  nice: /^-n$/,
  timeout: /^-[sk]$/,
  env: /^-[uCS]$/,
  ionice: /^-[cnp]$/,
  stdbuf: /^-[ioe]$/,
  xargs: /^-[aEeIiLlnPsd]$/,
  exec: /^-a$/,
  su: /^-[cgs]$/,
  watch: /^-[nd]$/,
};

/** The command a wrapper runs (`sudo -u x rm -rf /` → `rm -rf /`), or undefined. */
function unwrap(words: string[]): string[] | undefined {
  const head = words[0];
  if (head === undefined) return undefined;
  if (ASSIGNMENT.test(head) || KEYWORDS.has(head)) return words.slice(1);
  const name = basename(head);
  if (!RUNNERS.has(name) || name === "eval" || name === "source" || name === ".") return undefined;
  let i = 1;
  const valued = VALUED_OPTIONS[name];
  while (i < words.length) {
    const w = words[i]!;
    if (w === "--") {
      i++;
      break;
    }
    if (name === "env" && ASSIGNMENT.test(w)) i++;
    else if (w.startsWith("-") && w.length > 1) i += valued?.test(w) ? 2 : 1;
    else if (name === "nice" && /^-?\d+$/.test(w)) i++;
    else break;
  }
  // Their first operand is not the command: timeout's duration, flock's lock file.
  if ((name === "timeout" || name === "flock") && i < words.length) i++;
  return i < words.length ? words.slice(i) : undefined;
}

/** The words with one level of `{a,b}` lists expanded, as bash would; undefined when none. */
function expandBraces(words: string[]): string[] | undefined {
  let changed = false;
  const out = words.flatMap((word) => {
    const m = /^([^{}]*)\{([^{}]*,[^{}]*)\}(.*)$/s.exec(word);
    if (!m) return [word];
    const options = m[2]!.split(",");
    if (options.length > 64) return [word];
    changed = true;
    return options.map((o) => `${m[1]}${o}${m[3]}`);
  });
  return changed ? out : undefined;
}

/** Code a word list hands to a shell or `eval` as text, to parse again. */
function innerCode(words: string[]): string | undefined {
  const name = basename(words[0] ?? "");
  if (name === "eval") return words.slice(1).join(" ");
  if (name === "env") {
    const split = words.findIndex((w) => w === "-S" || w === "--split-string");
    if (split > 0 && words[split + 1] !== undefined) return words[split + 1];
  }
  if (SHELLS.has(name) || name === "su") {
    const c = words.findIndex((w, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(w));
    if (c > 0 && words[c + 1] !== undefined) return words[c + 1];
  }
  return undefined;
}

/** The commands `find -exec CMD ... ;` runs. */
function findExec(words: string[]): string[] | undefined {
  if (basename(words[0] ?? "") !== "find") return undefined;
  const at = words.findIndex((w) => /^-(exec|execdir|ok|okdir)$/.test(w));
  if (at < 0) return undefined;
  const rest = words.slice(at + 1);
  const end = rest.findIndex((w) => w === ";" || w === "+");
  return end >= 0 ? rest.slice(0, end) : rest;
}

/**
 * The eager view: every word list the line might run, for deny and ask rules. Newlines
 * and line continuations are resolved as the shell would, `$(...)` and backticks, `sh -c`,
 * `eval`, `find -exec` and known wrappers (`sudo`, `env`, `timeout`, `nice`, `xargs`,
 * `command`, ...) are unpacked, and a command given by path is also tried by its base name.
 */
export function denyCandidates(line: string, depth = 0): string[][] {
  const normalized = line.replace(/\\\r?\n/g, "").replace(/[\r\n]+/g, " ; ");
  const out: string[][] = [];
  const add = (words: string[], level: number) => {
    if (words.length === 0 || level > 8) return;
    out.push(words);
    const expanded = expandBraces(words);
    if (expanded) add(expanded, level + 1);
    const head = words[0]!;
    if (head.includes("/")) out.push([basename(head), ...words.slice(1)]);
    const code = innerCode(words);
    if (code !== undefined && depth < 4) out.push(...denyCandidates(code, depth + 1));
    const exec = findExec(words);
    if (exec) add(exec, level + 1);
    const inner = unwrap(words);
    if (inner) add(inner, level + 1);
  };
  // Backticks span words, so they are read from the text before it is split.
  if (depth < 4) {
    for (const m of normalized.matchAll(/`([^`]*)`?/g))
      out.push(...denyCandidates(m[1]!, depth + 1));
  }
  let list: Token[];
  try {
    list = tokens(normalized);
  } catch {
    return [...out, normalized.split(/\s+/).filter(Boolean)];
  }
  let current: string[] = [];
  for (const t of list) {
    if (typeof t === "string") current.push(t);
    // shell-quote takes `a#` for a comment where bash does not: read comments as code too.
    else if ("comment" in t) {
      if (depth < 4) out.push(...denyCandidates(t.comment, depth + 1));
    } else if (t.op === "glob") current.push(t.pattern ?? "*");
    else if (t.op === "$var") current.push(`$${t.name ?? ""}`);
    else if (REDIRECTS.has(t.op) || HEREDOCS.has(t.op)) current.push(t.op);
    else {
      add(current, 0);
      current = [];
    }
  }
  add(current, 0);
  return out;
}
