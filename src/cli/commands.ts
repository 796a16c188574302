// Every `delve` command and its flags: a leaf module, so `delve --help` and `delve X --help`
// load no agent code.
import type { CommandSpec, FlagSpec } from "./args.js";

const cwd: FlagSpec = {
  type: "string",
  value: "DIR",
  help: "The workspace (default: the current directory).",
};
const json: FlagSpec = { type: "boolean", help: "Print JSON." };
const output: FlagSpec = {
  type: "string",
  value: "FORMAT",
  choices: ["text", "json", "stream-json"],
  help: "text (answer on stdout, progress on stderr), json (the result object) or stream-json (one event a line).",
};
const limits: Record<string, FlagSpec> = {
  "include-partial-messages": {
    type: "boolean",
    help: "With --output stream-json: also print text_delta events, the text as the model writes it.",
  },
  "max-turns": {
    type: "string",
    value: "N",
    number: "integer",
    help: "Stop after N model turns (exit 124).",
  },
  timeout: {
    type: "string",
    value: "SECONDS",
    number: "positive",
    help: "Stop after SECONDS (exit 124).",
  },
  "max-cost": {
    type: "string",
    value: "USD",
    number: "positive",
    help: "Stop once the run cost USD (exit 124).",
  },
  prices: {
    type: "string",
    value: "FILE",
    help: 'Prices: {"provider:model": {"input": USD, "output": USD}} per million tokens.',
  },
};

/** The commands, in the order `delve --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: "run",
    usage: "delve run [TASK] [options]",
    summary:
      "Run one task in the workspace. TASK is the argument, or standard input when it is - or stdin is not a terminal. Exit codes: 0 completed, 1 failed, 2 usage or configuration error, 3 paused for an approval or a question, 124 a limit was reached.",
    maxPositionals: 1,
    flags: {
      cwd,
      model: {
        type: "string",
        value: "provider:model",
        help: "The model (also DELVE_MODEL and the config's model); human: you play the model.",
      },
      "human-io": {
        type: "string",
        value: "DIR",
        help: "With --model human: write DIR/request-N.json and wait for DIR/reply-N.json instead of the terminal.",
      },
      agent: {
        type: "string",
        value: "MODULE",
        help: "A .js/.mjs/.ts module whose default export is an agent, its options, or a function returning either.",
      },
      sandbox: {
        type: "string",
        value: "MODE",
        choices: ["auto", "bwrap", "none"],
        help: "Where execute runs: auto (bubblewrap when available), bwrap, none (the host).",
      },
      mcp: {
        type: "string",
        value: "FILE",
        help: 'MCP servers, {"mcpServers": {...}} (default .delve/mcp.json).',
      },
      thread: { type: "string", value: "ID", help: "Resume this thread." },
      continue: { type: "boolean", short: "c", help: "Resume the latest thread of the workspace." },
      approval: {
        type: "string",
        value: "MODE",
        choices: ["ask", "edits", "yolo"],
        help: "ask (default), edits (file writes in the workspace pass) or yolo (all but denied).",
      },
      output,
      ...limits,
      replay: {
        type: "string",
        value: "FILE",
        help: "Answer every model call from this cassette (offline).",
      },
      record: { type: "string", value: "FILE", help: "Record every model call to this cassette." },
      "ask-user": {
        type: "boolean",
        help: "Give the agent ask_user: it may pause with a question (exit 3); answer with delve answer.",
      },
    },
  },
  {
    name: "threads",
    usage:
      "delve threads list|show ID|turns ID|rewind ID --to N|diff ID|cost ID|compact ID|tools ID|delete ID [--json] [--cwd DIR]",
    summary:
      "The workspace's threads (.delve/threads.db): list them, show one (messages, usage, cost, pending approvals), list its turns, rewind it to before turn N (conversation and the files the agent changed), show everything it changed, its cost per model and agent, summarize it now, its tools, delete one.",
    maxPositionals: 2,
    flags: {
      cwd,
      json,
      to: {
        type: "string",
        value: "N",
        number: "integer",
        help: "rewind: go back to before turn N (delve threads turns ID lists them).",
      },
      force: {
        type: "boolean",
        help: "rewind: also overwrite files changed on disk since the agent's last write.",
      },
      "dry-run": { type: "boolean", help: "rewind: print what would be undone; change nothing." },
    },
  },
  {
    name: "context",
    usage: "delve context [--thread ID] [--json] [--cwd DIR]",
    summary:
      "What fills the model's window on the thread's next call (default: the newest thread): system prompt, each tool, messages, file contents, in tokens and characters, with bars.",
    maxPositionals: 0,
    flags: {
      cwd,
      json,
      thread: { type: "string", value: "ID", help: "The thread (default: the newest)." },
    },
  },
  {
    name: "pending",
    usage: "delve pending [--json] [--cwd DIR]",
    summary: "Every approval and question waiting, in every thread of the workspace.",
    maxPositionals: 0,
    flags: { cwd, json },
  },
  {
    name: "approve",
    usage: "delve approve THREAD [--call ID] [--reject [--reason TEXT]] [--edit JSON] [options]",
    summary:
      'Decide the paused calls of THREAD and continue the run to its end, printing like run. Exit codes as run; 4 when another process decided this approval first ("already decided").',
    maxPositionals: 1,
    flags: {
      cwd,
      call: {
        type: "string",
        value: "ID",
        help: "Decide only this call (when several wait, give each its own approve).",
      },
      reject: { type: "boolean", help: "Reject instead of approving." },
      reason: { type: "string", value: "TEXT", help: "With --reject: what the model is told." },
      edit: {
        type: "string",
        value: "JSON",
        help: "Approve with these arguments instead (a JSON object).",
      },
      output,
      ...limits,
    },
  },
  {
    name: "answer",
    usage: 'delve answer THREAD ["TEXT"] [--choice C]... [--call ID] [options]',
    summary:
      'Answer the ask_user question THREAD waits on, in your own words (TEXT) or with its choices (--choice, repeatable for a multi-select question), and continue the run to its end, printing like run. Exit codes as run; 4 when another process answered first ("already decided").',
    maxPositionals: 2,
    flags: {
      cwd,
      choice: {
        type: "string",
        value: "C",
        multiple: true,
        help: "A choice of the question (exactly as listed; repeat for several).",
      },
      call: {
        type: "string",
        value: "ID",
        help: "The question's call id (as in question_required), to be sure which one you answer.",
      },
      output,
      ...limits,
    },
  },
  {
    name: "ui",
    usage: "delve ui [--cwd DIR] [--port N] [--host H] [--eval REPORT.json]",
    summary:
      "Serve a local page over the workspace's threads: timeline, files and diffs per step, cost, and Approve / Reject for paused calls. Prints the URL; a host other than loopback requires the printed token.",
    maxPositionals: 0,
    flags: {
      cwd,
      port: { type: "string", value: "N", number: "integer", help: "The port (default 4780)." },
      host: {
        type: "string",
        value: "H",
        help: "The address to bind (default 127.0.0.1); any other needs the printed token.",
      },
      eval: {
        type: "string",
        value: "REPORT.json",
        help: "Serve this eval report (delve eval --json) instead of the workspace's threads.",
      },
    },
  },
  {
    name: "doctor",
    usage: "delve doctor [--cwd DIR]",
    summary:
      "What this machine offers: the sandbox, provider packages and keys, the threads database.",
    maxPositionals: 0,
    flags: { cwd },
  },
  {
    name: "lint",
    usage: "delve lint MODULE [--export NAME] [--json]",
    summary:
      "Run lintTools on the tools of a module: its default export (or NAME) is a tool list, an agent's options with tools, or a function returning either.",
    maxPositionals: 1,
    flags: {
      export: { type: "string", value: "NAME", help: "The export to read (default: default)." },
      json,
    },
  },
  {
    name: "surface",
    usage: "delve surface MODULE [--export NAME] [--json]",
    summary:
      "Load an agent built with createDeepAgent from a .js/.mjs/.ts module (its default export, or NAME) and print what the model is handed: visible and hidden tools, characters and estimated tokens per tool, and which tools need approval. Calls no model.",
    maxPositionals: 1,
    flags: {
      export: { type: "string", value: "NAME", help: "The export to read (default: default)." },
      json,
    },
  },
  {
    name: "eval",
    usage:
      "delve eval MODULE [--model provider:model] [--record FILE | --replay FILE] [--repeat k] [--only TASK] [--compare previous.json] [--json out.json] [--html report.html] [--prices FILE] [--judge provider:model]",
    summary:
      "Run the task set that the module (.js/.mjs/.ts) exports by default: each task with the model, recording to or replaying from a cassette, k times each. Prints a table; exit code 1 when a task fails.",
    maxPositionals: 1,
    flags: {
      model: { type: "string", value: "provider:model", help: "The model the tasks run with." },
      record: { type: "string", value: "FILE", help: "Record model calls to this cassette." },
      replay: { type: "string", value: "FILE", help: "Answer model calls from this cassette." },
      repeat: { type: "string", value: "k", number: "integer", help: "Run each task k times." },
      only: {
        type: "string",
        value: "TASK",
        multiple: true,
        help: "Run only this task (repeatable).",
      },
      compare: { type: "string", value: "FILE", help: "Compare with a previous --json report." },
      json: { type: "string", value: "FILE", help: "Write the report as JSON." },
      html: { type: "string", value: "FILE", help: "Write the report as HTML." },
      prices: limits.prices as FlagSpec,
      judge: {
        type: "string",
        value: "provider:model",
        help: "The model that judges answers (satisfies()).",
      },
    },
  },
];

const runFlags = COMMANDS[0]!.flags;

/** `delve [options]`: the interactive session, with the flags of `delve run` that choose a thread. */
export const INTERACTIVE: CommandSpec = {
  name: "interactive",
  usage: "delve [-c | --thread ID] [options]",
  summary:
    "The interactive session in this terminal: type tasks and follow-ups, approve calls at the prompt, slash commands (/help). Prints the thread id and how to resume it on exit.",
  maxPositionals: 0,
  flags: Object.fromEntries(
    [
      "cwd",
      "model",
      "agent",
      "sandbox",
      "mcp",
      "thread",
      "continue",
      "approval",
      "ask-user",
      "prices",
      "replay",
      "record",
    ].map((name) => [name, runFlags[name]!]),
  ),
};

/** `delve --help`. */
export function mainHelp(): string {
  const lines = ["delve: deep agents for TypeScript", "", "Usage:"];
  for (const c of COMMANDS) {
    lines.push(`  ${c.usage}`);
    const flags = Object.keys(c.flags).map((f) => `--${f}`);
    if (flags.length) lines.push(`      flags: ${flags.join(" ")}`);
  }
  lines.push(
    `  ${INTERACTIVE.usage}`,
    "      the interactive session (no command, in a terminal)",
    "  delve --version",
    "  delve --help | delve COMMAND --help",
    "",
    "Exit codes: 0 completed, 1 failed, 2 usage or configuration error, 3 paused for an approval or a question, 4 approval or answer already decided, 124 a limit was reached.",
  );
  return lines.join("\n");
}
