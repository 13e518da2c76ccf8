/**
 * Runs the cross-app catalog: one app at a time, each started once through launch_app
 * and shared by its cells, then ended with kill_app. Per app: the window is found, the
 * driver's first get_window_state is compared with an independent AT-SPI walk, and each
 * cell is judged by the app's own state. Every verdict falls in one of the categories
 * the issue counts: silent failure (said unverifiable/confirmed, nothing happened),
 * false confirmation (said confirmed, the intended change did not happen), false no-op
 * (said suspected_noop, something changed), or a crash (the app died).
 *
 * @module
 */
import type { Structured, TestDriver } from "../_helpers/in_process_driver.ts";
import { clientBox, readDesktop } from "../catalog/desktop_probe.ts";
import type { CrossApp, CrossCell, CrossContext } from "./cell.ts";
import { compareCoverage, type Coverage } from "./coverage.ts";
import { walk } from "./reader.ts";

/** The verdict on one cell. */
export interface CrossResult {
  app: string;
  id: string;
  /** `route/mode` of a success, "none" for a refusal. */
  route: string;
  /** The effect claimed, or `refused: <code>`. */
  effect: string;
  seen: string;
  passed: boolean;
  reasons: string[];
  /** The tool's own one-line account of the last call. */
  summary: string;
  /** Set for the failures the issue counts. */
  category?: "silent_failure" | "false_confirmation" | "false_noop" | "crash";
}

/** One app's run. */
export interface AppReport {
  app: string;
  pid: number | null;
  /** The first get_window_state of the app, in milliseconds. */
  firstStateMs: number;
  coverage: Coverage | null;
  results: CrossResult[];
  /** Problems outside the cells (launch, window, kill, coverage). */
  problems: string[];
}

const WINDOW_TIMEOUT_MS = 120_000;
const DELIVERY_TIMEOUT_MS = 5_000;
const POLL_MS = 150;
const SETTLE_MS = 400;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    return false;
  }
}

/** Launches the app, runs its cells, ends it. */
export async function runApp(
  driver: TestDriver,
  app: CrossApp,
  log: (line: string) => void = () => {},
): Promise<AppReport> {
  const report: AppReport = {
    app: app.name,
    pid: null,
    firstStateMs: 0,
    coverage: null,
    results: [],
    problems: [],
  };
  // launch_app follows a launcher (LibreOffice restarts once under oosplash) until the window maps.
  const launched = await driver.call("launch_app", app.launch, WINDOW_TIMEOUT_MS);
  const launchInfo = launched.structuredContent as Structured;
  if (launched.isError || typeof launchInfo?.pid !== "number") {
    report.problems.push(`launch_app failed: ${JSON.stringify(launchInfo)}`);
    return report;
  }
  const pid: number = launchInfo.pid;
  report.pid = pid;
  try {
    const windowId = await findWindow(driver, app, pid);
    if (windowId === null) {
      report.problems.push(`no window of pid ${pid} within ${WINDOW_TIMEOUT_MS / 1000} s`);
      return report;
    }
    const target = { kind: "window" as const, pid, window_id: windowId };
    const ctx: CrossContext = {
      app: { pid, windowId, target },
      call: (tool, args) => driver.call(tool, args),
      observe: () => driver.ok("get_window_state", { pid, window_id: windowId }),
    };
    const started = performance.now();
    const first = await driver.ok("get_window_state", { pid, window_id: windowId });
    report.firstStateMs = Math.round(performance.now() - started);
    if (app.hasTree) {
      const independent = await walk(pid);
      report.coverage = compareCoverage(first, independent, await clientBox(windowId));
      log(
        `${app.name}: first get_window_state ${report.firstStateMs} ms, ${JSON.stringify(report.coverage)}`,
      );
    }
    await app.ready?.(ctx);
    for (const cell of app.cells) {
      const result = await runCell(ctx, app.name, cell);
      report.results.push(result);
      log(
        `${result.passed ? "ok  " : "FAIL"} ${result.id} ${result.route} ${result.effect} | ${result.seen}` +
          (result.reasons.length ? ` | ${result.reasons.join("; ")} | tool: ${result.summary}` : ""),
      );
      if (!(await alive(pid))) {
        report.problems.push(`the app died after ${cell.id}`);
        break;
      }
    }
  } finally {
    if (!app.keep) await end(driver, pid, report);
  }
  return report;
}

async function findWindow(driver: TestDriver, app: CrossApp, pid: number): Promise<number | null> {
  const deadline = performance.now() + WINDOW_TIMEOUT_MS;
  while (performance.now() < deadline) {
    const windows = (await driver.ok("list_windows", { pid })).windows as Structured[];
    const found = windows.find((w) => w.pid === pid && app.window(w));
    if (found) return found.window_id;
    await sleep(300);
  }
  return null;
}

/** kill_app, and the process is gone (with everything a launcher started). */
async function end(driver: TestDriver, pid: number, report: AppReport): Promise<void> {
  const killed = await driver.call("kill_app", { pid });
  if (killed.isError) report.problems.push(`kill_app failed: ${JSON.stringify(killed.structuredContent)}`);
  const deadline = performance.now() + 10_000;
  while (await alive(pid)) {
    if (performance.now() > deadline) {
      report.problems.push(`pid ${pid} still runs 10 s after kill_app`);
      return;
    }
    await sleep(100);
  }
}

interface Outcome {
  ok: boolean;
  code?: string;
  message?: string;
  effect?: string;
  route?: string;
  mode?: string;
}

async function runCell(ctx: CrossContext, app: string, cell: CrossCell): Promise<CrossResult> {
  const result: CrossResult = {
    app,
    id: cell.id,
    route: "-",
    effect: "-",
    seen: "-",
    passed: false,
    reasons: [],
    summary: "",
  };
  try {
    const state = await ctx.observe();
    const calls = cell.calls(ctx, state);
    const desktopBefore = await readDesktop();
    const before = await cell.oracle.read(ctx);
    let outcome: Outcome = { ok: true };
    for (const call of calls) {
      const raw = await ctx.call(call.tool, call.args);
      const s = (raw.structuredContent ?? {}) as Structured;
      result.summary = raw.content.flatMap((c) => c.type === "text" ? [c.text] : []).join(" ").slice(0, 400);
      outcome = raw.isError
        ? { ok: false, code: s.code, message: s.message }
        : { ok: true, effect: s.effect, route: s.route, mode: s.delivery?.mode };
      if (!outcome.ok) break;
    }
    result.route = outcome.ok ? `${outcome.route}/${outcome.mode}` : "none";
    result.effect = outcome.ok ? String(outcome.effect) : `refused: ${outcome.code}`;
    let verdict = cell.oracle.judge(before, before);
    if (cell.expect.kind === "delivered" && outcome.ok) {
      const deadline = performance.now() + DELIVERY_TIMEOUT_MS;
      while (true) {
        verdict = cell.oracle.judge(before, await cell.oracle.read(ctx));
        if (verdict.intended || performance.now() > deadline) break;
        await sleep(POLL_MS);
      }
    } else {
      await sleep(SETTLE_MS);
      verdict = cell.oracle.judge(before, await cell.oracle.read(ctx));
    }
    result.seen = verdict.seen;
    judge(cell, outcome, verdict, result);
    if (outcome.ok && outcome.mode === "background") {
      const after = await readDesktop();
      if (after.active !== desktopBefore.active) {
        result.reasons.push("background action changed the active window");
      }
    }
  } catch (error) {
    result.reasons.push(`catalog error: ${error instanceof Error ? error.message : String(error)}`);
  }
  result.passed = result.reasons.length === 0;
  return result;
}

function judge(
  cell: CrossCell,
  outcome: Outcome,
  verdict: { intended: boolean; changed: boolean; seen: string },
  result: CrossResult,
): void {
  const reasons = result.reasons;
  const effect = outcome.effect;
  if (cell.expect.kind === "refused") {
    if (outcome.ok) reasons.push(`expected refusal ${cell.expect.code}, the tool said ${effect}`);
    else if (outcome.code !== cell.expect.code) {
      reasons.push(`expected ${cell.expect.code}, got ${outcome.code}: ${outcome.message}`);
    }
    if (verdict.changed) reasons.push(`the app changed although nothing was to be sent: ${verdict.seen}`);
    return;
  }
  if (!outcome.ok) {
    reasons.push(`${outcome.code}: ${outcome.message}`);
    return;
  }
  if (verdict.changed && effect === "suspected_noop") {
    result.category = "false_noop";
    reasons.push(`false no-op: the tool said suspected_noop, the app changed (${verdict.seen})`);
    return;
  }
  if (cell.expect.kind === "noop") {
    if (verdict.changed) reasons.push(`expected nothing to change: ${verdict.seen}`);
    else if (effect !== "suspected_noop") {
      result.category = effect === "confirmed" ? "false_confirmation" : "silent_failure";
      reasons.push(`nothing changed, yet the tool said ${effect}`);
    }
    return;
  }
  if (!verdict.intended) {
    if (effect === "confirmed") {
      result.category = "false_confirmation";
      reasons.push(`false confirmation: ${cell.oracle.says} did not happen (${verdict.seen})`);
    } else if (!verdict.changed && effect !== "suspected_noop") {
      result.category = "silent_failure";
      reasons.push(`silent failure: the tool said ${effect}, the app is unchanged`);
    } else {
      reasons.push(`${cell.oracle.says} did not happen (${verdict.seen}); the tool said ${effect}`);
    }
  }
}
