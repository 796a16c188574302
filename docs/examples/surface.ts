import { createDeepAgent, inspectSurface } from "delve";
import { model } from "./fixtures.js";

const agent = createDeepAgent({ model, memory: ["/AGENTS.md"] });
const context = { userId: "u-1" }; // what invoke(input, { context }) would pass
const files = { "/AGENTS.md": "Cite file paths." }; // seeds the state the prompt is built from

const report = await inspectSurface(agent, { context, files }); // both optional (InspectSurfaceOptions)
// SurfaceReport: { registered, visible, hidden: [{ name, reason }], tools: SurfaceTool[]
//   ({ name, source, server?, chars, tokens, definition }), totalChars, totalTokens, systemPrompt,
//   systemPromptChars, modelKey, modelKeySource, profilesApplied, warnings,
//   approval: what pauses for a human, e.g. ["interruptOn.delete_order"],
//   deferred?: the tools search_tools loads (DeferredSurface, see deferral.md) }
console.log(report.visible, report.totalChars, report.systemPrompt);
