// The question `ask_user` pauses with and the answer it resumes with: the protocol between
// the library and whatever asks the human (a CLI, the viewer, an eval's script). A leaf.

/** The tool that asks the user a question and waits for the answer. */
export const ASK_USER_TOOL_NAME = "ask_user";

/** The name the `ask_user` middleware registers under. */
export const ASK_USER_MIDDLEWARE_NAME = "AskUserMiddleware";

/** Choices one question may offer at most. */
export const MAX_CHOICES = 20;

/**
 * The interrupt value `ask_user` pauses the run with. `choices` are suggestions (a free-text
 * answer is accepted too); with `multiSelect`, several may be given. After a resume that
 * could not be used, `error` says why; nothing was answered, resume again.
 */
export interface UserQuestion {
  type: "ask_user";
  question: string;
  choices?: string[];
  multiSelect: boolean;
  /** The `ask_user` tool call this question belongs to. */
  toolCallId: string;
  error?: string;
}

/**
 * What to resume an `ask_user` interrupt with: `new Command({ resume: { answer } })`, one
 * string, or a list for a multi-select question. A bare string is accepted as `{ answer }`.
 */
export interface UserAnswer {
  answer: string | string[];
}

/** True for the interrupt value of an `ask_user` call. */
export function isUserQuestion(value: unknown): value is UserQuestion {
  const v = value as Partial<UserQuestion> | null;
  return v?.type === "ask_user" && typeof v.question === "string";
}

/** The answers a resume value holds, or why it cannot answer `question`. */
export function readAnswer(
  question: UserQuestion,
  value: unknown,
): { answers: string[] } | { problem: string } {
  const raw = typeof value === "string" ? value : (value as Partial<UserAnswer> | null)?.answer;
  const list = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(list) || list.some((a) => typeof a !== "string")) {
    return {
      problem:
        'The resume value must be { answer: "text" } (or a list of strings for a multi-select question).',
    };
  }
  const answers = list.map((a) => a.trim()).filter(Boolean);
  if (answers.length === 0) return { problem: "The answer is empty." };
  if (!question.multiSelect && answers.length > 1) {
    return { problem: `This question takes one answer; ${answers.length} were given.` };
  }
  return { answers };
}
