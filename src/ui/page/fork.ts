// "Run from here": fork a thread at a step with an edited message (LangGraph time travel into
// a new thread). A step that holds the task forks from before it, with the task to edit; any
// other resting step forks from after it with a new message. A step whose tool calls have no
// result yet cannot take a message (the provider needs each call answered), so it has no button.
import { el, type Json, post } from "./dom.js";

/** Where each step can fork from, oldest first: undefined when it cannot. */
export function forkPoints(
  steps: Json[],
): Array<{ checkpoint: string | null; message: string } | undefined> {
  const open = new Set<string>();
  return steps.map((s) => {
    const human = s.messages.find((m: Json) => m.role === "human");
    for (const m of s.messages) {
      for (const c of m.tool_calls ?? []) open.add(c.id);
      if (m.role === "tool") open.delete(m.tool_call_id);
    }
    if (human) return { checkpoint: s.parent_id, message: human.text };
    if (open.size || !s.messages.length) return undefined;
    return { checkpoint: s.checkpoint_id, message: "" };
  });
}

/** The button and (once clicked) the form of one step's fork; `go` opens the new thread. */
export function forkButton(
  threadId: string,
  point: { checkpoint: string | null; message: string },
  go: (id: string) => void,
): HTMLElement {
  const box = el("div", { class: "fork" });
  const button = el(
    "button",
    { class: "fork-button" },
    point.message ? "Edit and run from here" : "Run from here",
  );
  box.append(button);
  box.addEventListener("click", (event) => event.stopPropagation());
  button.addEventListener("click", () => {
    const text = el("textarea", { class: "fork-message", rows: "3", cols: "60" });
    (text as HTMLTextAreaElement).value = point.message;
    const run = el("button", { class: "fork-run" }, "Run the fork");
    const note = el("span", { class: "note fork-note" });
    run.addEventListener("click", async () => {
      const message = (text as HTMLTextAreaElement).value;
      if (!message.trim()) {
        note.textContent = "type the message the fork runs";
        return;
      }
      note.textContent = "starting…";
      try {
        const body = { checkpoint_id: point.checkpoint, message };
        const out = await post(`/api/threads/${encodeURIComponent(threadId)}/fork`, body);
        go(out.thread_id);
      } catch (error) {
        note.textContent = (error as Error).message;
      }
    });
    box.replaceChildren(text, el("div", {}, run, note));
  });
  return box;
}

/** "forked from PARENT at step N", linking to the parent; undefined for a thread never forked. */
export function parentNote(parent: Json): HTMLElement | undefined {
  if (!parent) return undefined;
  return el(
    "span",
    { class: "parent" },
    "forked from ",
    el(
      "a",
      {
        href: `#/thread/${encodeURIComponent(parent.thread_id)}${parent.checkpoint_id ? `/${encodeURIComponent(parent.checkpoint_id)}` : ""}`,
      },
      parent.thread_id.slice(0, 8),
    ),
    // Step -1 is the empty checkpoint before the task was applied.
    parent.checkpoint_id && parent.step >= 0 ? ` at step ${parent.step}` : " before its first step",
  );
}
