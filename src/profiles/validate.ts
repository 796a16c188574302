import { ConfigurationError } from "../errors/configuration-error.js";
import { type HarnessProfile, PROFILE_FIELDS } from "./types.js";

/** Middleware a profile may never remove: the harness's skeleton. */
export const REQUIRED_MIDDLEWARE = ["FilesystemMiddleware", "SubAgentMiddleware"] as const;

const stringList = (value: unknown) =>
  Array.isArray(value) && value.every((v) => typeof v === "string" && v.length > 0);

/** Checks a profile's shape; `where` names it in errors ("profile for \"deepseek\""). */
export function validateProfile(profile: unknown, where: string): HarnessProfile {
  const fail = (problem: string): never => {
    throw new ConfigurationError("INVALID_PROFILE", `Harness ${where}: ${problem}`);
  };
  if (typeof profile !== "object" || profile === null || Array.isArray(profile)) {
    return fail("must be an object.");
  }
  const p = profile as Record<string, unknown>;
  for (const key of Object.keys(p)) {
    if (!(PROFILE_FIELDS as readonly string[]).includes(key)) {
      fail(`unknown field "${key}". Fields: ${PROFILE_FIELDS.join(", ")}.`);
    }
  }
  for (const key of ["baseSystemPrompt", "systemPromptSuffix"] as const) {
    if (p[key] !== undefined && typeof p[key] !== "string") fail(`${key} must be a string.`);
  }
  for (const key of ["excludedTools", "excludedMiddleware"] as const) {
    if (p[key] !== undefined && !stringList(p[key])) fail(`${key} must be a list of names.`);
  }
  const required = ((p.excludedMiddleware as string[] | undefined) ?? []).filter((name) =>
    (REQUIRED_MIDDLEWARE as readonly string[]).includes(name),
  );
  if (required.length) {
    fail(
      `excludedMiddleware cannot remove ${required.join(", ")}: it is the harness's skeleton. Narrow its tools instead (filesystemMiddleware({ tools }) or excludedTools).`,
    );
  }
  const overrides = p.toolDescriptionOverrides;
  if (overrides !== undefined) {
    if (typeof overrides !== "object" || overrides === null || Array.isArray(overrides)) {
      fail("toolDescriptionOverrides must map tool names to descriptions.");
    }
    for (const [name, text] of Object.entries(overrides as object)) {
      if (typeof text !== "string" || !text.trim())
        fail(`toolDescriptionOverrides.${name} must be a non-empty string.`);
    }
  }
  if (p.extraMiddleware !== undefined) {
    const list = p.extraMiddleware;
    if (!Array.isArray(list) || list.some((m) => typeof m?.name !== "string")) {
      fail("extraMiddleware must be a list of middleware built with createMiddleware.");
    }
  }
  const gp = p.generalPurposeSubagent as Record<string, unknown> | undefined;
  if (gp !== undefined) {
    if (typeof gp !== "object" || gp === null) fail("generalPurposeSubagent must be an object.");
    for (const key of Object.keys(gp)) {
      if (!["enabled", "description", "systemPrompt", "mode"].includes(key)) {
        fail(
          `generalPurposeSubagent has unknown field "${key}" (enabled, description, systemPrompt, mode).`,
        );
      }
    }
    if (gp.mode !== undefined && gp.mode !== "isolated" && gp.mode !== "fork")
      fail(
        `generalPurposeSubagent.mode must be "isolated" or "fork" (got ${JSON.stringify(gp.mode)}).`,
      );
    if (gp.enabled !== undefined && typeof gp.enabled !== "boolean")
      fail("generalPurposeSubagent.enabled must be a boolean.");
  }
  return p as HarnessProfile;
}
