import { lintTools } from "delve";
import { getOrder, refundOrder } from "./fixtures.js";

for (const f of lintTools([getOrder, refundOrder])) {
  console.log(`${f.tool} ${f.rule}: ${f.message} Fix: ${f.fix}`);
}
