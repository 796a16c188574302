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
  /** `license`: the licence name or the bundled licence file, when given. */
  license?: string;
  /** `compatibility`: what the skill needs from its environment (at most 500 characters). */
  compatibility?: string;
  /** `allowed-tools`: the tools the skill expects to use (a YAML list or a space-separated string). */
  allowedTools?: string[];
  /** `metadata`: extra string keys and values for clients; not shown to the model. */
  metadata?: Record<string, string>;
}

/** Longest `compatibility` text (the Agent Skills format's limit). */
export const MAX_SKILL_COMPATIBILITY_LENGTH = 500;

// Lowercase letters and digits in hyphen-separated runs: no leading, trailing or double hyphen.
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Reads a SKILL.md's front matter and checks it: `name` required, at most 64 characters of
 * lowercase letters, digits and single hyphens, equal to the skill's directory name;
 * `description` required, at most 1,024 characters; the optional fields of the Agent Skills
 * format (`license`, `compatibility`, `allowed-tools`, `metadata`) are read and checked, and
 * any other field is ignored. Returns the metadata, or the reason the skill is invalid (one
 * clause, no trailing period).
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
  if (name === undefined || name === null || name === "") return { reason: "name is missing" };
  if (typeof name !== "string") return { reason: "name must be text" };
  if (!name.trim()) return { reason: "name is missing" };
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
  if (
    rawDescription !== undefined &&
    rawDescription !== null &&
    typeof rawDescription !== "string"
  ) {
    return { reason: "description must be text" };
  }
  const description = (rawDescription ?? "").trim().replace(/\s+/g, " ");
  if (!description) return { reason: "description is missing" };
  if (description.length > MAX_SKILL_DESCRIPTION_LENGTH) {
    return {
      reason: `description is ${description.length} characters (at most ${MAX_SKILL_DESCRIPTION_LENGTH})`,
    };
  }
  const optional = optionalFields(fields);
  if ("reason" in optional) return optional;
  return { name: trimmedName, description, path, ...optional };
}

type OptionalFields = Pick<
  SkillMetadata,
  "license" | "compatibility" | "allowedTools" | "metadata"
>;

// The format's optional fields, each checked for its type; absent or null means not given.
function optionalFields(fields: Map<string, unknown>): OptionalFields | { reason: string } {
  const out: OptionalFields = {};
  const given = (key: string) => fields.get(key) !== undefined && fields.get(key) !== null;
  const license = fields.get("license");
  if (given("license")) {
    if (typeof license !== "string") return { reason: "license must be text" };
    if (license.trim()) out.license = license.trim().replace(/\s+/g, " ");
  }
  const compatibility = fields.get("compatibility");
  if (given("compatibility")) {
    if (typeof compatibility !== "string") return { reason: "compatibility must be text" };
    const text = compatibility.trim().replace(/\s+/g, " ");
    if (text.length > MAX_SKILL_COMPATIBILITY_LENGTH) {
      return {
        reason: `compatibility is ${text.length} characters (at most ${MAX_SKILL_COMPATIBILITY_LENGTH})`,
      };
    }
    if (text) out.compatibility = text;
  }
  const tools = fields.get("allowed-tools");
  if (given("allowed-tools")) {
    const list = typeof tools === "string" ? tools.split(/[\s,]+/) : tools;
    if (!Array.isArray(list) || list.some((t) => typeof t !== "string")) {
      return { reason: "allowed-tools must be a list of tool names or a space-separated string" };
    }
    const names = list.map((t: string) => t.trim()).filter(Boolean);
    if (names.length) out.allowedTools = names;
  }
  const metadata = fields.get("metadata");
  if (given("metadata")) {
    if (typeof metadata !== "object" || Array.isArray(metadata)) {
      return { reason: "metadata must be a mapping of keys to text" };
    }
    const entries = Object.entries(metadata as Record<string, unknown>);
    if (entries.some(([, v]) => typeof v === "object" && v !== null)) {
      return { reason: "metadata values must be text, numbers or booleans" };
    }
    out.metadata = Object.fromEntries(entries.map(([k, v]) => [k, String(v ?? "")]));
  }
  return out;
}
