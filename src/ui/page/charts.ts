// Horizontal bar charts as plain SVG built from the page's own code (no chart library, no
// inline style: the CSP allows none). Labels are text nodes, so a hostile name shows as text.
import { el, type Json, money } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const ROW = 22;
const LABEL = 220;
const WIDTH = 1000;
const BAR = WIDTH - LABEL - 340;

/** One bar: its label, its length, the figure written after it, a CSS class for its colour. */
export interface Bar {
  label: string;
  value: number;
  figure: string;
  kind?: string;
}

function svg(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A bar chart; each bar is a `rect.bar` with its value in `data-value`. */
export function barChart(id: string, bars: Bar[]): Element {
  // Costs are fractions of a cent: the longest bar is the largest value, whatever its scale.
  const max = Math.max(Number.MIN_VALUE, ...bars.map((b) => b.value));
  const chart = svg("svg", {
    id,
    class: "chart",
    width: WIDTH,
    height: bars.length * ROW + 4,
    viewBox: `0 0 ${WIDTH} ${bars.length * ROW + 4}`,
    role: "img",
  });
  bars.forEach((b, i) => {
    const y = i * ROW + 2;
    const row = svg("g", { class: `bar-row ${b.kind ?? ""}`.trim() });
    row.append(
      svg("text", { x: LABEL - 6, y: y + 15, "text-anchor": "end", class: "bar-label" }, b.label),
      svg("rect", {
        x: LABEL,
        y: y + 3,
        height: ROW - 6,
        width: Math.max(1, (b.value / max) * BAR),
        class: "bar",
        "data-value": b.value,
      }),
      svg("text", { x: LABEL + BAR + 8, y: y + 15, class: "bar-figure" }, b.figure),
    );
    chart.append(row);
  });
  return chart;
}

/** The surface chart: the system prompt and each visible tool in estimated tokens. */
export function surfaceSection(s: Json): HTMLElement {
  const bars = s.bars.map((b: Json) => ({
    label: b.server ? `${b.name} (${b.server})` : b.name,
    value: b.tokens,
    figure: `${b.tokens} tok · ${b.chars} chars`,
    kind: `kind-${b.kind}`,
  }));
  const section = el(
    "section",
    { id: "surface" },
    el("h3", {}, "Tool surface (every model call carries it)"),
    el(
      "p",
      { class: "note surface-total" },
      `${s.total.tokens} tokens (${s.total.chars} chars) · system prompt ${Math.round(s.system_prompt_share * 100)}%`,
    ),
    barChart("surface-chart", bars),
  );
  if (s.hidden.length) {
    const list = el("ul", { class: "hidden-tools" });
    for (const h of s.hidden) list.append(el("li", {}, el("code", {}, h.name), ` — ${h.reason}`));
    section.append(el("h4", {}, "Hidden tools"), list);
  }
  if (s.deferred) {
    section.append(
      el(
        "h4",
        {},
        `Deferred until search_tools loads them (index: ${s.deferred.index.tokens} tokens)`,
      ),
      barChart(
        "deferred-chart",
        s.deferred.bars.map((b: Json) => ({
          label: b.name,
          value: b.tokens,
          figure: `${b.tokens} tok`,
          kind: "kind-deferred",
        })),
      ),
    );
  }
  return section;
}

// Bars by cost when every group's price is known, else all by tokens (one scale per chart).
const usageBars = (groups: Json[]): Bar[] =>
  groups.map((g) => ({
    label: g.name,
    value: groups.every((x) => x.cost_usd !== null) ? g.cost_usd : g.input + g.output,
    figure: `${money(g.cost_usd)} · ${g.calls} call(s) · ${g.input}/${g.output} tok`,
  }));

/** Usage and cost per model and per agent (the main agent, subagents, the summarizer). */
export function usageSection(u: Json): HTMLElement {
  return el(
    "section",
    { id: "usage" },
    el("h3", {}, "Usage and cost"),
    el(
      "p",
      { class: "note" },
      "total ",
      el("span", { class: "cost usage-total" }, money(u.total.cost_usd)),
      ` · ${u.total.calls} model call(s) · ${u.total.input} in / ${u.total.output} out tokens`,
    ),
    el("h4", {}, "Per model"),
    barChart("usage-by-model", usageBars(u.by_model)),
    el("h4", {}, "Per agent"),
    barChart("usage-by-agent", usageBars(u.by_agent)),
  );
}
