import type { ReportComparison } from "./compare.js";
import { type EvalReport, meanOf, type RunReport } from "./report.js";
import type { TrajectoryEvent } from "./types.js";

const esc = (value: unknown) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const clip = (text: string, max = 600) => (text.length > max ? `${text.slice(0, max)}…` : text);
const json = (value: unknown) => clip(JSON.stringify(value) ?? "");

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2330;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.meta{color:#5a6172;margin-bottom:16px}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #d5d9e2;padding:5px 8px;text-align:left;vertical-align:top}
th{background:#eef1f6}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;font-weight:600}
.pass .badge,.badge.pass{background:#1f8a4c}.fail .badge,.badge.fail{background:#c62f2f}
tr.fail td{background:#fff2f2}tr.pass td{background:#f1fbf5}
ol.timeline{list-style:none;margin:0;padding:0 0 0 18px;border-left:3px solid #c4cad6}
ol.timeline li{position:relative;margin:0 0 10px;padding:6px 10px;border-radius:6px;background:#f6f7fa}
ol.timeline li::before{content:"";position:absolute;left:-27px;top:10px;width:12px;height:12px;border-radius:50%;background:#6b7a99}
ol.timeline li.ev-model::before{background:#3b6fd8}ol.timeline li.ev-tool.failed{background:#fff0f0}
ol.timeline li.ev-tool.failed::before{background:#c62f2f}ol.timeline li.ev-approval::before{background:#d89b1f}
code,pre{font:12px/1.4 ui-monospace,monospace}pre{white-space:pre-wrap;margin:4px 0 0}
.reason{color:#a32020}.worse{color:#c62f2f}.better{color:#1f8a4c}
`;

function eventItem(e: TrajectoryEvent): string {
  if (e.kind === "model") {
    const calls = e.toolCalls
      .map((c) => `<div>→ <code>${esc(c.name)}</code> <code>${esc(json(c.args))}</code></div>`)
      .join("");
    const usage = e.usage ? ` · ${e.usage.total} tokens` : "";
    return `<li class="ev-model"><b>model step ${e.step}</b><small>${esc(usage)}${e.ms !== undefined ? ` · ${e.ms} ms` : ""}</small>${e.text ? `<pre>${esc(clip(e.text))}</pre>` : ""}${calls}</li>`;
  }
  if (e.kind === "tool") {
    return `<li class="ev-tool${e.failed ? " failed" : ""}"><b>${esc(e.name)}</b> <code>${esc(json(e.args))}</code>${e.failed ? ` <span class="badge fail">failed${e.code ? `: ${esc(e.code)}` : ""}</span>` : ""}<pre>${esc(clip(e.content, 400))}</pre></li>`;
  }
  return `<li class="ev-approval"><b>approval</b> ${e.tools.map((t, i) => `<code>${esc(t)}</code>: ${esc(e.decisions[i] ?? "?")}`).join(", ")}</li>`;
}

function runSection(id: string, run: RunReport, runs: number): string {
  const verdicts = run.expectations
    .map(
      (v) =>
        `<li class="${v.pass ? "pass" : "fail"}"><span class="badge">${v.pass ? "pass" : "fail"}</span> <code>${esc(v.label)}</code>${v.reason ? ` <span class="reason">${esc(v.reason)}</span>` : ""}</li>`,
    )
    .join("");
  return `<section class="task ${run.pass ? "pass" : "fail"}" id="task-${esc(id)}${runs > 1 ? `-${run.run}` : ""}">
<h2>${esc(id)}${runs > 1 ? ` (run ${run.run + 1})` : ""} <span class="badge">${run.pass ? "pass" : "fail"}</span></h2>
${run.error ? `<p class="reason">${esc(run.error)}</p>` : ""}<ul class="verdicts">${verdicts}</ul>
<ol class="timeline">${run.trajectory.map(eventItem).join("")}</ol></section>`;
}

function comparisonSection(c: ReportComparison): string {
  const flips = c.flipped
    .map(
      (f) =>
        `<tr class="${f.to}" data-flip="${esc(f.id)}"><td>${esc(f.id)}</td><td>${f.from} → <span class="badge">${f.to}</span></td><td class="reason">${esc(f.reason ?? "")}</td></tr>`,
    )
    .join("");
  const moved = c.moved
    .map(
      (m) =>
        `<tr data-moved="${esc(m.id)}"><td>${esc(m.id)}</td><td>${m.metric}</td><td class="num">${m.before}</td><td class="num ${m.after > m.before === (m.metric !== "passRate") ? "worse" : "better"}">${m.after}</td></tr>`,
    )
    .join("");
  return `<h2>Before / after</h2><p>pass rate ${pct(c.passRate.before)} → ${pct(c.passRate.after)}${c.added.length ? `; added: ${esc(c.added.join(", "))}` : ""}${c.removed.length ? `; removed: ${esc(c.removed.join(", "))}` : ""}</p>
<table id="flipped"><tr><th>Task</th><th>Flip</th><th>Why</th></tr>${flips || `<tr><td colspan="3">No task changed its verdict.</td></tr>`}</table>
<h2>Budgets that moved</h2><table id="moved"><tr><th>Task</th><th>Measure</th><th>Before</th><th>After</th></tr>${moved || `<tr><td colspan="4">Nothing moved.</td></tr>`}</table>`;
}

const pct = (n: number) => `${Math.round(n * 100)}%`;

/**
 * The report as one self-contained HTML page (no scripts, no external files): the pass
 * table, each task's trajectory as a timeline, and the before/after comparison when given.
 *
 * @example
 * writeFileSync("report.html", renderHtmlReport(report, compareReports(previous, report)));
 */
export function renderHtmlReport(report: EvalReport, comparison?: ReportComparison): string {
  const rows = report.tasks
    .map((t) => {
      const cost = meanOf(t, (r) => r.cost);
      return `<tr class="${t.pass ? "pass" : "fail"}" data-task="${esc(t.id)}"><td><a href="#task-${esc(t.id)}">${esc(t.id)}</a></td><td><span class="badge">${t.pass ? "pass" : "fail"}</span></td><td class="num">${pct(t.passRate)}</td><td class="num">${meanOf(t, (r) => r.modelCalls)}</td><td class="num">${meanOf(t, (r) => r.toolErrors)}</td><td class="num">${meanOf(t, (r) => r.usage.total)}</td><td class="num">${cost ? `$${cost}` : "-"}</td><td class="num">${meanOf(t, (r) => r.ms)} ms</td><td class="reason">${esc(t.reason ?? "")}</td></tr>`;
    })
    .join("\n");
  const s = report.summary;
  const tasks = report.tasks
    .flatMap((t) => t.runs.map((r) => runSection(t.id, r, t.runs.length)))
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(report.taskSet)}: eval report</title><style>${STYLE}</style></head><body>
<h1>${esc(report.taskSet)}</h1>
<div class="meta">${esc(report.mode)}${report.model ? ` · ${esc(report.model)}` : ""} · ${esc(report.startedAt)} · ${s.passed}/${s.tasks} tasks passed · ${s.modelCalls} model calls · ${s.usage.total} tokens${s.cost !== undefined ? ` · $${s.cost.toFixed(4)}` : ""} · ${report.ms} ms</div>
<table id="results"><tr><th>Task</th><th>Result</th><th>Pass rate</th><th>Model calls</th><th>Tool errors</th><th>Tokens</th><th>Cost</th><th>Time</th><th>Reason</th></tr>
${rows}</table>
${comparison ? comparisonSection(comparison) : ""}
${tasks}
</body></html>
`;
}
