// The ask-user folder's boundary: the `ask_user` tool's question and answer, and the helper
// that reads a pending question. Every name here is public API, re-exported by the root.

export type { AskUserOption } from "./middleware.js";
export { type PendingQuestion, pendingQuestions } from "./pending.js";
export {
  ASK_USER_TOOL_NAME,
  isUserQuestion,
  type UserAnswer,
  type UserQuestion,
} from "./question.js";
