export { type ProfileKey, profileKeyOf } from "./keys.js";
export { mergeProfiles } from "./merge.js";
export {
  getHarnessProfile,
  registerHarnessProfile,
  resetHarnessProfiles,
  unregisterHarnessProfile,
} from "./registry.js";
export { type ResolvedProfile, resolveProfile } from "./resolve.js";
export type { GeneralPurposeSubagentConfig, HarnessProfile } from "./types.js";
export { REQUIRED_MIDDLEWARE } from "./validate.js";
