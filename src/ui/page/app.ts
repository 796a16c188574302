// The `delve ui` page: plain DOM. Every string from a run goes in through textContent (never
// innerHTML), so a `<script>` in a file or an answer is shown, never run.

import { surfaceSection, usageSection } from "./charts.js";
import { pendingNode } from "./decisions.js";
import { api, el, type Json, money, post, status, tokens } from "./dom.js";
import { evalTaskView, evalView } from "./eval-view.js";
import { filesPanel } from "./files-panel.js";
import { forkButton, forkPoints, parentNote } from "./fork.js";

const main = document.getElementById("main")!;
const live = document.getElementById("live")!;
let timer: number | undefined;
let shown = "";
let drawn = "";
// What the last decision was told (e.g. "already decided"), until the next navigation.
let notice = "";

function render(view: HTMLElement) {
  if (view.id !== "thread-view") drawn = "";
  main.replaceChildren(view);
}

async function threadsView(filter: string) {
  const data = await api(`/api/threads${filter ? `?status=${encodeURIComponent(filter)}` : ""}`);
  const select = el("select", { id: "status-filter" });
  for (const s of ["", "completed", "paused", "failed", "running"]) {
    const option = el("option", { value: s }, s || "all statuses") as HTMLOptionElement;
    option.selected = s === filter;
    select.append(option);
  }
  select.addEventListener("change", () => {
    location.hash = `#/?status=${(select as HTMLSelectElement).value}`;
  });
  const rows = data.threads.map((t: Json) =>
    el(
      "tr",
      { class: "thread-row" },
      el("td", {}, el("a", { href: `#/thread/${encodeURIComponent(t.id)}` }, t.id.slice(0, 8))),
      el("td", { class: "title" }, t.title, parentNote(t.parent)),
      el("td", {}, status(t.status)),
      el("td", {}, String(t.turns)),
      el("td", {}, tokens(t.tokens)),
      el("td", { class: "cost" }, money(t.cost_usd)),
      el("td", {}, t.updated_at),
    ),
  );
  const head = el(
    "tr",
    {},
    ...["thread", "task", "status", "turns", "tokens", "cost", "updated"].map((h) =>
      el("th", {}, h),
    ),
  );
  render(
    el(
      "section",
      { id: "threads" },
      el("h2", {}, "Threads ", select),
      el("table", {}, head, ...rows),
      el("p", { class: "note" }, `${data.total} thread(s)`),
    ),
  );
}

function messageNode(m: Json): HTMLElement {
  const box = el("div", { class: `msg msg-${m.role}` }, el("span", { class: "role" }, m.role));
  if (m.role === "tool") {
    const result = el(
      "div",
      { class: `result${m.status === "error" ? " error" : ""}` },
      `${m.name} → ${m.status}\n${m.text}`,
    );
    box.append(m.subagent ? subagentNode(m.subagent, result) : result);
    return box;
  }
  if (m.text) box.append(el("span", { class: "text" }, m.text));
  for (const c of m.tool_calls ?? []) {
    box.append(el("div", { class: "call" }, `${c.name}(${JSON.stringify(c.args, null, 1)})`));
  }
  return box;
}

// A subagent's run nested under its task call, collapsed: its task, its model calls, its answer.
function subagentNode(run: Json, result: HTMLElement): HTMLElement {
  const cost = run.calls.reduce(
    (sum: number | null, c: Json) =>
      sum === null || c.cost_usd === null ? null : sum + c.cost_usd,
    0,
  );
  const details = el(
    "details",
    { class: "subagent" },
    el("summary", {}, `subagent ${run.name} · ${run.calls.length} model call(s) · ${money(cost)}`),
    el("div", { class: "call subagent-task" }, run.description),
  );
  for (const c of run.calls) {
    details.append(
      el(
        "div",
        { class: "note subagent-call" },
        `${c.model} ${c.input}/${c.output} ${money(c.cost_usd)}`,
      ),
    );
  }
  details.append(result);
  details.addEventListener("click", (event) => event.stopPropagation());
  return details;
}

// Steps with content a thread's timeline shows at first; the threads whose "Show all" was used.
const PAGE = 200;
const showAll = new Set<string>();

// The thread last drawn: selecting another of its steps redraws only the selection and files.
let current: { id: string; t: Json } | undefined;

async function threadView(
  id: string,
  checkpoint: string | undefined,
  reselect: boolean,
  fetched?: Promise<Json>,
) {
  const view = main.querySelector("#thread-view");
  if (reselect && view && current?.id === id) {
    const steps: Json[] = current.t.steps;
    const index = checkpoint
      ? steps.findIndex((s) => s.checkpoint_id === checkpoint)
      : steps.length - 1;
    for (const node of view.querySelectorAll<HTMLElement>("#timeline .step")) {
      node.classList.toggle("selected", node.dataset.checkpoint === steps[index]?.checkpoint_id);
    }
    view.querySelector("#files")?.replaceWith(await filesPanel(id, steps, index));
    drawn = JSON.stringify([current.t, checkpoint, notice]);
    return current.t.status === "running" || current.t.status === "paused";
  }
  const t = await (fetched ?? api(`/api/threads/${encodeURIComponent(id)}`));
  current = { id, t };
  // Polling redraws only on change, so a reason being typed is kept.
  const key = JSON.stringify([t, checkpoint, notice]);
  if (key === drawn && main.firstChild) return t.status === "running" || t.status === "paused";
  drawn = key;
  const steps: Json[] = t.steps;
  const index = checkpoint
    ? steps.findIndex((s) => s.checkpoint_id === checkpoint)
    : steps.length - 1;
  const forks = forkPoints(steps);
  const timeline = el(
    "section",
    { id: "timeline" },
    el("h3", {}, `Timeline (${steps.length} steps)`),
  );
  // A long thread shows its last PAGE steps with content (and the selected one's page); the
  // earlier ones come on "Show all", so the first paint does not wait for a thousand nodes.
  const withContent = steps.flatMap((s, i) => (s.messages.length || s.usage.length ? [i] : []));
  const at = withContent.indexOf(index);
  const first =
    showAll.has(id) || withContent.length <= PAGE
      ? 0
      : Math.min(at < 0 ? withContent.length : at, withContent.length - PAGE);
  if (first > 0) {
    const more = el(
      "button",
      { class: "show-all" },
      `Show all ${withContent.length} steps (${first} earlier)`,
    );
    more.addEventListener("click", () => {
      showAll.add(id);
      drawn = "";
      void route();
    });
    timeline.append(more);
  }
  timeline.dataset.rendered = String(withContent.length - first);
  const visible = new Set(withContent.slice(first));
  steps.forEach((s, i) => {
    if (!visible.has(i)) return;
    const cost = s.usage.length
      ? s.usage
          .map((u: Json) => `${u.model} ${u.input}/${u.output} ${money(u.cost_usd)}`)
          .join(", ")
      : "";
    const node = el(
      "div",
      { class: `step${i === index ? " selected" : ""}`, "data-checkpoint": s.checkpoint_id },
      el(
        "div",
        { class: "note" },
        `step ${s.step} · ${s.source}${s.duration_ms !== null ? ` · ${s.duration_ms} ms` : ""}${cost ? ` · ${cost}` : ""}`,
      ),
      ...s.messages.map(messageNode),
    );
    const point = forks[i];
    if (point && t.status !== "running") {
      node.append(
        forkButton(id, point, (child) => {
          location.hash = `#/thread/${encodeURIComponent(child)}`;
        }),
      );
    }
    node.addEventListener("click", () => {
      location.hash = `#/thread/${encodeURIComponent(id)}/${encodeURIComponent(s.checkpoint_id)}`;
    });
    timeline.append(node);
  });
  // The timeline shows at once; the files panel fills in when its two reads answer.
  const files = el("section", { id: "files" }, el("p", { class: "note" }, "Loading files…"));
  const header = el(
    "section",
    { id: "thread" },
    el("h2", { class: "title" }, t.title || t.id),
    el(
      "div",
      { class: "figures" },
      status(t.status),
      ` · ${t.model} · ${t.turns} turns · ${tokens(t.tokens)} · `,
      el("span", { class: "cost" }, money(t.cost_usd)),
      " · ",
      el(
        "a",
        { href: `#/charts/${encodeURIComponent(id)}`, class: "charts-link" },
        "surface and cost",
      ),
    ),
  );
  const from = parentNote(t.parent);
  if (from) header.append(el("p", { class: "note" }, from));
  if (t.error) header.append(el("p", { class: "result error" }, t.error));
  if (notice) header.append(el("p", { class: "notice" }, notice));
  const after = (told?: string) => {
    if (told) notice = told;
    void route();
  };
  if (t.pending.length || t.questions?.length) {
    header.append(pendingNode(id, t.pending, t.questions ?? [], after));
  }
  render(el("div", { id: "thread-view" }, header, el("div", { class: "layout" }, timeline, files)));
  const panel = await filesPanel(id, steps, index);
  if (files.isConnected) files.replaceWith(panel);
  return t.status === "running" || t.status === "paused";
}

async function chartsView(id: string) {
  const base = `/api/threads/${encodeURIComponent(id)}`;
  const [t, surface, usage] = await Promise.all([
    api(base),
    api(`${base}/surface`),
    api(`${base}/usage`),
  ]);
  render(
    el(
      "div",
      { id: "charts-view" },
      el(
        "h2",
        {},
        el("a", { href: `#/thread/${encodeURIComponent(id)}` }, t.title || t.id),
        " — surface and cost",
      ),
      usageSection(usage),
      surfaceSection(surface),
    ),
  );
}

async function pendingView(told = "") {
  const data = await api("/api/pending");
  const list = el("section", { id: "pending" }, el("h2", {}, "Pending approvals"));
  if (told) list.append(el("p", { class: "notice" }, told));
  const questions: Json[] = data.questions ?? [];
  // A thread also asked a question takes its answer on its own page.
  const asking = new Set(questions.map((q) => q.thread_id));
  const decidable = data.pending.filter((p: Json) => !asking.has(p.thread_id));
  if (!data.pending.length && !questions.length) {
    list.append(el("p", { class: "note" }, "Nothing is waiting."));
  }
  if (decidable.length) list.append(decideAllNode(decidable));
  for (const q of questions) {
    list.append(
      el(
        "div",
        { class: "pending question-entry" },
        el("a", { href: `#/thread/${encodeURIComponent(q.thread_id)}` }, q.title || q.thread_id),
        el("div", { class: "question-text" }, `asks: ${q.question}`),
      ),
    );
  }
  for (const p of data.pending) {
    list.append(
      el(
        "div",
        { class: "pending" },
        el("a", { href: `#/thread/${encodeURIComponent(p.thread_id)}` }, p.title || p.thread_id),
        el("div", { class: "call" }, `${p.tool}(${JSON.stringify(p.args, null, 1)})`),
      ),
    );
  }
  render(list);
}

// One decision for every call waiting in the workspace: each thread is decided (and claimed)
// on its own, so a thread decided elsewhere meanwhile is reported, the others still run.
function decideAllNode(calls: Json[]): HTMLElement {
  const byThread = new Map<string, number>();
  for (const c of calls) byThread.set(c.thread_id, (byThread.get(c.thread_id) ?? 0) + 1);
  const reason = el("input", { placeholder: "reason (for reject)", class: "reason" });
  const note = el("span", { class: "note decide-note" });
  const all = async (type: "approve" | "reject") => {
    note.textContent = "running…";
    const message = (reason as HTMLInputElement).value;
    const outcomes = await Promise.all(
      [...byThread].map(async ([thread, count]) => {
        const one = type === "reject" && message ? { type, message } : { type };
        try {
          await post(`/api/threads/${encodeURIComponent(thread)}/decide`, {
            decisions: Array.from({ length: count }, () => one),
          });
          return "decided";
        } catch (error) {
          return (error as Error).message;
        }
      }),
    );
    const decided = outcomes.filter((o) => o === "decided").length;
    const others = [...new Set(outcomes.filter((o) => o !== "decided"))];
    void pendingView(
      `${decided} thread(s) decided${others.length ? `; ${outcomes.length - decided}: ${others.join(", ")}` : ""}`,
    );
  };
  const approve = el("button", { class: "approve-all" }, `Approve all ${calls.length}`);
  const reject = el("button", { class: "reject-all" }, `Reject all ${calls.length}`);
  approve.addEventListener("click", () => void all("approve"));
  reject.addEventListener("click", () => void all("reject"));
  return el("div", { class: "decide-all" }, approve, reject, reason, note);
}

// `delve ui --eval` serves a report instead of threads: the page asks once which.
const mode: Promise<string> = api("/api/info").then(
  (i) => i.mode,
  () => "threads",
);

async function route(reselect = false) {
  if (timer !== undefined) clearTimeout(timer);
  const hash = location.hash.replace(/^#/, "") || "/";
  let poll = false;
  const thread = /^\/thread\/([^/]+)(?:\/([^/]+))?$/.exec(hash);
  // A thread's read starts with the page's first request, not after the mode is known.
  const fetched = thread && !reselect ? api(`/api/threads/${thread[1]}`) : undefined;
  fetched?.catch(() => {});
  try {
    if ((await mode) === "eval") {
      document.getElementById("nav")?.replaceChildren(el("a", { href: "#/" }, "Eval report"));
      const task = /^\/eval\/(.+)$/.exec(hash);
      render(await (task ? evalTaskView(decodeURIComponent(task[1]!)) : evalView()));
      shown = hash;
      return;
    }
    const charts = /^\/charts\/([^/]+)$/.exec(hash);
    if (charts) await chartsView(decodeURIComponent(charts[1]!));
    else if (thread)
      poll = await threadView(
        decodeURIComponent(thread[1]!),
        thread[2] && decodeURIComponent(thread[2]),
        reselect,
        fetched,
      );
    else if (hash === "/pending") await pendingView();
    else await threadsView(new URLSearchParams(hash.split("?")[1] ?? "").get("status") ?? "");
  } catch (error) {
    render(el("p", { class: "result error" }, (error as Error).message));
  }
  shown = hash;
  live.textContent = poll ? "live" : "";
  // A running or paused thread is polled: steps land and decisions from elsewhere show up.
  if (poll) timer = window.setTimeout(() => shown === hash && void route(), 1500);
}

window.addEventListener("hashchange", (event) => {
  notice = "";
  // Another step of the thread on screen: no refetch, no redraw of the timeline.
  const thread = (u: string) => /#\/thread\/([^/]+)/.exec(u)?.[1];
  const same = thread(event.oldURL) !== undefined && thread(event.oldURL) === thread(event.newURL);
  void route(same);
});
void route();
