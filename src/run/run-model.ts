import path from "node:path";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  CassetteReplay,
  type CassetteStep,
  loadCassette,
  saveCassette,
} from "../evals/cassette.js";
import { EvalChatModel, type ModelSession } from "../evals/eval-model.js";
import { HUMAN_MODEL } from "./model-choice.js";
import type { ThreadSettings } from "./threads-db.js";

const recordings = new Map<string, CassetteStep[]>();

/** The task id `delve run --record` writes under (and `--replay` reads first). */
export const RUN_CASSETTE_TASK = "run";

/**
 * The run's model: the "provider:model" string, `HumanChatModel` for `human`, or a cassette
 * player / recorder around it.
 */
export interface RunModel {
  model: unknown;
  /** Writes the recording (with `--record`). */
  save(): void;
}

/**
 * With `--replay FILE` every model call is answered from the cassette (the task "run", else
 * its first task; no network, no key); with `--record FILE` calls go to the model and are
 * written to FILE when the run ends.
 */
export async function openRunModel(settings: ThreadSettings, record?: string): Promise<RunModel> {
  if (settings.replay) {
    const cassette = loadCassette(settings.replay);
    const task = cassette.tasks[RUN_CASSETTE_TASK]
      ? RUN_CASSETTE_TASK
      : Object.keys(cassette.tasks)[0];
    const steps = task ? cassette.tasks[task]?.runs[0] : undefined;
    const session: ModelSession = {
      calls: [],
      tools: new Map(),
      replay: new CassetteReplay(task ?? RUN_CASSETTE_TASK, steps, settings.replay),
    };
    return { model: new EvalChatModel(session, undefined), save: () => {} };
  }
  let model: BaseChatModel | undefined;
  if (settings.model === HUMAN_MODEL) {
    const { HumanChatModel } = await import("../models/human-chat-model.js");
    model = new HumanChatModel(settings.humanIo ? { dir: settings.humanIo } : {});
  }
  if (!record) return { model: model ?? settings.model, save: () => {} };
  if (!model) {
    const { LazyChatModel } = await import("../models/lazy-chat-model.js");
    model = new LazyChatModel(settings.model);
  }
  // Sessions of one process that record to one file add to one recording: the interactive
  // session reopens its session (/clear, /model, /threads, an "always allow") and the file
  // keeps every call, not the last session's.
  const file = path.resolve(record);
  const steps = recordings.get(file) ?? [];
  recordings.set(file, steps);
  const session: ModelSession = { calls: [], tools: new Map(), record: steps };
  return {
    model: new EvalChatModel(session, model),
    save: () =>
      saveCassette(record, {
        format: "delve-cassette",
        version: 1,
        model: settings.model,
        tasks: { [RUN_CASSETTE_TASK]: { runs: [steps] } },
      }),
  };
}
