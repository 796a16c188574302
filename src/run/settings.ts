import path from "node:path";
import { probeBubblewrap } from "../backends/sandbox/bwrap-args.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { ApprovalMode } from "./approval-policy.js";
import type { DelveConfig } from "./config.js";
import type { ThreadSettings } from "./threads-db.js";

/** The flags that choose a thread's settings; unset ones come from the thread, then config. */
export interface SettingsFlags {
  model?: string;
  agent?: string;
  sandbox?: "auto" | "bwrap" | "none";
  approval?: ApprovalMode;
  mcp?: string;
  replay?: string;
  /** Give the built-in agent `ask_user` (`--ask-user`). */
  askUser?: boolean;
  /** With `--model human`: exchange requests and replies through this directory. */
  humanIo?: string;
}

/**
 * A thread's settings: flags beat the thread's stored settings, which beat the config. A new
 * thread without a model asks `chooseModel` (which throws when none can be found).
 */
export function resolveSettings(
  flags: SettingsFlags,
  stored: ThreadSettings | undefined,
  config: DelveConfig,
  workspace: string,
  notice: (line: string) => void,
  chooseModel: () => { model: string; source: string },
): ThreadSettings {
  const abs = (file: string | undefined) => (file ? path.resolve(workspace, file) : undefined);
  let model = flags.model ?? stored?.model;
  if (!model && flags.replay) model = "replay:cassette";
  if (!model) {
    const chosen = chooseModel();
    model = chosen.model;
    if (chosen.source !== "--model") notice(`model ${model} (from ${chosen.source})`);
  }
  const sandbox = flags.sandbox
    ? chooseSandbox(flags.sandbox, notice)
    : (stored?.sandbox ?? chooseSandbox(config.sandbox ?? "auto", notice));
  const approval = flags.approval ?? stored?.approval ?? config.approval ?? "ask";
  const agent = abs(flags.agent) ?? stored?.agent;
  const mcp = abs(flags.mcp) ?? stored?.mcp;
  const replay = abs(flags.replay) ?? stored?.replay;
  const askUser = flags.askUser || stored?.askUser || config.askUser === true;
  const humanIo = abs(flags.humanIo) ?? stored?.humanIo;
  if (humanIo && model !== "human") {
    throw new ConfigurationError(
      "INVALID_OPTION",
      `--human-io goes with --model human (the model is ${model}): add --model human, or drop --human-io.`,
    );
  }
  return {
    model,
    sandbox,
    approval,
    ...(agent ? { agent } : {}),
    ...(mcp ? { mcp } : {}),
    ...(replay ? { replay } : {}),
    ...(askUser ? { askUser: true } : {}),
    ...(humanIo ? { humanIo } : {}),
  };
}

function chooseSandbox(
  wanted: "auto" | "bwrap" | "none",
  notice: (line: string) => void,
): "bwrap" | "none" {
  if (wanted === "none") return "none";
  const probe = probeBubblewrap();
  if (probe.ok) return "bwrap";
  if (wanted === "bwrap") {
    throw new ConfigurationError(
      "SANDBOX_UNAVAILABLE",
      `--sandbox bwrap: bubblewrap cannot run here (${probe.detail}). Install it (Debian: apt install bubblewrap), or pass --sandbox none to run commands on the host.`,
    );
  }
  notice(`no sandbox: bubblewrap cannot run here (${probe.detail})`);
  return "none";
}
