import { commandProblem } from "../../backends/protocol/command-input.js";
import type { FsToolContext } from "../fs-context.js";
import { defineTool } from "./define-tool.js";
import { errorMessage } from "./tool-output.js";

export const EXECUTE_TOOL_NAME = "execute";

/** The `execute` description, mentioning only tools the model can see. */
export function executeDescription(ctx: Pick<FsToolContext, "mentions" | "execution">): string {
  const fileTools = ["read_file", "edit_file", "grep"].filter(ctx.mentions);
  const prefer = fileTools.length ? ` Prefer ${fileTools.join(", ")} for file work.` : "";
  const facts = ctx.execution;
  if (!facts) {
    return `Run a shell command in the workspace; returns its output and exit code. Long commands are killed at the timeout and output is capped.${prefer}`;
  }
  const where = facts.isolated
    ? `in an isolated sandbox${facts.network ? "" : " with no network"}`
    : `on the host as this process's user, NOT isolated (it can ${facts.network ? "reach the network and " : ""}change anything that user can)`;
  const root = facts.workdir.replace(/\/+$/, "");
  return `Run a shell command ${where}; returns its output and exit code. It starts in ${root}, which is / in the file tools (${root}/src/a.js is /src/a.js). Killed after ${facts.timeoutSeconds} s; output is capped.${prefer}`;
}

/** Builds the `execute` tool. Called when the backend cannot execute, it answers an error. */
export function createExecuteTool(ctx: FsToolContext) {
  return defineTool<{ command: string }>({
    name: EXECUTE_TOOL_NAME,
    description: executeDescription(ctx),
    schema: {
      type: "object",
      properties: { command: { type: "string", minLength: 1 } },
      required: ["command"],
    },
    run: async ({ command }, config) => {
      if (!ctx.backend.execute) {
        return errorMessage(
          config,
          EXECUTE_TOOL_NAME,
          "command execution is not available with this agent's file system.",
        );
      }
      const problem = commandProblem(command);
      if (problem) return errorMessage(config, EXECUTE_TOOL_NAME, problem);
      // The run's or the tool timeout's signal kills the command's process tree.
      const signal = (config as { signal?: AbortSignal } | undefined)?.signal;
      const result = await ctx.backend.execute(command, signal ? { signal } : undefined);
      if (result.error && !result.output) {
        return errorMessage(config, EXECUTE_TOOL_NAME, result.error.message);
      }
      const notes: string[] = [];
      if (result.timedOut) notes.push("[Killed at the timeout]");
      else notes.push(`[Exit code ${result.exitCode ?? "unknown"}]`);
      if (result.truncated) notes.push("[Output truncated at the size limit]");
      return `${result.output}${result.output.endsWith("\n") || !result.output ? "" : "\n"}${notes.join("\n")}`;
    },
  });
}
