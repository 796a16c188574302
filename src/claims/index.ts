// Claims: one row per unit of work, in the database of the saver or store at hand, so the
// first caller in any process owns it (approvals run a call once, idempotent() a key once).
// Internal to Delve.
export { canonicalJson } from "./canonical-json.js";
export { type ClaimTable, claimTableOf } from "./claim-table.js";
