export { ConfigurationError } from "./configuration-error.js";
export { DelveError } from "./delve-error.js";
export { MissingProviderError } from "./missing-provider-error.js";
export { NotImplementedError } from "./not-implemented-error.js";
