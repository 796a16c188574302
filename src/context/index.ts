// The context folder's boundary: memory, skills and the options of summarization (eviction and
// dangling-call patching are configured through createDeepAgent). Every name here is public
// API, re-exported by the package root.

export { type MemoryMiddlewareOptions, memoryMiddleware } from "./memory/middleware.js";
export { loadSkills } from "./skills/load-skills.js";
export { type SkillsMiddlewareOptions, skillsMiddleware } from "./skills/middleware.js";
export {
  MAX_SKILL_DESCRIPTION_LENGTH,
  MAX_SKILL_NAME_LENGTH,
  type SkillMetadata,
} from "./skills/skill-metadata.js";
export type { KeepPolicy, SummarizationOptions } from "./summarization/middleware.js";
