// The files panel of one step: the files as they were then and the diff to the step before.
import { api, el, type Json } from "./dom.js";

function diffNode(diff: string): HTMLElement {
  const pre = el("pre", { class: "diff" });
  for (const line of diff.split("\n")) {
    const kind =
      line.startsWith("+") && !line.startsWith("+++")
        ? "add"
        : line.startsWith("-") && !line.startsWith("---")
          ? "del"
          : "";
    pre.append(el("span", kind ? { class: kind } : {}, `${line}\n`));
  }
  return pre;
}

/** The files at step `index` of the thread and that step's diff, fetched from the API. */
export async function filesPanel(id: string, steps: Json[], index: number): Promise<HTMLElement> {
  const selected = steps[index];
  const previous = index > 0 ? steps[index - 1] : undefined;
  const files = el("section", { id: "files" }, el("h3", {}, "Files at this step"));
  if (selected) {
    const q = `checkpoint=${encodeURIComponent(selected.checkpoint_id)}`;
    const [state, diff] = await Promise.all([
      api(`/api/threads/${encodeURIComponent(id)}/state?${q}`),
      api(
        `/api/threads/${encodeURIComponent(id)}/diff?to=${encodeURIComponent(selected.checkpoint_id)}${previous ? `&from=${encodeURIComponent(previous.checkpoint_id)}` : ""}`,
      ),
    ]);
    // Files changed by a shell command or a subagent are not in the checkpoint's messages.
    const outside = selected.messages
      .filter((m: Json) => m.role === "tool" && (m.name === "execute" || m.name === "task"))
      .map((m: Json) => m.name);
    if (outside.length) {
      files.append(
        el(
          "p",
          { class: "note outside-note" },
          `This step ran ${[...new Set(outside)].join(" and ")}: files it changed on disk are not shown (only write_file and edit_file are in the checkpoint).`,
        ),
      );
    }
    const names = Object.keys(state.files);
    if (!names.length) files.append(el("p", { class: "note" }, "No file changed yet."));
    for (const name of names) {
      const content = state.files[name];
      files.append(
        el("h4", {}, name),
        el("pre", { class: "file" }, content ?? "(content before the run unknown)"),
      );
    }
    files.append(el("h3", {}, "Diff to the previous step"));
    if (!diff.files.length) files.append(el("p", { class: "note" }, "No change in this step."));
    for (const d of diff.files) files.append(el("h4", {}, `${d.op} ${d.path}`), diffNode(d.diff));
  }
  return files;
}
