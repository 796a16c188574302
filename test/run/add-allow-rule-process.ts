/**
 * One writer of the addAllowRule race: adds `count` rules named after `id` to the project
 * config of `cwd`, starting at `startAt` (ms) so the writers overlap.
 * Usage: node --import tsx add-allow-rule-process.ts <cwd> <id> <count> <startAt>
 */
import { addAllowRule } from "../../src/run/config.js";

const [cwd, id, count, startAt] = process.argv.slice(2);
while (Date.now() < Number(startAt)) {}
for (let i = 0; i < Number(count); i++) addAllowRule(cwd!, `execute(echo ${id}-${i})`);
