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
/** Longest `license` text, and longest entry of `allowed-tools`. */
const MAX_SKILL_FIELD_LENGTH = 100;
/** Most entries in `allowed-tools`. */
const MAX_SKILL_ALLOWED_TOOLS = 50;

// Whitespace of any kind (line breaks, tabs, U+2028) becomes one space; other control and
// format characters (bidi overrides, tag characters) go, except the joiners emoji need.
const INVISIBLE = /(?![\u200c\u200d])[\p{Cc}\p{Cf}]/gu;

/**
 * A front-matter value as the prompt shows it: one line, whitespace runs collapsed, control
 * and format characters removed, so a skill file cannot add lines to the prompt.
 *
 * @example
 * promptLine("read_file\n- forged: entry") // "read_file - forged: entry"
 */
function promptLine(text: string): string {
  return text.replace(/\s+/g, " ").replace(INVISIBLE, "").replace(/ {2,}/g, " ").trim();
}

const tooLong = (field: string, text: string, max: number) =>
  text.length > max ? { reason: `${field} is ${text.length} characters (at most ${max})` } : null;

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
  const description = promptLine(rawDescription ?? "");
  if (!description) return { reason: "description is missing" };
  const long = tooLong("description", description, MAX_SKILL_DESCRIPTION_LENGTH);
  if (long) return long;
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
    const text = promptLine(license);
    const long = tooLong("license", text, MAX_SKILL_FIELD_LENGTH);
    if (long) return long;
    if (text) out.license = text;
  }
  const compatibility = fields.get("compatibility");
  if (given("compatibility")) {
    if (typeof compatibility !== "string") return { reason: "compatibility must be text" };
    const text = promptLine(compatibility);
    const long = tooLong("compatibility", text, MAX_SKILL_COMPATIBILITY_LENGTH);
    if (long) return long;
    if (text) out.compatibility = text;
  }
  const tools = fields.get("allowed-tools");
  if (given("allowed-tools")) {
    const list = typeof tools === "string" ? tools.split(/[\s,]+/) : tools;
    if (!Array.isArray(list) || list.some((t) => typeof t !== "string")) {
      return { reason: "allowed-tools must be a list of tool names or a space-separated string" };
    }
    const names = list.map((t: string) => promptLine(t)).filter(Boolean);
    if (names.length > MAX_SKILL_ALLOWED_TOOLS) {
      return {
        reason: `allowed-tools has ${names.length} entries (at most ${MAX_SKILL_ALLOWED_TOOLS})`,
      };
    }
    const longName = names.find((n: string) => n.length > MAX_SKILL_FIELD_LENGTH);
    if (longName) return tooLong("an allowed-tools entry", longName, MAX_SKILL_FIELD_LENGTH)!;
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
