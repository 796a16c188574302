#!/usr/bin/env node
// The `delve` command. `--version` and `--help` load no agent code: each command's module is
// imported only when it runs.
import { readFileSync } from "node:fs";
import { ConfigurationError } from "../errors/configuration-error.js";
import { MissingProviderError } from "../errors/missing-provider-error.js";
import { commandHelp, nearest, parseCommand, UsageError } from "./args.js";
import { COMMANDS, INTERACTIVE, mainHelp } from "./commands.js";

function version(): string {
  const pkg = new URL("../../package.json", import.meta.url);
  return JSON.parse(readFileSync(pkg, "utf8")).version;
}

type Handler = (args: import("./args.js").ParsedArgs) => Promise<number>;

const HANDLERS: Record<string, () => Promise<Handler>> = {
  run: async () => (await import("./run-command.js")).runCommand,
  approve: async () => (await import("./run-command.js")).approveCommand,
  answer: async () => (await import("./answer-command.js")).answerCommand,
  threads: async () => (await import("./threads-command.js")).threadsCommand,
  pending: async () => (await import("./threads-command.js")).pendingCommand,
  context: async () => (await import("./session-ops-command.js")).contextCommand,
  ui: async () => (await import("./ui-command.js")).uiCommand,
  interactive: async () => (await import("./interactive-command.js")).interactiveCommand,
  doctor: async () => (await import("./doctor-command.js")).doctorCommand,
  lint: async () => (await import("./module-commands.js")).lintCommand,
  surface: async () => (await import("./module-commands.js")).surfaceCommand,
  eval: async () => (await import("./eval-command.js")).evalCommand,
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // `delve` in a terminal, or only flags (`delve -c`, `delve --thread ID`): the interactive session.
  const terminal = process.stdin.isTTY && process.stdout.isTTY;
  if ((!command && terminal) || (command?.startsWith("-") && !FLAGS_OF_MAIN.has(command))) {
    return runCommand(INTERACTIVE, argv);
  }
  // Its own name too, so the "Run delve interactive --help" of a usage error works.
  if (command === INTERACTIVE.name) return runCommand(INTERACTIVE, rest);
  if (!command || command === "--help" || command === "-h" || command === "help") {
    console.log(mainHelp());
    return 0;
  }
  if (command === "--version" || command === "-v") {
    console.log(version());
    return 0;
  }
  const spec = COMMANDS.find((c) => c.name === command);
  if (!spec) {
    const near = nearest(
      command,
      COMMANDS.map((c) => c.name),
    );
    console.error(
      `delve: unknown command "${command}"${near ? `; did you mean ${near}?` : ""}. Run delve --help.`,
    );
    return 2;
  }
  return runCommand(spec, rest);
}

const FLAGS_OF_MAIN = new Set(["--help", "-h", "--version", "-v"]);

async function runCommand(spec: import("./args.js").CommandSpec, rest: string[]): Promise<number> {
  try {
    const args = parseCommand(spec, rest);
    if (args.values.help) {
      console.log(commandHelp(spec));
      return 0;
    }
    return await (await HANDLERS[spec.name]!())(args);
  } catch (error) {
    return report(spec.name, error);
  }
}

// Usage and configuration mistakes are exit 2 with the message alone; anything else is 1.
function report(command: string, error: unknown): number {
  const e = error as Error & { code?: string };
  const message = e instanceof Error ? e.message : String(error);
  const usage =
    error instanceof UsageError ||
    ConfigurationError.isInstance(error) ||
    MissingProviderError.isInstance(error) ||
    e?.name === "UnknownThreadError" ||
    e?.name === "NotAnEvalReportError";
  console.error(`delve ${command}: ${message}`);
  if (!usage && process.env.DELVE_DEBUG && e?.stack) console.error(e.stack);
  return usage ? 2 : 1;
}

// Exits once stdout is flushed: a run cut off by a limit may leave a tool finishing in the
// background, which must not keep the process (or its exit code) waiting.
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    process.stdout.write("", () => process.exit(code));
  },
  (error) => {
    console.error(`delve: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
