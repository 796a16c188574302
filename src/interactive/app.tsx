// @jsxRuntime automatic
// @jsxImportSource react
// (tsx reads the tsconfig of the cwd, a user's workspace: the pragmas pin the JSX runtime here.)
import { Box, Static, Text, useApp, useInput, useStdout } from "ink";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { InteractiveController, Question } from "./controller.js";
import { type Line, type Tone, tokens, usd } from "./lines.js";
import { PromptEditor } from "./prompt.js";
import { complete, completions } from "./slash-commands.js";
import type { StatusInfo } from "./transcript.js";

const COLORS: Record<Tone, string | undefined> = {
  plain: undefined,
  dim: "gray",
  user: "cyan",
  assistant: undefined,
  tool: "magenta",
  add: "green",
  del: "red",
  hunk: "cyan",
  ok: "green",
  error: "red",
  warn: "yellow",
  accent: "blue",
};

function LineView({ line, color }: { line: Line; color: boolean }) {
  const tone = line.tone ?? "plain";
  return (
    <Box paddingLeft={line.indent ?? 0}>
      <Text
        wrap={line.truncate ? "truncate-end" : "wrap"}
        {...(color && COLORS[tone] ? { color: COLORS[tone] } : {})}
        bold={color && Boolean(line.bold)}
      >
        {line.text || " "}
      </Text>
    </Box>
  );
}

function Lines({ lines, color }: { lines: Line[]; color: boolean }) {
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines of a block never reorder.
        <LineView key={i} line={line} color={color} />
      ))}
    </Box>
  );
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

function Spinner({ startedAt, color }: { startedAt: number; color: boolean }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 120);
    return () => clearInterval(timer);
  }, []);
  const frame = FRAMES[Math.floor(now / 120) % FRAMES.length];
  const seconds = Math.max(0, Math.floor((now - startedAt) / 1000));
  return (
    <LineView
      color={color}
      line={{
        text: `${frame} working · ${seconds}s · Esc interrupts`,
        tone: "warn",
        truncate: true,
      }}
    />
  );
}

function statusText(s: StatusInfo): string {
  // Most telling first: a narrow terminal cuts the end.
  return `${s.model} · ${s.approval} · ${tokens(s.input)} in / ${tokens(s.output)} out · ${usd(s.cost)} · ctx ${tokens(s.context)}`;
}

function QuestionView({ q, reason, color }: { q: Question; reason: string; color: boolean }) {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Lines lines={q.title} color={color} />
      <Lines lines={q.body} color={color} />
      {q.mode === "choose" ? (
        <Lines lines={q.choices} color={color} />
      ) : q.mode === "answer" ? (
        <Lines color={color} lines={[...q.choices, { text: `answer› ${reason}▌`, tone: "user" }]} />
      ) : (
        <Lines
          color={color}
          lines={[
            { text: "why? the model reads it (Enter sends, Esc goes back)", tone: "accent" },
            { text: `reason› ${reason}▌`, tone: "user" },
          ]}
        />
      )}
    </Box>
  );
}

/** The interactive session's screen: transcript, live turn, question or prompt, status line. */
export function App({ controller, color }: { controller: InteractiveController; color: boolean }) {
  const state = useSyncExternalStore(controller.subscribe, controller.snapshot);
  const rows = useStdout().stdout.rows || 24;
  const { exit } = useApp();
  // Refs, not state alone: a paste and its Enter can arrive in one read, before a re-render.
  const editor = useRef(new PromptEditor(controller.history)).current;
  const pasting = useRef(false);
  const reasonRef = useRef("");
  const [input, setInputState] = useState("");
  const [reason, setReasonState] = useState("");
  const edit = (change: (e: PromptEditor) => void) => {
    change(editor);
    setInputState(editor.text);
  };
  const setReason = (next: (v: string) => string) => {
    reasonRef.current = next(reasonRef.current);
    setReasonState(reasonRef.current);
  };

  useEffect(() => {
    if (state.exiting) exit();
  }, [state.exiting, exit]);

  useInput((raw, key) => {
    // A bracketed paste (the terminal marks its start and end) keeps its newlines, sends nothing.
    if (raw === "[200~" || raw === "[201~") {
      pasting.current = raw === "[200~";
      return;
    }
    const q = controller.state.question;
    if (pasting.current) {
      if (!q) edit((e) => e.insert(raw));
      else if (q.mode !== "choose") setReason((r) => r + printable(raw));
      return;
    }
    // Alt-Enter, Shift-Enter (where the terminal tells it) and Ctrl-J start a new line.
    if (!q && ((key.return && (key.meta || key.shift)) || raw === "\n")) {
      return edit((e) => e.newline());
    }
    // Text and its Enter can come as one chunk ("task\r"): a trailing return is Enter.
    const enter = key.return || /[\r\n]$/.test(raw);
    const typed = key.return ? raw : raw.replace(/[\r\n]+$/, "");
    // The controller's state, not the render's: it may have changed since the last render.
    if (enter && typed && !key.return) {
      if (q && q.mode !== "choose") setReason((r) => r + printable(typed));
      else if (!q) edit((e) => e.insert(typed));
    }
    if (key.ctrl && typed === "c") return controller.ctrlC();
    if (key.ctrl && typed === "o") return controller.expand();
    if (q && q.mode !== "choose") {
      if (key.escape) return controller.cancelReason();
      if (enter) {
        const text = reasonRef.current.trim();
        setReason(() => "");
        return void controller.reply(text);
      }
      if (key.backspace || key.delete) return setReason((r) => r.slice(0, -1));
      if (!key.ctrl && !key.meta && typed) setReason((r) => r + printable(typed));
      return;
    }
    if (q) {
      const k = typed.toLowerCase();
      if (k === "y" || k === "n" || k === "e" || k === "a") void controller.answer(k);
      // Any other key: say which ones decide (nothing runs until one is pressed).
      else if (typed || enter || key.escape)
        controller.notice(`waiting for your decision: ${q.choices[0]?.text ?? "y or n"}`);
      return;
    }
    if (key.escape) {
      if (!controller.interrupt()) edit((e) => e.clear());
      return;
    }
    if (enter) {
      let line: string | undefined;
      edit((e) => {
        line = e.enter();
      });
      if (line !== undefined) void controller.submit(line);
      return;
    }
    if (key.upArrow) return edit((e) => e.up());
    if (key.downArrow) return edit((e) => e.down());
    if (key.tab)
      return edit((e) => {
        const done = complete(e.text);
        e.clear();
        e.insert(done);
      });
    if (key.backspace || key.delete) return edit((e) => e.backspace());
    if (!key.ctrl && !key.meta && typed) edit((e) => e.insert(typed));
  });

  // After useInput's own effect: the terminal is in raw mode, so keys typed now are not lost.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  const matches = state.question || input.includes("\n") ? [] : completions(input);
  return (
    <Box flexDirection="column">
      <Static items={state.entries}>
        {(e) => <Lines key={e.id} lines={e.lines} color={color} />}
      </Static>
      {state.live ? <Lines lines={tail(state.live, rows - 8)} color={color} /> : null}
      {state.busy ? <Spinner startedAt={state.startedAt} color={color} /> : null}
      {state.question ? (
        <QuestionView q={state.question} reason={reason} color={color} />
      ) : (
        <Lines
          color={color}
          lines={
            ready
              ? editor.lines(state.busy ? "dim" : "user")
              : [{ text: "  starting…", tone: "dim" }]
          }
        />
      )}
      {matches.length && input.length > 0 ? (
        <Lines
          color={color}
          lines={matches.map((m) => ({
            text: `/${m.name}${m.args ? ` ${m.args}` : ""} · ${m.help}`,
            tone: "dim",
            indent: 2,
            truncate: true,
          }))}
        />
      ) : null}
      {state.notice ? <LineView color={color} line={{ text: state.notice, tone: "warn" }} /> : null}
      <LineView
        color={color}
        line={{ text: statusText(state.status), tone: "dim", truncate: true }}
      />
    </Box>
  );
}

// The last `max` lines of a growing text (Ink redraws what is below the transcript each time:
// it must fit the screen); "…" says the start scrolled away.
function tail(lines: Line[], max: number): Line[] {
  const keep = Math.max(3, max);
  if (lines.length <= keep) return lines;
  return [{ text: "…", tone: "dim" }, ...lines.slice(-(keep - 1))];
}

// Pasted text may carry newlines and control bytes: a reason or an answer is one line of plain text.
function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
  return text.replace(/[\r\n\t]+/g, " ").replace(/[\u0000-\u001f\u007f]/g, "");
}
