// Starts the interactive session: the controller over the engine, drawn by Ink.
import { createElement } from "react";
import type { SessionOptions } from "../run/engine.js";
import { App } from "./app.js";
import { InteractiveController } from "./controller.js";

/** The terminal streams of a session (process.stdin / stdout by default). */
export interface InteractiveTerminal {
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs the interactive session on `session`'s thread until /quit or Ctrl-C twice; prints the
 * thread id and how to resume it on the way out (also when the process dies another way).
 */
export async function startInteractive(
  session: SessionOptions,
  terminal: InteractiveTerminal = {},
): Promise<number> {
  const stdin = terminal.stdin ?? process.stdin;
  const stdout = terminal.stdout ?? process.stdout;
  const env = terminal.env ?? session.env ?? process.env;
  const color = Boolean(stdout.isTTY) && !env.NO_COLOR;
  // Bracketed paste: the terminal marks a paste, so its newlines stay in the prompt.
  const paste = (on: boolean) => {
    if (stdout.isTTY) stdout.write(on ? "\u001b[?2004h" : "\u001b[?2004l");
  };
  const suspend = <T>(run: () => T): T => {
    stdin.setRawMode?.(false);
    paste(false);
    try {
      return run();
    } finally {
      paste(true);
      stdin.setRawMode?.(true);
    }
  };
  const controller = await InteractiveController.open({ session, suspend });
  let printed = false;
  const hint = () => {
    if (printed) return;
    paste(false);
    printed = true;
    const id = controller.state.threadId;
    stdout.write(`\nthread ${id}\nresume it: delve -c\n       or: delve --thread ${id}\n`);
  };
  process.once("exit", hint);
  const { render } = await import("ink");
  const ink = render(createElement(App, { controller, color }), {
    stdin,
    stdout,
    exitOnCtrlC: false,
    patchConsole: true,
  });
  paste(true);
  try {
    await ink.waitUntilExit();
  } finally {
    paste(false);
    await controller.close().catch(() => {});
    hint();
    process.removeListener("exit", hint);
  }
  return 0;
}
