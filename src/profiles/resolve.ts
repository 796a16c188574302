import { mergeProfiles } from "./merge.js";
import { getHarnessProfile } from "./registry.js";
import type { HarnessProfile } from "./types.js";
import { validateProfile } from "./validate.js";

/** A profile after merging, with which keys contributed and who excluded each tool. */
export interface ResolvedProfile {
  profile: HarnessProfile;
  /** The keys whose profiles applied, in merge order; "agent" for the per-agent profile. */
  applied: string[];
  /** Tool name -> the profile key that excluded it first. */
  excludedBy: Map<string, string>;
}

/**
 * Merges `"*"` <- provider <- provider:model from the registry, then the per-agent profile
 * last. The per-agent profile never touches the registry.
 *
 * @example
 * resolveProfile("deepseek:deepseek-v4-flash", { systemPromptSuffix: "Be brief." })
 */
export function resolveProfile(
  key: string | undefined,
  perAgent?: HarnessProfile,
): ResolvedProfile {
  const layers: Array<[string, HarnessProfile]> = [];
  const add = (k: string) => {
    const found = getHarnessProfile(k);
    if (found) layers.push([k, found]);
  };
  add("*");
  if (key) {
    const provider = key.split(":")[0]!;
    add(provider);
    if (key !== provider) add(key);
  }
  if (perAgent) layers.push(["agent", validateProfile(perAgent, "profile option")]);
  let profile: HarnessProfile = {};
  const excludedBy = new Map<string, string>();
  for (const [k, layer] of layers) {
    profile = mergeProfiles(profile, layer);
    for (const tool of layer.excludedTools ?? [])
      if (!excludedBy.has(tool)) excludedBy.set(tool, k);
  }
  return { profile, applied: layers.map(([k]) => k), excludedBy };
}
