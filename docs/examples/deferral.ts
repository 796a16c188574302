// docs/examples/deferral.ts
import { createDeepAgent, inspectSurface, loadedTools } from "delve";
import { getOrder, model, refundOrder } from "./fixtures.js";

// deferTools: "auto" (default) | true | false | ["refund_order"] | (name, tool) => boolean
const agent = createDeepAgent({
  model,
  tools: [getOrder, refundOrder],
  deferTools: ["refund_order"],
});

const report = await inspectSurface(agent);
// report.visible holds search_tools, not refund_order; report.deferred (DeferredSurface):
// { tools, indexChars, indexTokens, withoutDeferral: { totalChars, totalTokens } }
console.log(report.deferred?.indexChars, report.deferred?.withoutDeferral.totalTokens);

const out = await agent.invoke({ messages: [{ role: "user", content: "Refund ORD-7" }] });
console.log(loadedTools(out)); // the tools search_tools loaded in this thread
