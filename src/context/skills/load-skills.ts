import { looksBinary } from "../../backends/protocol/media-types.js";
import type { BackendProtocol } from "../../backends/protocol/protocol.js";
import { type SkillMetadata, skillMetadataOf } from "./skill-metadata.js";

/** The skills found under some sources, and why any were skipped. */
export interface LoadedSkills {
  /** Valid skills, sorted by name; a later source's skill replaces an earlier one's. */
  skills: SkillMetadata[];
  /** One line per problem: an invalid SKILL.md, an unreadable source. */
  warnings: string[];
}

/**
 * Finds the skills under each source directory: every `<source>/<dir>/SKILL.md`, read through
 * the backend, its front matter checked by `skillMetadataOf`. A source that does not exist
 * is skipped silently (it may not have been created yet); a directory without SKILL.md is
 * not a skill. Sources are normalised virtual paths.
 *
 * @example
 * const { skills, warnings } = await loadSkills(backend, ["/skills/shared", "/skills/team"]);
 */
export async function loadSkills(
  backend: BackendProtocol,
  sources: readonly string[],
): Promise<LoadedSkills> {
  const byName = new Map<string, SkillMetadata>();
  const warnings: string[] = [];
  for (const source of sources) {
    try {
      for (const found of await readSource(backend, source, warnings))
        byName.set(found.name, found);
    } catch (error) {
      warnings.push(
        `Skills in ${source} not loaded: the backend failed (${(error as Error)?.message ?? error}).`,
      );
    }
  }
  const skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  return { skills, warnings };
}

async function readSource(
  backend: BackendProtocol,
  source: string,
  warnings: string[],
): Promise<SkillMetadata[]> {
  const listing = await backend.ls(source);
  if (listing.error) {
    if (listing.error.code !== "not_found") {
      warnings.push(`Skills in ${source} not loaded: ${listing.error.message}.`);
    }
    return [];
  }
  const paths = (listing.files ?? [])
    .filter((info) => info.isDir)
    .map((info) => `${info.path.replace(/\/+$/, "")}/SKILL.md`)
    .sort();
  if (paths.length === 0) return [];
  const downloads = await backend.downloadFiles(paths);
  const skills: SkillMetadata[] = [];
  paths.forEach((path, index) => {
    const download = downloads[index];
    if (download?.error?.code === "not_found") return;
    const bytes = download?.content;
    const text = bytes && !looksBinary(bytes) ? new TextDecoder().decode(bytes) : undefined;
    const checked =
      text === undefined
        ? { reason: download?.error?.message ?? "it is not UTF-8 text" }
        : skillMetadataOf(path, text);
    if ("reason" in checked) warnings.push(`Skill ${path} skipped: ${checked.reason}.`);
    else skills.push(checked);
  });
  return skills;
}
