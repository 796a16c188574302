/**
 * What a benchmark hands back to the runner, and how it is printed: tables of rows, plus
 * target checks (a measured ratio or figure against its limit) that the runner repeats in a
 * final summary. A benchmark prints nothing itself, so the runner controls the layout.
 *
 * @example
 * const report: BenchReport = {
 *   title: "In-state grep",
 *   tables: [{ headers: ["op", "delve ms"], rows: [["grep", "1.20"]] }],
 *   targets: [target("grep delve/deepagents", 0.31, 0.5, "x")],
 * };
 * printReport(report);
 */

/** One table: header cells and rows of already formatted cells. */
export interface Table {
  caption?: string;
  headers: string[];
  rows: string[][];
}

/** A measured value checked against a limit (`value <= limit` passes). */
export interface TargetCheck {
  name: string;
  value: number;
  limit: number;
  /** "x" for ratios, or a unit such as "chars". */
  unit: string;
  pass: boolean;
}

/** The result of one benchmark. */
export interface BenchReport {
  title: string;
  tables: Table[];
  targets: TargetCheck[];
  /** Lines printed under the tables: what was measured and how. */
  notes?: string[];
}

/** Options every benchmark receives from the runner. */
export interface BenchOptions {
  /** Tiny sizes, one or two runs: checks the benchmark works, not the figures. */
  smoke: boolean;
}

/**
 * A target check: passes when `value <= limit`.
 *
 * @example
 * target("surface chars", 3353, 5000, "chars"); // pass
 */
export function target(name: string, value: number, limit: number, unit: string): TargetCheck {
  return { name, value, limit, unit, pass: Number.isFinite(value) && value <= limit };
}

/**
 * A ratio formatted for a table ("0.42x"); "-" when it cannot be computed.
 *
 * @example
 * formatRatio(1, 4); // "0.25x"
 */
export function formatRatio(numerator: number, denominator: number): string {
  const ratio = numerator / denominator;
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : "-";
}

/**
 * Milliseconds with a precision that suits their size.
 *
 * @example
 * formatMs(0.01234); // "0.0123"
 */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "-";
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toPrecision(3);
}

/** "value unit <= limit: PASS" for a target check. */
export function formatTarget(check: TargetCheck): string {
  const num = (v: number) =>
    check.unit === "x"
      ? `${v.toFixed(2)}x`
      : `${Math.round(v).toLocaleString("en-US")} ${check.unit}`;
  return `${check.name}: ${num(check.value)} (target <= ${num(check.limit)}) ${check.pass ? "PASS" : "FAIL"}`;
}

/**
 * Renders a table with aligned columns: text left-aligned, numbers right-aligned.
 *
 * @example
 * console.log(renderTable({ headers: ["tool", "chars"], rows: [["ls", "263"]] }));
 */
export function renderTable(table: Table): string {
  const widths = table.headers.map((h, i) =>
    Math.max(h.length, ...table.rows.map((r) => (r[i] ?? "").length)),
  );
  const numeric = (cell: string) => /^[-+]?[\d,.]+(x|%| ms)?$|^-$/.test(cell);
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric(c) && i > 0 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  const out = [line(table.headers), widths.map((w) => "-".repeat(w)).join("  ")];
  for (const row of table.rows) out.push(line(row));
  return (table.caption ? `${table.caption}\n` : "") + out.join("\n");
}

/** Prints a report: title, tables, notes, and its target lines. */
export function printReport(report: BenchReport): void {
  console.log(`\n== ${report.title} ==`);
  for (const table of report.tables) console.log(`\n${renderTable(table)}`);
  if (report.notes?.length) console.log(`\n${report.notes.map((n) => `  ${n}`).join("\n")}`);
  for (const check of report.targets) console.log(`  -> ${formatTarget(check)}`);
}
