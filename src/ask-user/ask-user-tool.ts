import { ToolMessage } from "@langchain/core/messages";
import { interrupt } from "@langchain/langgraph";
import { claimFirstValue } from "../approval/once.js";
import { defineTool } from "../filesystem/tools/define-tool.js";
import { toolCallIdOf } from "../filesystem/tools/tool-output.js";
import { ASK_USER_TOOL_NAME, MAX_CHOICES, readAnswer, type UserQuestion } from "./question.js";

/** What `ask_user` tells the model by default. */
export const ASK_USER_DESCRIPTION =
  "Ask the user a question and wait for the answer. Use it only when you cannot go on without a decision or a fact that only the user has; otherwise decide yourself. Offer choices when the answer is one of a few; the user may still answer in their own words.";

const ALREADY_ANSWERED =
  "Already answered: another resume answered this question first, with another answer. This answer was not used.";

/**
 * Builds `ask_user`: it pauses the run with a `UserQuestion` interrupt and returns the
 * answer as its result. Code before `interrupt()` runs again on every resume, so this tool
 * does nothing there; a resume value it cannot use re-asks with `error` set (throwing would
 * save the bad value for good), and the first answer claimed for a question stands.
 */
export function createAskUserTool(description = ASK_USER_DESCRIPTION) {
  return defineTool<{ question: string; choices?: string[]; multi_select?: boolean }>({
    name: ASK_USER_TOOL_NAME,
    description,
    schema: {
      type: "object",
      properties: {
        question: { type: "string", minLength: 1, description: "One clear question." },
        choices: {
          type: "array",
          items: { type: "string" },
          maxItems: MAX_CHOICES,
          description: "Suggested answers, when the answer is one of a few.",
        },
        multi_select: {
          type: "boolean",
          description: "True when the user may pick several choices.",
        },
      },
      required: ["question"],
    },
    run: async ({ question, choices, multi_select }, config) => {
      const toolCallId = toolCallIdOf(config);
      const asked: UserQuestion = {
        type: "ask_user",
        question,
        ...(choices?.length ? { choices } : {}),
        multiSelect: multi_select === true,
        toolCallId,
      };
      let error: string | undefined;
      // Each pass is one interrupt(); on resume the earlier ones return their saved values.
      for (;;) {
        const value = interrupt(error ? { ...asked, error } : asked);
        const read = readAnswer(asked, value);
        if ("problem" in read) {
          error = read.problem;
          continue;
        }
        if (!(await claimFirstValue("user-answer", `${toolCallId}\0${question}`, read.answers))) {
          error = ALREADY_ANSWERED;
          continue;
        }
        const text = asked.multiSelect
          ? `The user chose: ${read.answers.join(", ")}`
          : `The user answered: ${read.answers[0]}`;
        return new ToolMessage({
          content: text,
          tool_call_id: toolCallId,
          name: ASK_USER_TOOL_NAME,
        });
      }
    },
  });
}
