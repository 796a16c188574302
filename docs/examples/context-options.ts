import { createDeepAgent, FilesystemBackend } from "delve";
import { model } from "./fixtures.js";

export const agent = createDeepAgent({
  model,
  backend: new FilesystemBackend({ rootDir: "./workspace" }),
  memory: ["/AGENTS.md"],
  skills: ["/skills/"], // /skills/pdf-forms/SKILL.md starts with: ---\nname: pdf-forms\ndescription: ...\n---
  toolTokenLimitBeforeEvict: 10_000,
  summarization: { keep: { messages: 12 } },
  contextWindow: 200_000,
});
