import { parseArgs } from "node:util";
import { nearestName } from "../errors/nearest-name.js";

/** One flag of a command: `util.parseArgs` options plus help text and allowed values. */
export interface FlagSpec {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
  /** The value's name in help (`--model provider:model`). */
  value?: string;
  help: string;
  /** The only values allowed (checked after parsing). */
  choices?: readonly string[];
  /** The value must be a number > 0 (whole with `integer`). */
  number?: "positive" | "integer";
}

/** A command of `delve`: how it is called and its flags. */
export interface CommandSpec {
  name: string;
  usage: string;
  summary: string;
  flags: Record<string, FlagSpec>;
  /** How many positionals it takes at most. */
  maxPositionals: number;
}

/** Parsed arguments of one command. */
export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** A usage mistake: the message names the flag and, when there is one, the nearest valid one. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Parses `args` for `spec` with `util.parseArgs`; throws `UsageError` on any mistake. */
export function parseCommand(spec: CommandSpec, args: string[]): ParsedArgs {
  const options: Record<
    string,
    { type: "string" | "boolean"; short?: string; multiple?: boolean }
  > = { help: { type: "boolean", short: "h" } };
  for (const [name, flag] of Object.entries(spec.flags)) {
    options[name] = {
      type: flag.type,
      ...(flag.short ? { short: flag.short } : {}),
      ...(flag.multiple ? { multiple: true } : {}),
    };
  }
  let parsed: ParsedArgs & { tokens: Token[] };
  try {
    parsed = parseArgs({
      args,
      options,
      allowPositionals: true,
      strict: true,
      tokens: true,
    }) as ParsedArgs & { tokens: Token[] };
  } catch (error) {
    throw new UsageError(explain(spec, args, error as Error & { code?: string }));
  }
  const { tokens, ...result } = parsed;
  if (result.values.help) return result;
  checkTokens(spec, tokens);
  if (parsed.positionals.length > spec.maxPositionals) {
    const extra = parsed.positionals[spec.maxPositionals];
    throw new UsageError(
      `unexpected argument "${shown(extra ?? "")}". Usage: ${spec.usage}${extra?.startsWith("-") ? "" : " (quote a task that has spaces)"}`,
    );
  }
  for (const [name, flag] of Object.entries(spec.flags)) {
    const value = parsed.values[name];
    if (typeof value !== "string") continue;
    if (flag.choices && !flag.choices.includes(value)) {
      const near = nearest(value, flag.choices);
      throw new UsageError(
        `--${name} takes ${flag.choices.join(", ")}; got "${shown(value)}"${near ? ` (did you mean ${near}?)` : ""}.`,
      );
    }
    if (flag.number) checkNumber(name, flag.number, value);
  }
  return result;
}

/** One token of `util.parseArgs` (`tokens: true`). */
type Token =
  | { kind: "option"; name: string; rawName: string; value?: string; index: number }
  | { kind: "positional"; value: string; index: number }
  | { kind: "option-terminator"; index: number };

// A flag given twice is ambiguous (which --model wins?); a control character (NUL, ESC...) in
// a value or argument is never meant and would reach file paths, SQL and the terminal.
function checkTokens(spec: CommandSpec, tokens: Token[]): void {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind === "option-terminator") continue;
    if (token.kind === "option") {
      const flag = spec.flags[token.name];
      if (flag?.type === "string" && !flag.multiple) {
        if (seen.has(token.name)) {
          throw new UsageError(`--${token.name} is given twice; give it once.`);
        }
        seen.add(token.name);
      }
    }
    const value = token.value;
    if (value !== undefined && CONTROL.test(value)) {
      const where = token.kind === "option" ? `--${token.name}` : `argument "${shown(value)}"`;
      throw new UsageError(
        `${where} contains a control character (${JSON.stringify(CONTROL.exec(value)?.[0])}); remove it.`,
      );
    }
  }
}

// C0 controls and DEL, but tab, newline and carriage return (a --reason or a task may have them).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

// Plain decimals only: Number() would also take "0x10", "1e3" and " 5 ".
const DECIMAL = { integer: /^[0-9]+$/, positive: /^[0-9]+(\.[0-9]+)?$/ };

function checkNumber(name: string, kind: "positive" | "integer", value: string): void {
  const n = Number(value);
  if (!DECIMAL[kind].test(value) || !Number.isFinite(n) || n <= 0) {
    throw new UsageError(
      `--${name} takes ${kind === "integer" ? "a whole number >= 1" : "a number > 0"}; got "${shown(value)}".`,
    );
  }
}

/** A value as echoed in a message: at most 60 characters, so a huge argument stays readable. */
function shown(value: string): string {
  return value.length > 60 ? `${value.slice(0, 57)}...` : value;
}

function explain(spec: CommandSpec, args: string[], error: Error & { code?: string }): string {
  // parseArgs quotes the flag as '--name', '-x' or '-c, --continue': keep the long form.
  const flag = /'(-{1,2}[^']+)'/.exec(error.message)?.[1]?.split(", ").at(-1)?.split(" ")[0];
  const valid = Object.keys(spec.flags).map((n) => `--${n}`);
  if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && flag) {
    const near = nearest(shown(flag), [...valid, "--help"]);
    // "-fix the test" as a task reads as flags -f -i -x: say how to pass it.
    const raw = args.find((a) => a.startsWith(flag) && !a.startsWith("--"));
    const task =
      raw && spec.maxPositionals > 0
        ? ` An argument that starts with - goes after --: delve ${spec.name} -- "${shown(raw)}".`
        : "";
    return `unknown flag ${shown(flag)} for delve ${spec.name}${near ? `; did you mean ${near}` : ""}.${task} Run delve ${spec.name} --help.`;
  }
  if (error.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && flag) {
    const name = flag.replace(/^-+/, "");
    const key = spec.flags[name]
      ? name
      : Object.keys(spec.flags).find((k) => spec.flags[k]?.short === name);
    const known = key ? spec.flags[key] : undefined;
    // `--max-turns -3`: parseArgs reads "-3" as a flag; the mistake is the number.
    const next = args[args.indexOf(flag) + 1];
    if (key && known?.number && next !== undefined) checkNumber(key, known.number, next);
    if (known?.type === "string")
      return `${flag} needs a value: ${flag} ${known.value ?? "VALUE"}.`;
    return `${flag} takes no value.`;
  }
  return `${shown(error.message.replace(/\. To specify.*$/s, ""))}. Run delve ${spec.name} --help.`;
}

/** The candidate closest to `word`, for "did you mean" (always one: the nearest valid one). */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  return nearestName(word, candidates);
}

/** The help text of one command. */
export function commandHelp(spec: CommandSpec): string {
  const lines = [`Usage: ${spec.usage}`, "", spec.summary, ""];
  const entries = Object.entries(spec.flags);
  if (entries.length) lines.push("Options:");
  for (const [name, flag] of entries) {
    const left = `${flag.short ? `-${flag.short}, ` : "    "}--${name}${flag.value ? ` ${flag.value}` : ""}`;
    lines.push(`  ${left.padEnd(30)} ${flag.help}`);
  }
  lines.push(`  ${"-h, --help".padEnd(30)} Show this help.`);
  return lines.join("\n");
}
