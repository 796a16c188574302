// The errors Delve throws to developers. Every name here is public API: each class owns a
// marker, so its `isInstance` holds across package copies, and its codes form a union.

export {
  CONFIGURATION_ERROR_CODES,
  ConfigurationError,
  type ConfigurationErrorCode,
} from "./configuration-error.js";
export { DelveError } from "./delve-error.js";
export {
  MISSING_PROVIDER_ERROR_CODES,
  MissingProviderError,
  type MissingProviderErrorCode,
} from "./missing-provider-error.js";
export {
  MODEL_CALL_ERROR_CODES,
  ModelCallError,
  type ModelCallErrorCode,
  type ModelCallFailure,
} from "./model-call-error.js";
