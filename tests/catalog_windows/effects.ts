/**
 * The Windows catalog's judgement of a reported effect against what the app's own state shows:
 * a `confirmed` for a change that did not happen and a `suspected_noop` for one that did are both
 * wrong, whatever the cell expects.
 *
 * @module
 */
import type { WinCell } from "./cell.ts";

/** What is wrong with the effect a success reported, given what the app's own state shows. */
export function effectProblems(
  cell: Pick<WinCell, "expect" | "oracle">,
  effect: string,
  intended: boolean,
  seen: string,
): string[] {
  const expect = cell.expect;
  const problems: string[] = [];
  if (expect.kind === "observed") return intended ? [] : [`disagrees: ${seen}`];
  if (expect.kind === "refused") return [];
  if (expect.kind === "delivered" && !intended) problems.push(`silent no-op: ${seen}`);
  if (effect === "confirmed" && !intended) {
    problems.push(
      `false confirmation: the tool said confirmed, but ${cell.oracle.says} did not happen (${seen})`,
    );
  }
  if (effect === "suspected_noop" && intended) {
    problems.push(`false no-op: the tool said suspected_noop, but ${cell.oracle.says} happened (${seen})`);
  }
  if (expect.kind === "delivered" && expect.effect && effect !== expect.effect) {
    problems.push(`effect ${effect}, the app's state proves ${expect.effect}`);
  }
  if (expect.kind === "reported" && !expect.effects.includes(effect)) {
    problems.push(`effect ${effect}, expected one of ${expect.effects.join(", ")}`);
  }
  return problems;
}
