/**
 * The cross-app catalog's tables: per app (window found, tree coverage, frames), and per
 * cell (route, effect, verdict), as Markdown for the README and plain text for the log.
 *
 * @module
 */
import type { AppReport } from "./runner.ts";

/** Totals the issue counts across the catalog. */
export function crossTotals(reports: readonly AppReport[]) {
  const results = reports.flatMap((r) => r.results);
  const count = (category: string) => results.filter((r) => r.category === category).length;
  return {
    cells: results.length,
    passed: results.filter((r) => r.passed).length,
    silentFailures: count("silent_failure"),
    falseConfirmations: count("false_confirmation"),
    falseNoops: count("false_noop"),
    problems: reports.flatMap((r) => r.problems.map((p) => `${r.app}: ${p}`)),
  };
}

function pct(n: number): string {
  return `${Math.round(n * 100)}%`;
}

/** One Markdown row per app. */
export function appTable(reports: readonly AppReport[]): string {
  const rows = reports.map((r) => {
    const c = r.coverage;
    const tree = c ? `${c.matched}/${c.actionable} (${pct(c.recall)})` : "no tree (refused/OCR)";
    const frames = c ? `${c.framesWithin2}/${c.matched} within 2 px` : "-";
    const cells = `${r.results.filter((x) => x.passed).length}/${r.results.length}`;
    return `| ${r.app} | ${
      r.pid !== null ? "yes" : "no"
    } | ${r.firstStateMs} ms | ${tree} | ${frames} | ${cells} |`;
  });
  return [
    "| app | window found | first get_window_state | actionable nodes vs independent walk | frames | cells passed |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

/** One Markdown row per cell. */
export function cellTable(reports: readonly AppReport[]): string {
  const rows = reports.flatMap((r) =>
    r.results.map((x) =>
      `| \`${x.id}\` | ${x.route} | ${x.effect} | ${x.passed ? "pass" : `FAIL: ${x.reasons[0] ?? ""}`} |`
    )
  );
  return ["| cell | route | effect | verdict |", "| --- | --- | --- | --- |", ...rows].join("\n");
}

/** The summary line. */
export function crossTotalLine(reports: readonly AppReport[]): string {
  const t = crossTotals(reports);
  return `cross-app catalog: ${t.passed}/${t.cells} cells passed; ${t.silentFailures} silent failures, ` +
    `${t.falseConfirmations} false confirmations, ${t.falseNoops} false no-ops, ${t.problems.length} app problems`;
}
