import type { RunDecision, RunQuestion } from "../run/events.js";
import type { Line } from "./lines.js";

/** An `ask_user` question as lines: the question, its numbered choices, how to answer. */
export function questionLines(q: RunQuestion): { title: Line[]; body: Line[]; choices: Line[] } {
  return {
    title: [{ text: `? ${q.question}`, tone: "warn", bold: true }],
    body: [
      ...(q.choices ?? []).map((c, i) => ({ text: `${i + 1}. ${c}`, indent: 2 })),
      ...(q.error ? [{ text: q.error, tone: "error" as const, indent: 2 }] : []),
    ],
    choices: [
      {
        text: q.choices?.length
          ? `type ${q.multiple ? "numbers (1,3)" : "a number"} or your own answer; Enter sends`
          : "type your answer; Enter sends",
        tone: "accent",
      },
    ],
  };
}

/** What the user typed as an answer: numbers pick choices, anything else is free text. */
export function answerOf(text: string, q: RunQuestion): Extract<RunDecision, { type: "answer" }> {
  const choices = q.choices ?? [];
  if (choices.length && /^\d+(\s*,\s*\d+)*$/.test(text)) {
    const picked = text.split(",").map((n) => choices[Number(n.trim()) - 1]);
    if (picked.every((c) => c !== undefined) && (q.multiple || picked.length === 1))
      return { type: "answer", choices: picked as string[] };
  }
  return { type: "answer", text };
}
