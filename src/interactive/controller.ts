import {
  openSession,
  type RunLimits,
  type RunSession,
  type SessionOptions,
} from "../run/engine.js";
import type { PendingCall, RunDecision, RunEvent, RunQuestion } from "../run/events.js";
import { approvalChoices, approvalPreview } from "./approval-view.js";
import { decisionFor } from "./decision.js";
import { type Entry, type Line, shortArgs } from "./lines.js";
import { PromptHistory } from "./prompt.js";
import { answerOf, questionLines } from "./question-view.js";
import { nextSessionOptions } from "./session-options.js";
import type { SlashHost } from "./slash-host.js";
import { runSlash } from "./slash-run.js";
import { statusOf, threadHeader } from "./thread-header.js";
import { TranscriptFolder } from "./transcript.js";
import type { Question, ViewState } from "./view-state.js";

export type { Question, ViewState };

/** What opens the interactive session: the first thread's options and the terminal hooks. */
export interface ControllerOptions {
  session: SessionOptions;
  /** Hands the terminal to a child (the editor) and takes it back. */
  suspend: <T>(run: () => T) => T;
}

type Answer = (key: "y" | "n" | "e" | "a", reason?: string) => Promise<void> | void;

/**
 * The interactive session's logic, UI-free: it runs every task and decision through the
 * engine's RunSession and keeps the view state. Keys and lines come in, state goes out.
 */
export class InteractiveController implements SlashHost {
  state: ViewState;
  session: RunSession;
  readonly options: ControllerOptions;
  /** The workspace's earlier prompts (Up and Down at the prompt). */
  readonly history: PromptHistory;
  #folder!: TranscriptFolder;
  #listeners = new Set<() => void>();
  #abort: AbortController | undefined;
  #answer: Answer | undefined;
  #ctrlCAt = 0;
  #nextId = 0;
  #reopen = false;
  #queue: string[] = [];
  // While one event is folded, its lines wait here: they reach the screen in one update with
  // the live text they replace (no frame shows both).
  #held: Entry[] | undefined;
  // While a session (re)opens, a typed line waits: it must reach the new session.
  #opening = 0;

  private constructor(session: RunSession, options: ControllerOptions) {
    this.session = session;
    this.options = options;
    this.history = new PromptHistory(session.workspace);
    this.state = {
      entries: [],
      busy: false,
      startedAt: 0,
      status: statusOf(session),
      threadId: session.thread.id,
    };
  }

  /** Opens the first thread (new, `-c` or `--thread`); throws what openSession throws. */
  static async open(options: ControllerOptions): Promise<InteractiveController> {
    const early: string[] = [];
    const session = await openSession({ ...options.session, notice: (l) => early.push(l) });
    const c = new InteractiveController(session, options);
    for (const line of early) c.write([{ text: line, tone: "dim" }]);
    await c.#attach();
    return c;
  }

  /** Subscribes to state changes (useSyncExternalStore). */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The current state (useSyncExternalStore). */
  snapshot = (): ViewState => this.state;

  /** Appends lines to the transcript. */
  write(lines: Line[]): void {
    if (!lines.length) return;
    const entry = { id: this.#nextId++, lines };
    if (this.#held) this.#held.push(entry);
    else this.#set({ entries: [...this.state.entries, entry] });
  }

  #set(patch: Partial<ViewState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.#listeners) l();
  }

  // Shows the thread (its id first, so a crash still leaves the resume hint) and any pause.
  async #attach(): Promise<void> {
    this.#folder = new TranscriptFolder((lines) => this.write(lines), statusOf(this.session));
    const totals = await this.session.totals();
    Object.assign(this.#folder.status, {
      input: totals.usage.input,
      output: totals.usage.output,
      cost: totals.cost_usd,
    });
    this.#set({ threadId: this.session.thread.id, status: { ...this.#folder.status } });
    this.write(await threadHeader(this.session));
    if (this.session.resumed)
      this.#paused(await this.session.pending(), await this.session.questions());
  }

  /** A line typed at the prompt: a task, a follow-up or a slash command. */
  async submit(line: string): Promise<void> {
    const text = line.trim();
    if (!text) return;
    // Typed ahead while a turn runs or a question waits: it runs next, in order.
    if (this.state.busy || this.state.question || this.#opening) {
      this.#queue.push(text);
      this.notice(`queued: ${text.replace(/\n/g, " ⏎ ")}`);
      return;
    }
    if (text.startsWith("/")) {
      await runSlash(this, text);
      if (!this.state.question && !this.state.busy) await this.#next();
      return;
    }
    this.write(
      text.split("\n").map((t, i) => ({ text: `${i ? " " : "›"} ${t}`, tone: "user", bold: true })),
    );
    await this.run((limits) => this.session.send(text, limits));
  }

  /**
   * Runs one turn's events to the end (Esc aborts the limits' `signal`; the model's text
   * streams in as deltas); then shows any approval.
   */
  async run(events: (limits: RunLimits) => AsyncGenerator<RunEvent>): Promise<void> {
    const abort = new AbortController();
    this.#abort = abort;
    this.#set({ busy: true, startedAt: Date.now(), notice: undefined });
    let pending: PendingCall[] = [];
    let questions: RunQuestion[] = [];
    try {
      for await (const event of events({ signal: abort.signal, textDeltas: true })) {
        this.#held = [];
        const result = this.#folder.event(event);
        const held = this.#held;
        this.#held = undefined;
        if (result?.pending) pending = result.pending;
        if (result?.questions) questions = result.questions;
        const live = this.#folder.liveLines();
        this.#set({
          ...(held.length ? { entries: [...this.state.entries, ...held] } : {}),
          live: live.length ? live : undefined,
          ...(event.type === "usage" || result ? { status: { ...this.#folder.status } } : {}),
        });
      }
      // Still busy: a line typed now must reach the reopened session.
      if (this.#reopen) {
        this.#reopen = false;
        await this.reopen({});
      }
    } catch (error) {
      this.write([{ text: `✗ ${(error as Error).message}`, tone: "error" }]);
    } finally {
      this.#abort = undefined;
      this.#held = undefined;
      this.#set({ busy: false, live: undefined });
    }
    this.#paused(pending, questions);
    if (!pending.length && !questions.length) await this.#next();
  }

  // Questions first: each answer runs on, and what still waits comes back with the result.
  #paused(pending: PendingCall[], questions: RunQuestion[]): void {
    if (questions.length) this.#askQuestion(questions[0]!);
    else if (pending.length) this.#approve(pending);
  }

  #askQuestion(q: RunQuestion): void {
    this.#set({ question: { ...questionLines(q), mode: "answer" } });
    this.#answer = async (_key, text) => {
      if (!text) return;
      this.#answer = undefined;
      this.#set({ question: undefined });
      const answer = answerOf(text, q);
      this.write([
        { text: `? ${q.question}`, tone: "dim", truncate: true },
        { text: `› ${answer.choices ? answer.choices.join(", ") : text}`, tone: "user", indent: 2 },
      ]);
      await this.run((limits) => this.session.answer(q.call_id, answer, limits));
    };
  }

  async #next(): Promise<void> {
    const line = this.#queue.shift();
    if (line === undefined) return;
    this.#set({ notice: undefined });
    await this.submit(line);
  }

  // Asks for each pending call in turn; the engine gets every decision at once.
  #approve(calls: PendingCall[]): void {
    const decisions: RunDecision[] = [];
    const ask = (i: number) => {
      const call = calls[i]!;
      const count = calls.length > 1 ? ` (${i + 1}/${calls.length})` : "";
      this.#set({
        question: {
          title: [
            {
              text: `approve ${call.tool} ${shortArgs(call.tool, call.args)}${count}?`,
              tone: "warn",
              bold: true,
              truncate: true,
            },
          ],
          body: approvalPreview(call, this.session.workspace),
          choices: approvalChoices(call),
          mode: "choose",
        },
      });
      this.#answer = async (key, reason) => {
        const decision = await this.#decision(call, key, reason);
        if (!decision) return;
        decisions.push(decision);
        if (i + 1 < calls.length) return ask(i + 1);
        this.#answer = undefined;
        this.#set({ question: undefined });
        await this.run((limits) => this.session.decide(decisions, limits));
      };
    };
    ask(0);
  }

  async #decision(
    call: PendingCall,
    key: "y" | "n" | "e" | "a",
    reason: string | undefined,
  ): Promise<RunDecision | undefined> {
    if (key === "n" && reason === undefined) {
      this.#set({ question: { ...this.state.question!, mode: "reason" } });
      return undefined;
    }
    const decided = decisionFor(call, key, reason, {
      workspace: this.session.workspace,
      env: this.options.session.env ?? process.env,
      suspend: this.options.suspend,
    });
    if ("problem" in decided) {
      this.notice(decided.problem);
      return undefined;
    }
    this.write(decided.lines);
    // The session compiled its rules when it opened: reopen it so the new rule applies next.
    if (decided.ruleAdded) this.#reopen = true;
    return decided.decision;
  }

  /** Asks a yes/no question (y runs `onYes`). */
  confirm(title: Line[], body: Line[], onYes: () => Promise<void>): void {
    this.#set({
      question: {
        title,
        body,
        choices: [{ text: "y yes · n no", tone: "accent", bold: true }],
        mode: "choose",
      },
    });
    this.#answer = async (key) => {
      if (key !== "y" && key !== "n") return;
      this.#answer = undefined;
      this.#set({ question: undefined });
      if (key === "y") await onYes();
      else this.write([{ text: "cancelled", tone: "dim" }]);
      await this.#next();
    };
  }

  /** A key pressed while a question is on screen. */
  async answer(key: "y" | "n" | "e" | "a", reason?: string): Promise<void> {
    await this.#answer?.(key, reason);
  }

  /** Enter on a typed line under a question: the reject reason, or the answer. */
  async reply(text: string): Promise<void> {
    const mode = this.state.question?.mode;
    if (mode === "reason") await this.#answer?.("n", text);
    else if (mode === "answer") await this.#answer?.("y", text);
  }

  /** Esc while typing a reason: back to the choices. */
  cancelReason(): void {
    if (this.state.question?.mode === "reason")
      this.#set({ question: { ...this.state.question, mode: "choose" } });
  }

  /** Esc: interrupts the running turn; the thread keeps everything up to it. */
  interrupt(): boolean {
    if (!this.#abort) return false;
    this.#abort.abort();
    return true;
  }

  /** Ends the session (the view unmounts, then the thread id and resume hint print). */
  quit(): void {
    this.interrupt();
    this.#set({ exiting: true });
  }

  /** Ctrl-C: the first interrupts and warns; a second within 3 s quits. */
  ctrlC(): void {
    const now = Date.now();
    if (now - this.#ctrlCAt < 3000) {
      this.quit();
      return;
    }
    this.#ctrlCAt = now;
    this.interrupt();
    this.notice("press Ctrl-C again to exit");
  }

  /** Ctrl-O: toggles expand-all (`TranscriptFolder.toggleExpanded`). */
  expand(): void {
    const { lines, notice } = this.#folder.toggleExpanded();
    this.write(lines);
    this.notice(notice);
  }

  /** Runs a slash command's work with the spinner on (typed lines wait for it). */
  async working(run: () => Promise<void> | void): Promise<void> {
    if (this.state.busy) return run();
    this.#set({ busy: true, startedAt: Date.now(), notice: undefined });
    try {
      await run();
    } finally {
      this.#set({ busy: false });
    }
  }

  /** A one-line message under the prompt until the next turn. */
  notice(text: string): void {
    this.#set({ notice: text });
  }

  /**
   * Replaces the session: the same thread with new settings (`{ model }`, `{ approval }`),
   * another thread (`{ threadId }`) or a new one (`fresh`). The old one closes only once the
   * new one opened, so a bad /model leaves the session as it was.
   */
  async reopen(extra: Partial<SessionOptions>, fresh = false): Promise<void> {
    const notices: string[] = [];
    this.#opening++;
    let next: RunSession;
    try {
      next = await openSession({
        ...nextSessionOptions(this.session, this.options.session, fresh),
        ...extra,
        notice: (l) => notices.push(l),
      });
    } finally {
      this.#opening--;
    }
    const old = this.session;
    this.session = next;
    await old.close();
    for (const line of notices) this.write([{ text: line, tone: "dim" }]);
    if (old.thread.id !== next.thread.id) await this.#attach();
    else {
      this.#folder.status.model = next.thread.settings.model;
      this.#folder.status.approval = next.thread.settings.approval;
      this.#set({ status: { ...this.#folder.status } });
    }
  }

  /** Leaves: stops a running turn and closes the session. */
  async close(): Promise<void> {
    this.interrupt();
    await this.session.close();
  }
}
