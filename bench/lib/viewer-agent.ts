/**
 * The `--agent` module of the viewer benchmark: a scripted model that writes one small file
 * per turn for DELVE_VIEWER_TURNS turns (two checkpoints each: the model call, the tool),
 * then answers. Usage is reported per reply, so every step has tokens and a cost.
 */
import { ScriptedChatModel, type ScriptedStep } from "../../src/models/scripted-model.js";

export default () => {
  const turns = Number(process.env.DELVE_VIEWER_TURNS ?? 500);
  const usage = { input_tokens: 120, output_tokens: 30 };
  const steps: ScriptedStep[] = [];
  for (let i = 0; i < turns; i++) {
    const file_path = `/notes/n${i}.txt`;
    steps.push({
      toolCalls: [{ name: "write_file", args: { file_path, content: `note ${i}\n` } }],
      usage,
    });
  }
  steps.push({ text: "wrote every note", usage });
  return { model: new ScriptedChatModel(steps) };
};
