// The slash commands of the interactive session: names, arguments and help in one table, so
// /help, completion and "did you mean" never disagree.

import { nearestName } from "../errors/nearest-name.js";

/** One slash command. */
export interface SlashCommand {
  name: string;
  /** Its argument, as /help shows it. */
  args?: string;
  help: string;
}

/** Every slash command, in the order /help lists them. */
export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: "help", help: "commands and keys" },
  { name: "clear", help: "start a new thread" },
  { name: "compact", help: "summarize the conversation now" },
  { name: "model", args: "provider:model", help: "switch the model" },
  { name: "approval", args: "ask|edits|yolo", help: "switch the approval mode" },
  { name: "cost", help: "tokens and USD per model and subagent" },
  { name: "context", help: "what fills the context window" },
  { name: "tools", help: "the tool surface, hidden tools and why" },
  { name: "threads", args: "[N|ID]", help: "list threads; switch to one" },
  { name: "rewind", args: "[N] [--force]", help: "go back to an earlier turn" },
  { name: "diff", help: "everything this thread changed" },
  { name: "quit", help: "leave (the thread is kept)" },
];

/** The keys of the session, as /help shows them. */
export const KEYS: ReadonlyArray<[string, string]> = [
  ["Enter", "send the task or follow-up"],
  ["Alt-Enter", "a new line in the prompt (also Ctrl-J, or \\ then Enter)"],
  ["Up / Down", "earlier prompts of this workspace"],
  ["Tab", "complete a slash command"],
  ["Esc", "interrupt the current turn (the thread is kept)"],
  ["Ctrl-C twice", "exit"],
  ["Ctrl-O", "every folded tool result in full (again: fold)"],
  ["y n e a", "approve, reject, edit in $EDITOR, always allow"],
];

/** A typed line read as a command: its name and the rest. */
export function parseSlash(line: string): { name: string; arg: string } | undefined {
  const m = /^\/(\S*)\s*(.*)$/s.exec(line.trim());
  return m ? { name: m[1]!.toLowerCase(), arg: m[2]!.trim() } : undefined;
}

/** The commands a partly typed `/na` may become (all of them for a bare `/`). */
export function completions(input: string): SlashCommand[] {
  if (!input.startsWith("/") || /\s/.test(input)) return [];
  const typed = input.slice(1).toLowerCase();
  return SLASH_COMMANDS.filter((c) => c.name.startsWith(typed));
}

/** What Tab turns `input` into: the longest prefix every match shares (a full name + space). */
export function complete(input: string): string {
  const matches = completions(input);
  if (matches.length === 0) return input;
  if (matches.length === 1) return `/${matches[0]!.name}${matches[0]!.args ? " " : ""}`;
  let prefix = matches[0]!.name;
  for (const m of matches) while (!m.name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return `/${prefix}`.length > input.length ? `/${prefix}` : input;
}

/**
 * The command named `name`, or undefined and the closest one for "did you mean": the first
 * command it begins, else the nearest by spelling when most of its letters are in it (a
 * typo such as `/hlep`; nothing for `/foo`).
 */
export function findCommand(name: string): { command?: SlashCommand; near?: string } {
  const command = SLASH_COMMANDS.find((c) => c.name === name);
  if (command) return { command };
  if (!name) return {};
  const begun = completions(`/${name}`)[0];
  if (begun) return { near: begun.name };
  const near = nearestName(
    name,
    SLASH_COMMANDS.map((c) => c.name),
  );
  return near && sharedLetters(name, near) * 3 >= name.length * 2 ? { near } : {};
}

// How many of `a`'s letters `b` has (each letter of `b` counted once).
function sharedLetters(a: string, b: string): number {
  const left = [...b];
  let n = 0;
  for (const ch of a) {
    const i = left.indexOf(ch);
    if (i >= 0) {
      left.splice(i, 1);
      n++;
    }
  }
  return n;
}
