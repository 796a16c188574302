import { createMiddleware } from "langchain";
import { StateBackend } from "../../backends/file-map/state.js";
import type { BackendProtocol } from "../../backends/protocol/protocol.js";
import { checkSourcePaths, toolMentioner, warnOnce, withSystemText } from "../prompt-section.js";
import { loadSkills } from "./load-skills.js";
import type { SkillMetadata } from "./skill-metadata.js";

/** The name the skills middleware registers under. */
export const SKILLS_MIDDLEWARE_NAME = "SkillsMiddleware";

/** Options of `skillsMiddleware`. Only `sources` is required. */
export interface SkillsMiddlewareOptions {
  /** Directories holding one folder per skill (`/skills/pdf-forms/SKILL.md`); later ones win. */
  sources: readonly string[];
  /** Where they live: the agent's file backend. Default: a `StateBackend` (the run's files). */
  backend?: BackendProtocol;
  /** Whether the prompt may name a tool; pass the agent's visible set. Default: any bound tool. */
  mentions?: (tool: string) => boolean;
  /** Receives each distinct problem once (an invalid SKILL.md). Default: `console.warn`. */
  onWarning?: (message: string) => void;
}

/**
 * Lists the agent's skills in the system prompt as a `<skills>` section: each valid
 * `<source>/<name>/SKILL.md` by name, description and path, so the model reads a skill's full
 * instructions only when it needs them. The sources are re-read through the backend on every
 * model call (a skill added or edited mid-thread shows on the next call). An invalid SKILL.md
 * is left out and reported once through `onWarning`; a skill named like one in an earlier
 * source replaces it. `createDeepAgent({ skills })` adds it over the agent's own backend;
 * pass it yourself to set `onWarning` (it replaces that layer in place), and then pass the
 * `backend` the skills live in, since its default reads the thread's in-state files.
 *
 * @example
 * const skills = skillsMiddleware({ sources: ["/skills/"], onWarning: (m) => log.warn(m) });
 * createDeepAgent({ model, middleware: [skills] });
 */
export function skillsMiddleware(options: SkillsMiddlewareOptions) {
  const sources = checkSourcePaths("skills", options?.sources);
  const backend = options.backend ?? new StateBackend();
  const warn = warnOnce(options.onWarning);
  return createMiddleware({
    name: SKILLS_MIDDLEWARE_NAME,
    wrapModelCall: async (request, handler) => {
      const { skills, warnings } = await loadSkills(backend, sources);
      for (const warning of warnings) warn(warning);
      const section = renderSkills(skills, toolMentioner(request, options.mentions));
      return handler(section ? withSystemText(request, section) : request);
    },
  });
}

/** The `<skills>` section, or "" when there are no skills. */
export function renderSkills(
  skills: readonly SkillMetadata[],
  mentions: (tool: string) => boolean,
): string {
  if (skills.length === 0) return "";
  const how = mentions("read_file")
    ? " When one fits your task, read its file with read_file before you start; paths inside it are relative to its folder."
    : "";
  const list = skills.map((s) => `- ${s.name}: ${s.description} (${s.path})${facts(s)}`).join("\n");
  return `<skills>\nSkills are instructions for specific tasks.${how}\n${list}\n</skills>`;
}

// The declared fields the model can act on, on the skill's line: " [tools: a, b; license: MIT]".
function facts(skill: SkillMetadata): string {
  const parts = [
    skill.allowedTools ? `tools: ${skill.allowedTools.join(", ")}` : "",
    skill.compatibility ? `needs: ${skill.compatibility}` : "",
    skill.license ? `license: ${skill.license}` : "",
  ].filter(Boolean);
  return parts.length ? ` [${parts.join("; ")}]` : "";
}
