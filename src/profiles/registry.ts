import { ConfigurationError } from "../errors/configuration-error.js";
import { mergeProfiles } from "./merge.js";
import type { HarnessProfile } from "./types.js";
import { validateProfile } from "./validate.js";

const REGISTRY = Symbol.for("delve.harnessProfiles.v1");

// One registry per process, even with two copies of the package installed.
function registry(): Map<string, HarnessProfile> {
  const holder = globalThis as unknown as Record<symbol, Map<string, HarnessProfile>>;
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

function checkKey(key: unknown): string {
  if (typeof key !== "string" || !/^(\*|[a-z0-9_.-]+(:[^\s]+)?)$/i.test(key)) {
    throw new ConfigurationError(
      "INVALID_PROFILE_KEY",
      `Harness profile key ${JSON.stringify(key)} must be "*", "provider" or "provider:model" (e.g. "deepseek" or "deepseek:deepseek-v4-flash").`,
    );
  }
  return key.toLowerCase().startsWith("*") ? "*" : key;
}

/**
 * Registers a harness profile for every model (`"*"`), a provider (`"openai"`) or one model
 * (`"openai:gpt-5.5"`). Registering a key again merges into the old profile (exclusions by
 * union). Agents built afterwards pick it up; a model-exact profile merges over the
 * provider's, which merges over `"*"`.
 *
 * @example
 * registerHarnessProfile("deepseek:deepseek-v4-flash", { excludedTools: ["delete"] });
 */
export function registerHarnessProfile(key: string, profile: HarnessProfile): void {
  const k = checkKey(key);
  const valid = validateProfile(profile, `profile for "${k}"`);
  const old = registry().get(k);
  registry().set(k, old ? mergeProfiles(old, valid) : { ...valid });
}

/**
 * Removes the profile registered under `key`. Returns whether one was there.
 *
 * @example
 * unregisterHarnessProfile("deepseek");
 */
export function unregisterHarnessProfile(key: string): boolean {
  return registry().delete(checkKey(key));
}

/**
 * Removes every registered profile (tests use it to start clean).
 *
 * @example
 * afterEach(() => resetHarnessProfiles());
 */
export function resetHarnessProfiles(): void {
  registry().clear();
}

/**
 * The profile registered under exactly `key`, or undefined (no merging).
 *
 * @example
 * getHarnessProfile("deepseek")?.excludedTools
 */
export function getHarnessProfile(key: string): HarnessProfile | undefined {
  const found = registry().get(checkKey(key));
  return found ? { ...found } : undefined;
}
