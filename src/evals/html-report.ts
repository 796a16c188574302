import { createHash } from "node:crypto";
import type { ReportComparison } from "./compare.js";
import { type EvalReport, meanOf, type RunReport } from "./report.js";
import type { TrajectoryEvent } from "./types.js";

// Every value on the page goes through `esc`, numbers too: a report read from JSON may hold
// markup where a number belongs.
const esc = (value: unknown) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const verdict = (pass: unknown) => (pass === true ? "pass" : "fail");
const badge = (pass: unknown, text = verdict(pass)) =>
  `<span class="badge ${verdict(pass)}">${esc(text)}</span>`;
const clip = (text: string, max = 600) => (text.length > max ? `${text.slice(0, max)}…` : text);
const json = (value: unknown) => clip(JSON.stringify(value) ?? "");

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2330;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.meta{color:#5a6172;margin-bottom:16px}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #d5d9e2;padding:5px 8px;text-align:left;vertical-align:top}
th{background:#eef1f6}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;font-weight:600}
.badge.pass{background:#1f8a4c}.badge.fail{background:#c62f2f}
tr.fail td{background:#fff2f2}tr.pass td{background:#f1fbf5}
ol.timeline{list-style:none;margin:0;padding:0 0 0 18px;border-left:3px solid #c4cad6}
ol.timeline li{position:relative;margin:0 0 10px;padding:6px 10px;border-radius:6px;background:#f6f7fa}
ol.timeline li::before{content:"";position:absolute;left:-27px;top:10px;width:12px;height:12px;border-radius:50%;background:#6b7a99}
ol.timeline li.ev-model::before{background:#3b6fd8}ol.timeline li.ev-tool.failed{background:#fff0f0}
ol.timeline li.ev-tool.failed::before{background:#c62f2f}ol.timeline li.ev-approval::before{background:#d89b1f}ol.timeline li.ev-question::before{background:#6a4fc6}
code,pre{font:12px/1.4 ui-monospace,monospace}pre{white-space:pre-wrap;margin:4px 0 0}
.reason{color:#a32020}.worse{color:#c62f2f}.better{color:#1f8a4c}
`;

function eventItem(e: TrajectoryEvent): string {
  if (e.kind === "model") {
    const calls = e.toolCalls
      .map((c) => `<div>→ <code>${esc(c.name)}</code> <code>${esc(json(c.args))}</code></div>`)
      .join("");
    const usage = e.usage ? ` · ${e.usage.total} tokens` : "";
    const ms = e.ms !== undefined ? ` · ${e.ms} ms` : "";
    return `<li class="ev-model"><b>model step ${esc(e.step)}</b><small>${esc(usage + ms)}</small>${e.text ? `<pre>${esc(clip(String(e.text)))}</pre>` : ""}${calls}</li>`;
  }
  if (e.kind === "tool") {
    const failed = e.failed ? ` ${badge(false, `failed${e.code ? `: ${e.code}` : ""}`)}` : "";
    return `<li class="ev-tool${e.failed ? " failed" : ""}"><b>${esc(e.name)}</b> <code>${esc(json(e.args))}</code>${failed}<pre>${esc(clip(String(e.content), 400))}</pre></li>`;
  }
  if (e.kind === "question") {
    const answer = Array.isArray(e.answer) ? e.answer.join(", ") : e.answer;
    const choices = e.choices?.length
      ? ` <small>choices: ${esc(e.choices.join(" | "))}${e.multiSelect ? " (several)" : ""}</small>`
      : "";
    return `<li class="ev-question"><b>ask_user</b> ${esc(e.question)}${choices}<div>answered: <code>${esc(answer)}</code></div></li>`;
  }
  return `<li class="ev-approval"><b>approval</b> ${e.tools.map((t, i) => `<code>${esc(t)}</code>: ${esc(e.decisions[i] ?? "?")}`).join(", ")}</li>`;
}

function runSection(id: string, run: RunReport, runs: number): string {
  const verdicts = run.expectations
    .map(
      (v) =>
        `<li class="${verdict(v.pass)}">${badge(v.pass)} <code>${esc(v.label)}</code>${v.reason ? ` <span class="reason">${esc(v.reason)}</span>` : ""}</li>`,
    )
    .join("");
  const suffix = runs > 1 ? `-${run.run}` : "";
  const label = runs > 1 ? ` (run ${Number(run.run) + 1})` : "";
  return `<section class="task ${verdict(run.pass)}" id="task-${esc(id)}${esc(suffix)}">
<h2>${esc(id)}${esc(label)} ${badge(run.pass)}</h2>
${run.error ? `<p class="reason">${esc(run.error)}</p>` : ""}<ul class="verdicts">${verdicts}</ul>
<ol class="timeline">${run.trajectory.map(eventItem).join("")}</ol></section>`;
}

function comparisonSection(c: ReportComparison): string {
  const flips = c.flipped
    .map(
      (f) =>
        `<tr class="${verdict(f.to === "pass")}" data-flip="${esc(f.id)}"><td>${esc(f.id)}</td><td>${esc(f.from)} → ${badge(f.to === "pass")}</td><td class="reason">${esc(f.reason ?? "")}</td></tr>`,
    )
    .join("");
  const moved = c.moved
    .map(
      (m) =>
        `<tr data-moved="${esc(m.id)}"><td>${esc(m.id)}</td><td>${esc(m.metric)}</td><td class="num">${esc(m.before)}</td><td class="num ${m.after > m.before === (m.metric !== "passRate") ? "worse" : "better"}">${esc(m.after)}</td></tr>`,
    )
    .join("");
  return `<h2>Before / after</h2><p>pass rate ${pct(c.passRate.before)} → ${pct(c.passRate.after)}${c.added.length ? `; added: ${esc(c.added.join(", "))}` : ""}${c.removed.length ? `; removed: ${esc(c.removed.join(", "))}` : ""}</p>
<table id="flipped"><tr><th>Task</th><th>Flip</th><th>Why</th></tr>${flips || `<tr><td colspan="3">No task changed its verdict.</td></tr>`}</table>
<h2>Budgets that moved</h2><table id="moved"><tr><th>Task</th><th>Measure</th><th>Before</th><th>After</th></tr>${moved || `<tr><td colspan="4">Nothing moved.</td></tr>`}</table>`;
}

const pct = (n: unknown) =>
  typeof n === "number" && Number.isFinite(n) ? `${Math.round(n * 100)}%` : "?";

// The page runs no script and loads nothing: only its own style sheet (by hash) may apply,
// so markup that slipped past escaping could still neither run nor fetch.
const CSP = [
  "default-src 'none'",
  "script-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`,
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

/**
 * The report as one self-contained HTML page (no scripts, no external files): the pass
 * table, each task's trajectory as a timeline, and the before/after comparison when given.
 * Every value is escaped, and a Content-Security-Policy meta tag forbids any script and any
 * style but the page's own. Each verdict badge is coloured by its own verdict.
 *
 * @example
 * writeFileSync("report.html", renderHtmlReport(report, compareReports(previous, report)));
 */
export function renderHtmlReport(report: EvalReport, comparison?: ReportComparison): string {
  const rows = report.tasks
    .map((t) => {
      const cost = meanOf(t, (r) => r.cost);
      const cells = [
        pct(t.passRate),
        meanOf(t, (r) => r.modelCalls),
        meanOf(t, (r) => r.toolErrors),
        meanOf(t, (r) => r.usage?.total),
        cost ? `$${cost}` : "-",
        `${meanOf(t, (r) => r.ms)} ms`,
      ].map((cell) => `<td class="num">${esc(cell)}</td>`);
      return `<tr class="${verdict(t.pass)}" data-task="${esc(t.id)}"><td><a href="#task-${esc(t.id)}">${esc(t.id)}</a></td><td>${badge(t.pass)}</td>${cells.join("")}<td class="reason">${esc(t.reason ?? "")}</td></tr>`;
    })
    .join("\n");
  const s = report.summary;
  const tasks = report.tasks
    .flatMap((t) => t.runs.map((r) => runSection(t.id, r, t.runs.length)))
    .join("\n");
  const cost = typeof s.cost === "number" ? ` · $${s.cost.toFixed(4)}` : "";
  const meta = `${report.mode}${report.model ? ` · ${report.model}` : ""} · ${report.startedAt} · ${s.passed}/${s.tasks} tasks passed · ${s.modelCalls} model calls · ${s.usage?.total} tokens${cost} · ${report.ms} ms`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><title>${esc(report.taskSet)}: eval report</title><style>${STYLE}</style></head><body>
<h1>${esc(report.taskSet)}</h1>
<div class="meta">${esc(meta)}</div>
<table id="results"><tr><th>Task</th><th>Result</th><th>Pass rate</th><th>Model calls</th><th>Tool errors</th><th>Tokens</th><th>Cost</th><th>Time</th><th>Reason</th></tr>
${rows}</table>
${comparison ? comparisonSection(comparison) : ""}
${tasks}
</body></html>
`;
}
