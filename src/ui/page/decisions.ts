// What a paused thread waits on, with the buttons that answer it: approvals (Approve, Reject
// with a reason, Approve edited when one call waits) and `ask_user` questions (a choice or
// free text). One POST answers the whole pause, exactly once: the server's claim makes a
// second tab or the CLI the loser, told "already decided".
import { el, type Json, post } from "./dom.js";

// One question's form; `value()` is its answer decision, or undefined when none is given.
function questionNode(q: Json, index: number): { node: HTMLElement; value: () => Json } {
  const node = el("div", { class: "question" }, el("div", { class: "question-text" }, q.question));
  if (q.error) node.append(el("p", { class: "result error" }, q.error));
  const boxes: HTMLInputElement[] = [];
  for (const choice of q.choices ?? []) {
    const input = el("input", {
      type: q.multiple ? "checkbox" : "radio",
      name: `question-${index}`,
      value: choice,
      class: "choice",
    }) as HTMLInputElement;
    boxes.push(input);
    node.append(el("label", { class: "choice-label" }, input, choice));
  }
  const text = el("input", {
    class: "answer-text",
    placeholder: q.choices?.length ? "or type an answer" : "your answer",
  }) as HTMLInputElement;
  node.append(el("div", {}, text));
  const value = () => {
    const choices = boxes.filter((b) => b.checked).map((b) => b.value);
    if (choices.length) return { type: "answer", choices };
    return text.value.trim() ? { type: "answer", text: text.value } : undefined;
  };
  return { node, value };
}

/** The pause's panel; `after` redraws the thread, with what the server said when it refused. */
export function pendingNode(
  threadId: string,
  calls: Json[],
  questions: Json[],
  after: (told?: string) => void,
): HTMLElement {
  const box = el("section", { class: "pending", id: "pending-calls" });
  const note = el("span", { class: "note decide-note" });
  const asked = questions.map(questionNode);
  // Approvals first, then one answer per question, as the engine takes them.
  const decide = async (approvals: Json[]) => {
    const answers = asked.map((a) => a.value());
    if (answers.some((a) => a === undefined)) {
      note.textContent = "answer every question first";
      return;
    }
    note.textContent = "running…";
    let told: string | undefined;
    try {
      await post(`/api/threads/${encodeURIComponent(threadId)}/decide`, {
        decisions: [...approvals, ...answers],
      });
    } catch (error) {
      told = (error as Error).message;
    }
    after(told);
  };
  if (questions.length) {
    box.append(el("h3", {}, "Asked you"), ...asked.map((a) => a.node));
    if (!calls.length) {
      const answer = el("button", { class: "answer" }, "Answer");
      answer.addEventListener("click", () => void decide([]));
      box.append(el("div", {}, answer, note));
      return box;
    }
  }
  box.append(el("h3", {}, "Waiting for approval"));
  for (const call of calls) {
    box.append(el("div", { class: "call" }, `${call.tool}(${JSON.stringify(call.args, null, 1)})`));
  }
  const reason = el("input", { placeholder: "reason (for reject)", class: "reason" });
  const approve = el("button", { class: "approve" }, "Approve");
  const reject = el("button", { class: "reject" }, "Reject");
  approve.addEventListener("click", () => void decide(calls.map(() => ({ type: "approve" }))));
  reject.addEventListener("click", () => {
    const message = (reason as HTMLInputElement).value;
    void decide(calls.map(() => (message ? { type: "reject", message } : { type: "reject" })));
  });
  box.append(el("div", {}, approve, reject, reason, note));
  if (calls.length === 1 && calls[0].decisions.includes("edit")) {
    const args = el("textarea", { class: "edit-args", rows: "4", cols: "60" });
    (args as HTMLTextAreaElement).value = JSON.stringify(calls[0].args, null, 1);
    const edit = el("button", { class: "edit" }, "Approve edited");
    edit.addEventListener("click", () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse((args as HTMLTextAreaElement).value);
      } catch {
        note.textContent = "the arguments are not JSON";
        return;
      }
      void decide([{ type: "edit", args: parsed }]);
    });
    box.append(el("div", {}, args, edit));
  }
  return box;
}
