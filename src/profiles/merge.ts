import type { HarnessProfile } from "./types.js";

const union = (a?: string[], b?: string[]) =>
  a || b ? [...new Set([...(a ?? []), ...(b ?? [])])] : undefined;

/**
 * Merges `over` onto `base`: prompt texts and the general-purpose settings are overridden
 * field by field, description overrides merge by tool, exclusions are united, and extra
 * middleware is appended (a later one with the same name replaces the earlier).
 *
 * @example
 * mergeProfiles({ excludedTools: ["delete"] }, { excludedTools: ["write_file"] }).excludedTools
 * // ["delete", "write_file"]
 */
export function mergeProfiles(base: HarnessProfile, over: HarnessProfile): HarnessProfile {
  const merged: HarnessProfile = { ...base };
  if (over.baseSystemPrompt !== undefined) merged.baseSystemPrompt = over.baseSystemPrompt;
  if (over.systemPromptSuffix !== undefined) merged.systemPromptSuffix = over.systemPromptSuffix;
  if (base.toolDescriptionOverrides || over.toolDescriptionOverrides) {
    merged.toolDescriptionOverrides = {
      ...base.toolDescriptionOverrides,
      ...over.toolDescriptionOverrides,
    };
  }
  const tools = union(base.excludedTools, over.excludedTools);
  if (tools) merged.excludedTools = tools;
  const middleware = union(base.excludedMiddleware, over.excludedMiddleware);
  if (middleware) merged.excludedMiddleware = middleware;
  if (base.extraMiddleware || over.extraMiddleware) {
    const byName = new Map<string, any>();
    for (const m of [...(base.extraMiddleware ?? []), ...(over.extraMiddleware ?? [])]) {
      byName.delete((m as any).name);
      byName.set((m as any).name, m);
    }
    merged.extraMiddleware = [...byName.values()];
  }
  if (base.generalPurposeSubagent || over.generalPurposeSubagent) {
    merged.generalPurposeSubagent = {
      ...base.generalPurposeSubagent,
      ...over.generalPurposeSubagent,
    };
  }
  return merged;
}
