import { parseFrontMatter } from "./front-matter.js";

/** Longest skill name (the Agent Skills format's limit). */
export const MAX_SKILL_NAME_LENGTH = 64;
/** Longest skill description (the Agent Skills format's limit). */
export const MAX_SKILL_DESCRIPTION_LENGTH = 1024;

/** What the prompt lists about one skill. */
export interface SkillMetadata {
  name: string;
  /** The description on one line (whitespace runs collapsed). */
  description: string;
  /** The SKILL.md path, which the model reads for the full instructions. */
  path: string;
}

// Lowercase letters and digits in hyphen-separated runs: no leading, trailing or double hyphen.
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Reads a SKILL.md's front matter and checks it: `name` required, at most 64 characters of
 * lowercase letters, digits and single hyphens, equal to the skill's directory name;
 * `description` required, at most 1,024 characters. Other fields are allowed and ignored.
 * Returns the metadata, or the reason the skill is invalid (one clause, no trailing period).
 *
 * @example
 * skillMetadataOf("/skills/pdf-forms/SKILL.md", "---\nname: pdf-forms\ndescription: Fill PDF forms.\n---\n")
 * // { name: "pdf-forms", description: "Fill PDF forms.", path: "/skills/pdf-forms/SKILL.md" }
 */
export function skillMetadataOf(path: string, text: string): SkillMetadata | { reason: string } {
  const parsed = parseFrontMatter(text);
  if (!parsed.ok) return { reason: parsed.reason };
  const { fields } = parsed.value;
  const name = fields.get("name");
  const rawDescription = fields.get("description");
  if (name === null) return { reason: "name must be text" };
  if (!name?.trim()) return { reason: "name is missing" };
  const trimmedName = name.trim();
  if (trimmedName.length > MAX_SKILL_NAME_LENGTH) {
    return {
      reason: `name is ${trimmedName.length} characters (at most ${MAX_SKILL_NAME_LENGTH})`,
    };
  }
  if (!NAME.test(trimmedName)) {
    return {
      reason: `name "${trimmedName}" must be lowercase letters, digits and single hyphens`,
    };
  }
  const directory = path.split("/").at(-2);
  if (trimmedName !== directory) {
    return { reason: `name "${trimmedName}" must match its directory "${directory}"` };
  }
  if (rawDescription === null) return { reason: "description must be text" };
  const description = (rawDescription ?? "").trim().replace(/\s+/g, " ");
  if (!description) return { reason: "description is missing" };
  if (description.length > MAX_SKILL_DESCRIPTION_LENGTH) {
    return {
      reason: `description is ${description.length} characters (at most ${MAX_SKILL_DESCRIPTION_LENGTH})`,
    };
  }
  return { name: trimmedName, description, path };
}
