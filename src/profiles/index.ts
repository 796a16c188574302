// The profiles folder's boundary: the harness profile registry. Every name here is public API,
// re-exported by the package root.

export {
  getHarnessProfile,
  registerHarnessProfile,
  resetHarnessProfiles,
  unregisterHarnessProfile,
} from "./registry.js";
export type { GeneralPurposeSubagentConfig, HarnessProfile } from "./types.js";
