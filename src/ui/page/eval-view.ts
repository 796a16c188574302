// The eval report views of `delve ui --eval`: the tasks with pass/fail, then one task's runs
// with their expectations, trajectory and cost. A report is untrusted: every string goes into
// a text node, every number is shown as the server checked it.
import { api, el, type Json, money } from "./dom.js";

const verdict = (pass: boolean) =>
  el("span", { class: `status status-${pass ? "completed" : "failed"}` }, pass ? "pass" : "fail");
const percent = (v: number | null) => (v === null ? "?" : `${Math.round(v * 100)}%`);
const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v ?? null));

/** The report's summary and its tasks. */
export async function evalView(): Promise<HTMLElement> {
  const r = await api("/api/eval");
  const s = r.summary;
  const head = el(
    "tr",
    {},
    ...["task", "verdict", "pass rate", "runs", "model calls", "tokens", "cost", "reason"].map(
      (h) => el("th", {}, h),
    ),
  );
  const rows = r.tasks.map((t: Json) =>
    el(
      "tr",
      { class: "eval-task" },
      el("td", {}, el("a", { href: `#/eval/${encodeURIComponent(t.id)}`, class: "task-id" }, t.id)),
      el("td", {}, verdict(t.pass)),
      el("td", {}, percent(t.pass_rate)),
      el("td", {}, String(t.runs)),
      el("td", {}, String(t.model_calls)),
      el("td", {}, String(t.tokens)),
      el("td", { class: "cost" }, money(t.cost_usd)),
      el("td", { class: "reason" }, t.reason ?? ""),
    ),
  );
  return el(
    "section",
    { id: "eval" },
    el("h2", { class: "title" }, `Eval: ${r.task_set}`),
    el(
      "p",
      { class: "figures" },
      `${s.tasks ?? "?"} tasks: ${s.passed ?? "?"} passed, ${s.failed ?? "?"} failed (${percent(s.pass_rate)}) · ${s.model_calls ?? "?"} model calls · ${s.tokens ?? "?"} tokens · `,
      el("span", { class: "cost eval-cost" }, money(s.cost_usd)),
      ` · ${r.mode}${r.model ? ` · ${r.model}` : ""} · ${r.started_at}`,
    ),
    el("table", {}, head, ...rows),
  );
}

function eventNode(e: Json): HTMLElement {
  if (e?.kind === "model") {
    const box = el(
      "div",
      { class: "msg msg-ai" },
      el(
        "span",
        { class: "note" },
        `model call ${text(e.step)}${e.usage ? ` · ${text(e.usage.input)}/${text(e.usage.output)} tok` : ""}${typeof e.cost === "number" ? ` · ${money(e.cost)}` : ""}${typeof e.ms === "number" ? ` · ${e.ms} ms` : ""}`,
      ),
    );
    if (e.text) box.append(" ", el("span", { class: "text" }, text(e.text)));
    for (const c of Array.isArray(e.toolCalls) ? e.toolCalls : []) {
      box.append(
        el("div", { class: "call" }, `${text(c?.name)}(${JSON.stringify(c?.args ?? {})})`),
      );
    }
    return box;
  }
  if (e?.kind === "tool") {
    return el(
      "div",
      { class: "msg msg-tool" },
      el(
        "div",
        { class: `result${e.failed ? " error" : ""}` },
        `${text(e.name)} → ${e.failed ? `failed${e.code ? ` (${text(e.code)})` : ""}` : "ok"}\n${text(e.content)}`,
      ),
    );
  }
  return el("div", { class: "msg note" }, `approval: ${text(e?.tools)} → ${text(e?.decisions)}`);
}

/** One task: each run's verdict, expectations, answer, trajectory and cost. */
export async function evalTaskView(id: string): Promise<HTMLElement> {
  const t = await api(`/api/eval/tasks/${encodeURIComponent(id)}`);
  const view = el(
    "section",
    { id: "eval-task" },
    el("h2", {}, el("a", { href: "#/" }, "Eval"), " / ", el("span", { class: "title" }, t.id)),
    el(
      "p",
      { class: "figures" },
      verdict(t.pass),
      ` · ${percent(t.pass_rate)} of ${t.runs} run(s) · `,
      el("span", { class: "cost" }, money(t.cost_usd)),
    ),
  );
  for (const run of t.detail) {
    const checks = el("ul", { class: "expectations" });
    for (const x of Array.isArray(run?.expectations) ? run.expectations : []) {
      checks.append(
        el(
          "li",
          { class: x?.pass ? "pass" : "fail" },
          `${x?.pass ? "✓" : "✗"} ${text(x?.label)}${x?.reason ? ` — ${text(x.reason)}` : ""}`,
        ),
      );
    }
    const trajectory = el("div", { class: "trajectory" });
    for (const e of Array.isArray(run?.trajectory) ? run.trajectory : [])
      trajectory.append(eventNode(e));
    view.append(
      el(
        "div",
        { class: "eval-run" },
        el(
          "h3",
          {},
          `run ${text(run?.run)} `,
          verdict(run?.pass === true),
          " ",
          el(
            "span",
            { class: "cost run-cost" },
            money(typeof run?.cost === "number" ? run.cost : null),
          ),
        ),
        run?.error ? el("p", { class: "result error" }, text(run.error)) : undefined,
        checks,
        el("h4", {}, "Answer"),
        el("pre", { class: "answer" }, text(run?.answer)),
        el("h4", {}, "Trajectory"),
        trajectory,
      ),
    );
  }
  return view;
}
