/**
 * Runs the Windows catalog's cells one after another with one in-process driver and
 * judges each by state the app owns (read through Win32), as the Linux catalog's runner
 * does:
 *
 * - delivered: the tool succeeds and the oracle sees the intended change (a success the
 *   oracle cannot see is a silent no-op and fails), with the effect the cell pins if it pins one;
 * - reported: the tool succeeds and its effect agrees with what the oracle sees;
 * - every success: `confirmed` when the oracle saw no intended change is a false confirmation, and
 *   `suspected_noop` when it saw one is a false no-op; both fail;
 * - refused: exactly the expected code, and nothing changes;
 * - observed: the tool succeeds and its answer agrees with the app's own state;
 * - background and refused cells: the foreground window (the sentinel), the real cursor
 *   and the sentinel's own text are unchanged; foreground cells: the sentinel is the
 *   foreground window again afterwards and its text is unchanged.
 *
 * @module
 */
import { describeResult, type Structured } from "../_helpers/in_process_driver.ts";
import type { CellResult } from "../catalog/runner.ts";
import type { WinCell } from "./cell.ts";
import { effectProblems } from "./effects.ts";
import type { WinWorld } from "./world.ts";

const DELIVERY_TIMEOUT_MS = 3_000;
const REFUSAL_SETTLE_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs every cell in order; `log` gets each result as it finishes. */
export async function runWindowsCatalog(
  world: WinWorld,
  cells: readonly WinCell[],
  log: (result: CellResult) => void = () => {},
): Promise<CellResult[]> {
  const results: CellResult[] = [];
  for (const cell of cells) {
    const result = await runCell(world, cell);
    results.push(result);
    log(result);
  }
  return results;
}

async function runCell(world: WinWorld, cell: WinCell): Promise<CellResult> {
  const started = performance.now();
  const reasons: string[] = [];
  let route = "-", effect = "-", seen = "";
  try {
    await world.reset();
    await cell.prepare?.(world);
    const calls = await cell.calls(world);
    const before = await cell.oracle.read(world);
    const desktopBefore = world.readDesktop();
    let last: Structured = {};
    let error: Structured | null = null;
    for (const call of calls) {
      const result = await world.driver.call(call.tool, call.args);
      const structured = (result.structuredContent ?? {}) as Structured;
      if (result.isError) {
        error = structured;
        route = "none";
        effect = `refused: ${structured.code}`;
        if (cell.expect.kind !== "refused") reasons.push(`${call.tool} failed: ${describeResult(result)}`);
        break;
      }
      last = { ...structured, __content: result.content };
      route = structured.route ? `${structured.route}/${structured.delivery?.mode ?? "-"}` : "-";
      effect = structured.effect ?? "ok";
    }
    const expect = cell.expect;
    if (expect.kind === "refused") {
      if (!error) reasons.push(`expected ${expect.code}, the call succeeded`);
      else if (error.code !== expect.code) {
        reasons.push(`expected ${expect.code}, got ${error.code}: ${error.message}`);
      }
      await sleep(REFUSAL_SETTLE_MS);
      const verdict = cell.oracle.judge(before, await cell.oracle.read(world), last);
      seen = verdict.seen;
      if (verdict.changed) reasons.push(`a refusal changed app state: ${verdict.seen}`);
    } else if (!error) {
      const acts = expect.kind === "delivered" || expect.kind === "reported";
      const deadline = performance.now() + DELIVERY_TIMEOUT_MS;
      let verdict = cell.oracle.judge(before, await cell.oracle.read(world), last);
      while (acts && !verdict.intended && performance.now() < deadline) {
        await sleep(50);
        verdict = cell.oracle.judge(before, await cell.oracle.read(world), last);
      }
      seen = verdict.seen;
      const problems = effectProblems(cell, effect, verdict.intended, verdict.seen);
      if (cell.knownFalseNoop && effect === "suspected_noop" && verdict.intended) {
        // Only the false no-op and its effect mismatch are excused, and they stay in the table.
        seen = `${verdict.seen}; known defect: ${cell.knownFalseNoop}`;
        reasons.push(...problems.filter((p) => !/^false no-op|^effect suspected_noop,/.test(p)));
      } else {
        reasons.push(...problems);
      }
    }
    const desktopAfter = world.readDesktop();
    if (desktopAfter.sentinelText !== desktopBefore.sentinelText) {
      reasons.push(`the sentinel's text changed: ${JSON.stringify(desktopAfter.sentinelText)}`);
    }
    if (cell.delivery === "background" || expect.kind === "refused") {
      if (desktopAfter.foreground !== desktopBefore.foreground) {
        reasons.push(`foreground moved ${desktopBefore.foreground} -> ${desktopAfter.foreground}`);
      }
      if (
        desktopAfter.cursor.x !== desktopBefore.cursor.x || desktopAfter.cursor.y !== desktopBefore.cursor.y
      ) {
        reasons.push(
          `cursor moved ${JSON.stringify(desktopBefore.cursor)} -> ${JSON.stringify(desktopAfter.cursor)}`,
        );
      }
    }
    if (cell.delivery === "foreground" && desktopAfter.foreground !== world.sentinel.windowId) {
      reasons.push(`the sentinel is not the foreground window again (${desktopAfter.foreground})`);
    }
    await cell.cleanup?.(world);
  } catch (error) {
    reasons.push(`cell error: ${(error as Error).stack ?? error}`);
  }
  return {
    id: cell.id,
    app: "fixture",
    tool: cell.tool,
    expected: cell.expect.kind === "refused" ? `refused ${cell.expect.code}` : cell.expect.kind,
    route,
    effect,
    seen,
    passed: reasons.length === 0,
    reasons,
    // A reported cell sends input: the totals count it with the deliveries.
    kind: cell.expect.kind === "reported" ? "delivered" : cell.expect.kind,
    ms: Math.round(performance.now() - started),
  };
}
