// The options the interactive session reopens its session with (/clear, /model, /threads,
// an "always allow" rule).
import type { RunSession, SessionOptions } from "../run/engine.js";

/**
 * A new thread (`fresh`) keeps the current one's settings; the same thread keeps its stored
 * ones. The first session's environment, prices and recording carry over (a recording goes
 * on into the same cassette: run-model keeps one per file).
 */
export function nextSessionOptions(
  session: RunSession,
  base: SessionOptions,
  fresh: boolean,
): SessionOptions {
  const s = session.thread.settings;
  return {
    workspace: session.workspace,
    ...(base.env ? { env: base.env } : {}),
    ...(base.prices ? { prices: base.prices } : {}),
    ...(base.record ? { record: base.record } : {}),
    ...(fresh
      ? {
          model: s.model,
          approval: s.approval,
          sandbox: s.sandbox,
          ...(s.agent ? { agent: s.agent } : {}),
          ...(s.mcp ? { mcp: s.mcp } : {}),
          ...(s.replay ? { replay: s.replay } : {}),
        }
      : { threadId: session.thread.id }),
  };
}
