// The `delve run` engine's leaf modules: approval rules, prices, configuration, model choice
// and usage. Not a package entry yet; every name here is meant as public API once it is.

export {
  addAllowRule,
  configSchema,
  type DelveConfig,
  loadConfig,
  mergeConfigs,
  projectConfigPath,
  readConfigFile,
  userConfigPath,
} from "./config.js";
export { chooseModel, DEFAULT_MODELS } from "./model-choice.js";
export {
  costUsd,
  KNOWN_PRICES,
  loadPriceFile,
  type ModelPrice,
  modelPriceSchema,
  PRICES_CHECKED,
  parsePrices,
  priceFileSchema,
  resolvePrice,
  type TokenCounts,
} from "./prices.js";
export {
  type ApprovalRules,
  type CallDecision,
  type CompiledRules,
  compileRules,
  decideCall,
  narrowestRule,
  narrowestRules,
  type RuleCall,
  type RuleContext,
  type RuleVerdict,
} from "./rules.js";
export {
  readUsage,
  summarizeUsage,
  USAGE_KEY,
  USAGE_MIDDLEWARE_NAME,
  type UsageRecord,
  type UsageSummary,
  type UsageTotals,
  usageMiddleware,
  usageStateSchema,
} from "./usage.js";
