import { createDeepAgent, FilesystemBackend, loadSkills, memoryMiddleware } from "delve";
import { model } from "./fixtures.js";

const backend = new FilesystemBackend({ rootDir: "./workspace" });
const { skills, warnings } = await loadSkills(backend, ["/skills"]);
console.log(
  skills.map((s) => s.name),
  warnings,
);

export const agent = createDeepAgent({
  model,
  backend,
  middleware: [memoryMiddleware({ sources: ["/AGENTS.md"], backend, maxChars: 8_000 })],
});
