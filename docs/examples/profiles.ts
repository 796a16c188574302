import { createDeepAgent, registerHarnessProfile } from "delve";

registerHarnessProfile("deepseek", { excludedTools: ["write_file", "edit_file", "delete"] });
registerHarnessProfile("*", { systemPromptSuffix: "Cite file paths." });
export const agent = createDeepAgent({
  model: "deepseek:deepseek-v4-flash",
  profile: { generalPurposeSubagent: { enabled: false } },
});
