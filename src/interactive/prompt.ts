// The prompt's text and its history, UI-free: the view maps keys to these calls and draws
// `lines()`. A prompt may hold several lines (Alt-Enter, Ctrl-J, a trailing `\` then Enter, or
// pasted newlines); Up and Down walk the workspace's earlier prompts, kept in
// .delve/prompt-history.jsonl (one JSON object a line, newest last, like Codex's history.jsonl).
import fs from "node:fs";
import path from "node:path";
import type { Line } from "./lines.js";

/** How many prompts the history file keeps (the oldest go first). */
export const HISTORY_LIMIT = 500;

/** The earlier prompts of one workspace, oldest first, persisted under its .delve/. */
export class PromptHistory {
  readonly file: string;
  #entries: string[];

  constructor(workspace: string) {
    this.file = path.join(workspace, ".delve", "prompt-history.jsonl");
    this.#entries = readEntries(this.file);
  }

  /** The prompts, oldest first. */
  get entries(): readonly string[] {
    return this.#entries;
  }

  /** Adds a submitted prompt (not a repeat of the last one) and writes the file. */
  add(text: string): void {
    if (!text.trim() || this.#entries.at(-1) === text) return;
    this.#entries.push(text);
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      if (this.#entries.length > HISTORY_LIMIT) {
        this.#entries = this.#entries.slice(-HISTORY_LIMIT);
        fs.writeFileSync(this.file, this.#entries.map(lineOf).join(""));
      } else fs.appendFileSync(this.file, lineOf(text));
    } catch {
      // A read-only workspace keeps the history of this session only.
    }
  }
}

const lineOf = (text: string) => `${JSON.stringify({ text, at: new Date().toISOString() })}\n`;

function readEntries(file: string): string[] {
  let raw: string;
  try {
    raw = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const line of raw.split("\n")) {
    try {
      const text = JSON.parse(line)?.text;
      if (typeof text === "string") out.push(text);
    } catch {
      // A torn last line (a crash while writing) is skipped.
    }
  }
  return out.slice(-HISTORY_LIMIT);
}

/** The text being typed at the prompt; its cursor is always at the end. */
export class PromptEditor {
  text = "";
  // Up walks back from the newest prompt; `draft` is what was typed before the first Up.
  #back = 0;
  #draft = "";

  constructor(readonly history: PromptHistory) {}

  /** Typed or pasted text: newlines (CR, LF, CRLF) kept, tabs as spaces, control bytes dropped. */
  insert(text: string): void {
    this.text += cleanText(text);
    this.#back = 0;
  }

  /** Starts a new line of the same prompt. */
  newline(): void {
    this.insert("\n");
  }

  backspace(): void {
    this.text = this.text.slice(0, -1);
  }

  clear(): void {
    this.text = "";
    this.#back = 0;
  }

  /** Enter: a trailing `\` continues on a new line (undefined); else the prompt, recorded. */
  enter(): string | undefined {
    if (this.text.endsWith("\\")) {
      this.text = `${this.text.slice(0, -1)}\n`;
      return undefined;
    }
    const text = this.text;
    this.clear();
    if (text.trim()) this.history.add(text);
    return text;
  }

  /** Up: the prompt before the one shown (the typed draft is kept for Down). */
  up(): void {
    const entries = this.history.entries;
    if (this.#back >= entries.length) return;
    if (this.#back === 0) this.#draft = this.text;
    this.#back++;
    this.text = entries[entries.length - this.#back] ?? "";
  }

  /** Down: the next newer prompt, and past the newest the draft again. */
  down(): void {
    if (this.#back === 0) return;
    this.#back--;
    const entries = this.history.entries;
    this.text = this.#back === 0 ? this.#draft : (entries[entries.length - this.#back] ?? "");
  }

  /** The prompt as lines: `› ` before the first, an indent before the rest, the cursor last. */
  lines(tone: Line["tone"]): Line[] {
    return this.text.split("\n").map((t, i, all) => ({
      text: `${i === 0 ? "›" : " "} ${t}${i === all.length - 1 ? "▌" : ""}`,
      tone,
    }));
  }
}

/** Text as the prompt keeps it: newlines normalized to LF, tabs as spaces, no control bytes. */
export function cleanText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, "\n")
      .replace(/\t/g, "  ")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, "")
  );
}
