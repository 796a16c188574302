// Run budgets and the loop guard of `createDeepAgent({ limits })`.
export { readBudget } from "./budget.js";
export { readLimitHit } from "./middleware.js";
export type { BudgetCounts, LimitHit, LoopGuardSettings, RunLimits } from "./types.js";
