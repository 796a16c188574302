import { createMiddleware } from "langchain";
import { ConfigurationError } from "../errors/configuration-error.js";
import { createAskUserTool } from "./ask-user-tool.js";
import { ASK_USER_MIDDLEWARE_NAME } from "./question.js";

/** The `askUser` option of `createDeepAgent`: `true`, or the tool's description. */
export type AskUserOption = boolean | { description: string };

/**
 * Owns `ask_user`, which pauses the run with a `UserQuestion` interrupt until the user
 * answers (`new Command({ resume: { answer } })`). `createDeepAgent({ askUser: true })` adds
 * it to the agent and its subagents; it needs a checkpointer.
 */
export function askUserMiddleware(option: Exclude<AskUserOption, false> = true) {
  const description = typeof option === "object" ? option.description : undefined;
  return createMiddleware({
    name: ASK_USER_MIDDLEWARE_NAME,
    tools: [createAskUserTool(description)],
  });
}

/** Checks the `askUser` option at construction. */
export function validateAskUser(value: unknown): AskUserOption {
  if (value === undefined) return false;
  if (typeof value === "boolean") return value;
  const description = (value as { description?: unknown } | null)?.description;
  if (typeof description === "string" && description.trim()) return { description };
  throw new ConfigurationError(
    "INVALID_OPTION",
    "askUser must be true, false, or { description } with the ask_user tool's description.",
  );
}
