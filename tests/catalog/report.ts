/**
 * The catalog's table (cell, route, effect, verdict) and its total line, as plain text
 * for the test log and as Markdown for the README.
 *
 * @module
 */
import type { CellResult } from "./runner.ts";

/** Counts of a run. */
export interface Totals {
  cells: number;
  passed: number;
  delivered: number;
  refusals: number;
  observations: number;
  failed: number;
}

/** Counts passed cells by what they expected. */
export function totals(results: readonly CellResult[]): Totals {
  const passed = results.filter((r) => r.passed);
  return {
    cells: results.length,
    passed: passed.length,
    delivered: passed.filter((r) => r.kind === "delivered").length,
    refusals: passed.filter((r) => r.kind === "refused").length,
    observations: passed.filter((r) => r.kind === "observed").length,
    failed: results.length - passed.length,
  };
}

/** `catalog: 84/84 cells passed (61 delivered, 23 exact refusals)`. */
export function totalLine(results: readonly CellResult[]): string {
  const t = totals(results);
  const parts = [`${t.delivered} delivered`, `${t.refusals} exact refusals`];
  if (t.observations) parts.push(`${t.observations} observations`);
  return `catalog: ${t.passed}/${t.cells} cells passed (${parts.join(", ")})`;
}

/** The verdict column: "pass", or "FAIL: <first reason>". */
export function verdictText(result: CellResult): string {
  return result.passed ? "pass" : `FAIL: ${result.reasons.join("; ")}`;
}

/** A fixed-width text table, one row per cell, then the total line. */
export function textTable(results: readonly CellResult[]): string {
  const rows = results.map((r) => [r.id, r.route, r.effect, verdictText(r)]);
  const header = ["cell", "route", "effect", "verdict"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => i < 3 ? row[i].length : 0)));
  const line = (cols: string[]) => cols.map((c, i) => i < 3 ? c.padEnd(widths[i]) : c).join("  ");
  return [
    line(header),
    line(widths.map((w) => "-".repeat(w)).slice(0, 3).concat("-------")),
    ...rows.map(line),
    "",
    totalLine(results),
  ].join("\n");
}

function cellText(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/** The Markdown table for the README (the total line under it). */
export function markdownTable(results: readonly CellResult[], note: string): string {
  const rows = results.map((r) =>
    `| \`${r.id}\` | ${cellText(r.route)} | ${cellText(r.effect)} | ${
      cellText(r.passed ? "pass" : verdictText(r))
    } |`
  );
  return [
    "| cell | route | effect | verdict |",
    "| --- | --- | --- | --- |",
    ...rows,
    "",
    `**${totalLine(results)}** — ${note}`,
  ].join("\n");
}
