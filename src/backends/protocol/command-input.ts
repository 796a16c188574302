/**
 * The largest shell command `execute` passes on, in UTF-8 bytes. Linux refuses a single
 * argument over 128 KiB (`E2BIG`), and a command travels as one argument; a bigger script
 * belongs in a file the command runs.
 */
export const MAX_COMMAND_BYTES = 100_000;

/**
 * Why a shell command cannot be run as given, or undefined when it can: a NUL byte (no
 * shell argument can hold one) or more than `MAX_COMMAND_BYTES`. The text is model-facing.
 *
 * @example
 * commandProblem("echo a\0b") // "the command contains a NUL byte (\\0), which no shell command can hold"
 */
export function commandProblem(command: string): string | undefined {
  if (command.includes("\0")) {
    return "the command contains a NUL byte (\\0), which no shell command can hold";
  }
  const bytes = Buffer.byteLength(command);
  if (bytes > MAX_COMMAND_BYTES) {
    return `the command is ${Math.ceil(bytes / 1000)} KB, over the ${MAX_COMMAND_BYTES / 1000} KB limit: write the script to a file and run that file`;
  }
  return undefined;
}

/**
 * {@link commandProblem} as a backend error: `unsupported` for a NUL byte, `too_large` for
 * a command over `MAX_COMMAND_BYTES`; undefined when the command can run.
 */
export function commandInputError(
  command: string,
): { code: "unsupported" | "too_large"; message: string } | undefined {
  const message = commandProblem(command);
  if (!message) return undefined;
  return { code: command.includes("\0") ? "unsupported" : "too_large", message };
}
