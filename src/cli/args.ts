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
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true }) as ParsedArgs;
  } catch (error) {
    throw new UsageError(explain(spec, error as Error & { code?: string }));
  }
  if (parsed.values.help) return parsed;
  if (parsed.positionals.length > spec.maxPositionals) {
    const extra = parsed.positionals[spec.maxPositionals];
    throw new UsageError(
      `unexpected argument "${extra}". Usage: ${spec.usage}${extra?.startsWith("-") ? "" : " (quote a task that has spaces)"}`,
    );
  }
  for (const [name, flag] of Object.entries(spec.flags)) {
    const value = parsed.values[name];
    if (typeof value !== "string") continue;
    if (flag.choices && !flag.choices.includes(value)) {
      const near = nearest(value, flag.choices);
      throw new UsageError(
        `--${name} takes ${flag.choices.join(", ")}; got "${value}"${near ? ` (did you mean ${near}?)` : ""}.`,
      );
    }
    if (flag.number) {
      const n = Number(value);
      const ok =
        value.trim() !== "" &&
        Number.isFinite(n) &&
        n > 0 &&
        (flag.number !== "integer" || Number.isInteger(n));
      if (!ok) {
        throw new UsageError(
          `--${name} takes ${flag.number === "integer" ? "a whole number >= 1" : "a number > 0"}; got "${value}".`,
        );
      }
    }
  }
  return parsed;
}

function explain(spec: CommandSpec, error: Error & { code?: string }): string {
  const flag = /'(-{1,2}[^' ]+)/.exec(error.message)?.[1];
  const valid = Object.keys(spec.flags).map((n) => `--${n}`);
  if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && flag) {
    const near = nearest(flag, [...valid, "--help"]);
    return `unknown flag ${flag} for delve ${spec.name}${near ? `; did you mean ${near}` : ""}. Run delve ${spec.name} --help.`;
  }
  if (error.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && flag) {
    const name = flag.replace(/^-+/, "");
    const known = spec.flags[name] ?? Object.values(spec.flags).find((f) => f.short === name);
    if (known?.type === "string")
      return `${flag} needs a value: ${flag} ${known.value ?? "VALUE"}.`;
    return `${flag} takes no value.`;
  }
  return `${error.message.replace(/\. To specify.*$/s, "")}. Run delve ${spec.name} --help.`;
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
