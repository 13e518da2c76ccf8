/**
 * Runs catalog cells one after another with one in-process driver on the world's
 * desktop and judges each against state the app owns:
 *
 * - delivered: the tool succeeds and the oracle sees the intended change (a success
 *   whose oracle saw nothing is a silent no-op and fails, whatever effect it claimed);
 * - refused: the exact code (and field) comes back and the oracle sees no change;
 * - background and refused cells: the active window, the focus, the real pointer and
 *   the stacking order read independently (xprop, xdotool) are unchanged, no sentinel
 *   window journaled anything, and an independent X client listening for the whole
 *   call (focus_watch.py) saw no PropertyNotify of `_NET_ACTIVE_WINDOW` and no core
 *   FocusIn/FocusOut on the sentinel windows or the target: a transient activation fails;
 * - foreground cells: the previously active window is active again, and no sentinel
 *   window received a key, button or wheel event.
 *
 * @module
 */
import { allTools } from "../../tools/mod.ts";
import { describeFocusEvents, type FocusWatchEvent, watchFocus } from "../_helpers/focus_watch.ts";
import type { Structured } from "../_helpers/in_process_driver.ts";
import type { App, Call, Cell, Point, View } from "./cell.ts";
import { desktopChanges, readDesktop, sleep } from "./desktop_probe.ts";
import type { OracleContext } from "./oracles.ts";
import { describeEvents, isBackgroundLeak, isDeliveredInput, type SentinelEvent } from "./sentinel.ts";
import { makeView, pixelToScreen } from "./view.ts";
import type { Box, World } from "./world.ts";

/** The verdict on one cell. */
export interface CellResult {
  id: string;
  app: App;
  tool: string;
  expected: string;
  /** `route/mode` of a success, "none" for a refusal, "-" when nothing ran. */
  route: string;
  /** The effect a success claimed, or `refused: <code>`. */
  effect: string;
  /** What the oracle saw. */
  seen: string;
  passed: boolean;
  /** Why it failed (empty when it passed). */
  reasons: string[];
  /** Expected kind, for the totals. */
  kind: "delivered" | "refused" | "observed";
  ms: number;
}

const DELIVERY_TIMEOUT_MS = 2_500;
const POLL_MS = 60;
const REFUSAL_SETTLE_MS = 250;
const ORACLE_SESSION = "catalog-oracle";

/** Names of the tools this build registers. */
export function registeredTools(): Set<string> {
  return new Set(allTools.map((tool) => tool.name));
}

/**
 * Runs every cell in order, after the world's preflight proved the sentinel and the
 * probes notice leaked input; `log` gets one line per cell as it finishes.
 */
export async function runCatalog(
  world: World,
  cells: readonly Cell[],
  log: (result: CellResult) => void = () => {},
): Promise<CellResult[]> {
  const registered = registeredTools();
  await world.preflight();
  const results: CellResult[] = [];
  let lastEnd = 0;
  for (const cell of cells) {
    const idle = (cell.quietMs ?? 0) - (performance.now() - lastEnd);
    if (idle > 0) await sleep(idle);
    const result = await runCell(world, cell, registered);
    lastEnd = performance.now();
    results.push(result);
    log(result);
  }
  return results;
}

async function observe(world: World, app: App, session?: string): Promise<View> {
  const extra = session ? { session } : {};
  if (app === "xmessage") {
    const xm = world.xmessage();
    if (!xm) throw new Error("no xmessage running");
    return makeView(xm.pid, xm.windowId, { bounds: { x: 0, y: 0, width: 0, height: 0 }, elements: [] });
  }
  const [pid, windowId] = app === "fixture"
    ? [world.fixture.pid, world.fixture.xid]
    : app === "widget-factory"
    ? [world.stock.pid, world.stock.windowId]
    : [world.sentinel.pid, world.sentinel.windows.B];
  const state = await world.driver.ok("get_window_state", { pid, window_id: windowId, ...extra });
  return makeView(pid, windowId, state, app === "fixture" ? world.fixture.widgets : {});
}

function context(world: World, view: View): OracleContext {
  return {
    view,
    observe: (app, options) => observe(world, app, options?.session),
    sentinel: { pid: world.sentinel.pid, windows: { ...world.sentinel.windows } },
    call: (tool, args) => world.driver.ok(tool, args),
    sentinelScreen: (name, fx = 0.5, fy = 0.5) => {
      const frame = world.sentinelFrames[name];
      // The client area: 1 px borders and a 20 px title bar above, a 5 px handle below.
      return Promise.resolve({
        x: Math.round(frame.x + 1 + (frame.width - 2) * fx),
        y: Math.round(frame.y + 20 + (frame.height - 25) * fy),
      });
    },
    xmessage: () => world.xmessage(),
    fixtureJournal: () => world.fixture.readJournal(),
    fixtureState: async () => {
      const { t: _t, event: _event, ...state } = (await world.fixture.readJournal()).at(-1) ?? {};
      return state;
    },
    stockTree: () =>
      world.driver.ok("get_window_state", {
        pid: world.stock.pid,
        window_id: world.stock.windowId,
        include_screenshot: false,
        session: ORACLE_SESSION,
      }),
    xmessageState: () => world.xmessage()?.state() ?? null,
    sentinelEvents: () => world.sentinel.events(),
    pointer: async () => (await readDesktop()).pointer,
  };
}

/** The outcome of a cell's calls, normalized. */
interface Outcome {
  ok: boolean;
  code?: string;
  field?: string;
  message?: string;
  effect?: string;
  route?: string;
  mode?: string;
  status?: string;
}

function outcomeOf(tool: string, result: { isError?: boolean; structuredContent?: Structured }): Outcome {
  const s = (result.structuredContent ?? {}) as Structured;
  if (result.isError) return { ok: false, code: s.code, field: s.field, message: s.message };
  if (tool === "run_actions") {
    if (s.failed_index !== null && s.failed_index !== undefined) {
      const failed = (s.results as Structured[])[s.failed_index]?.structured ?? {};
      return { ok: false, code: failed.code, field: failed.field, message: failed.message };
    }
    const last = (s.results as Structured[]).at(-1)?.structured ?? {};
    return { ok: true, effect: last.effect, route: last.route, mode: last.delivery?.mode };
  }
  if (tool === "verify_state") {
    return { ok: true, status: s.status, effect: s.status, route: "accessibility" };
  }
  return { ok: true, effect: s.effect, route: s.route, mode: s.delivery?.mode };
}

function expectedText(cell: Cell): string {
  const e = cell.expect;
  if (e.kind === "refused") return `refused:${e.code}${e.field ? `(${e.field})` : ""}`;
  if (e.kind === "observed") return `observed:${e.status}`;
  return e.route ? `delivered via ${e.route}` : "delivered";
}

function inside(box: Box, p: Point): boolean {
  return p.x >= box.x && p.y >= box.y && p.x < box.x + box.width && p.y < box.y + box.height;
}

/** The screen points a pixel-addressed window call acts on (x, y or from and to). */
function actedPoints(view: View, call: Call): Point[] {
  const a = call.args;
  return [[a.x, a.y], [a.from_x, a.from_y], [a.to_x, a.to_y]]
    .filter(([x, y]) => typeof x === "number" && typeof y === "number")
    .map(([x, y]) => pixelToScreen(view, { x: x as number, y: y as number }));
}

async function runCell(world: World, cell: Cell, registered: Set<string>): Promise<CellResult> {
  const started = performance.now();
  const result: CellResult = {
    id: cell.id,
    app: cell.app,
    tool: cell.tool,
    expected: expectedText(cell),
    route: "-",
    effect: "-",
    seen: "-",
    passed: false,
    reasons: [],
    kind: cell.expect.kind,
    ms: 0,
  };
  const finish = () => {
    result.passed = result.reasons.length === 0;
    result.ms = Math.round(performance.now() - started);
    return result;
  };
  if (!registered.has(cell.tool)) {
    result.reasons.push(`tool not registered: ${cell.tool}`);
    return finish();
  }
  let ctx: OracleContext | null = null;
  try {
    await world.restore();
    if (cell.app === "xmessage") await world.startXmessage();
    const view = await observe(world, cell.app);
    ctx = context(world, view);
    if (cell.prepare) {
      await cell.prepare(ctx);
      await sleep(100);
    }
    const calls = await cell.calls(ctx);
    const missing = calls.map((c) => c.tool).filter((t) => !registered.has(t));
    if (missing.length) {
      result.reasons.push(`tool not registered: ${[...new Set(missing)].join(", ")}`);
      return finish();
    }
    // The layout is part of the cell: a covered cell must really act under a sentinel, and the rest must not.
    if (cell.scope === "window" && cell.addressing === "pixel" && cell.app !== "sentinel") {
      const points = actedPoints(view, calls[0]);
      const under = points.filter((p) =>
        Object.values(world.sentinelFrames).some((frame) => inside(frame, p))
      );
      if (points.length && (under.length > 0) !== (cell.covered === true)) {
        const where = points.map((p) => `(${p.x}, ${p.y})`).join(" to ");
        result.reasons.push(`layout: ${where} ${under.length ? "is" : "is not"} under a sentinel window`);
        return finish();
      }
    }

    const desktopBefore = await readDesktop();
    const sentinelBefore = (await world.sentinel.events()).length;
    const oracleBefore = await cell.oracle.read(ctx);

    const watch = leavesDesktopAlone(cell)
      ? await watchFocus(world.env, [...Object.values(world.sentinel.windows), view.windowId])
      : null;
    let outcome: Outcome = { ok: true };
    let focusEvents: FocusWatchEvent[] = [];
    try {
      for (const call of calls) {
        const raw = await world.driver.call(call.tool, call.args);
        outcome = outcomeOf(call.tool, raw as { isError?: boolean; structuredContent?: Structured });
        if (!outcome.ok) break;
      }
    } finally {
      focusEvents = (await watch?.stop()) ?? [];
    }
    if (focusEvents.length) {
      result.reasons.push(`activation or focus changed during the call: ${describeFocusEvents(focusEvents)}`);
    }
    result.route = outcome.ok ? `${outcome.route ?? "?"}${outcome.mode ? `/${outcome.mode}` : ""}` : "none";
    result.effect = outcome.ok ? String(outcome.effect ?? "?") : `refused: ${outcome.code}`;

    // The app's own state.
    let verdict = cell.oracle.judge(oracleBefore, oracleBefore);
    if (cell.expect.kind === "delivered" && outcome.ok) {
      const deadline = performance.now() + DELIVERY_TIMEOUT_MS;
      while (true) {
        verdict = cell.oracle.judge(oracleBefore, await cell.oracle.read(ctx));
        if (verdict.intended || performance.now() > deadline) break;
        await sleep(POLL_MS);
      }
    } else {
      await sleep(REFUSAL_SETTLE_MS);
      verdict = cell.oracle.judge(oracleBefore, await cell.oracle.read(ctx));
    }
    result.seen = verdict.seen;
    judgeOutcome(cell, outcome, verdict, result.reasons);

    // What the action must leave alone.
    const desktopAfter = await readDesktop();
    const events = (await world.sentinel.events()).slice(sentinelBefore)
      .filter((e) => e.window !== cell.sentinelTarget);
    judgeDesktop(cell, outcome, desktopBefore, desktopAfter, events, result.reasons);
  } catch (error) {
    result.reasons.push(`catalog error: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    if (ctx && cell.cleanup) {
      await cell.cleanup(ctx).catch((error) =>
        console.error(
          `catalog: clean-up of ${cell.id} failed: ${error instanceof Error ? error.message : error}`,
        )
      );
    }
  }
  return finish();
}

function judgeOutcome(
  cell: Cell,
  outcome: Outcome,
  verdict: { intended: boolean; changed: boolean; seen: string },
  reasons: string[],
): void {
  const expect = cell.expect;
  if (expect.kind === "refused") {
    if (outcome.ok) {
      reasons.push(
        `expected refusal ${expect.code}, but the tool succeeded (${outcome.effect} via ${outcome.route})`,
      );
    } else if (
      outcome.code !== expect.code || (expect.field !== undefined && outcome.field !== expect.field)
    ) {
      reasons.push(
        `expected ${expect.code}${expect.field ? `(${expect.field})` : ""}, got ${outcome.code}` +
          `${outcome.field ? `(${outcome.field})` : ""}: ${outcome.message}`,
      );
    }
    if (verdict.changed) reasons.push(`app state changed although nothing was to be sent: ${verdict.seen}`);
    return;
  }
  if (!outcome.ok) {
    reasons.push(`${outcome.code}${outcome.field ? `(${outcome.field})` : ""}: ${outcome.message}`);
    return;
  }
  if (expect.kind === "observed") {
    if (outcome.status !== expect.status) {
      reasons.push(`reported ${outcome.status}, the app's own state says ${expect.status}`);
    }
    if (verdict.changed) reasons.push(`a read-only tool changed app state: ${verdict.seen}`);
    return;
  }
  if (outcome.effect === "refused") reasons.push("success result with effect refused");
  if (verdict.intended && outcome.effect === "suspected_noop") {
    reasons.push(`false no-op: tool said suspected_noop, but ${cell.oracle.says} happened (${verdict.seen})`);
  }
  if (!verdict.intended && outcome.effect === "confirmed") {
    reasons.push(`false confirmation: the tool said confirmed, but ${cell.oracle.says} did not happen`);
  } else if (!verdict.intended) {
    reasons.push(
      verdict.changed
        ? `wrong effect: ${cell.oracle.says} did not happen (${verdict.seen}); tool said ${outcome.effect}`
        : `silent no-op: tool said ${outcome.effect} via ${outcome.route}, app state unchanged ` +
          `(${cell.oracle.says} expected)`,
    );
  }
  if (expect.route && outcome.route !== expect.route) {
    reasons.push(`route ${outcome.route}, expected ${expect.route}`);
  }
}

/** Background cells, and cells that send nothing without a preparation step, must leave the desktop alone. */
function leavesDesktopAlone(cell: Cell): boolean {
  const nothingSent = cell.expect.kind === "refused" || cell.expect.kind === "observed";
  return cell.delivery === "background" || (nothingSent && !cell.prepare);
}

function judgeDesktop(
  cell: Cell,
  outcome: Outcome,
  before: Awaited<ReturnType<typeof readDesktop>>,
  after: Awaited<ReturnType<typeof readDesktop>>,
  events: SentinelEvent[],
  reasons: string[],
): void {
  if (leavesDesktopAlone(cell)) {
    const changes = desktopChanges(before, after);
    if (changes.length) reasons.push(`desktop disturbed: ${changes.join("; ")}`);
    const leaked = events.filter(isBackgroundLeak);
    if (leaked.length) reasons.push(`sentinel received ${describeEvents(leaked)}`);
    return;
  }
  if (cell.delivery === "foreground" && outcome.ok && after.active !== before.active) {
    const hex = (id: number | null) => id === null ? "none" : `0x${id.toString(16)}`;
    reasons.push(`previous window not active again: ${hex(before.active)} -> ${hex(after.active)}`);
  }
  const leaked = events.filter(isDeliveredInput);
  if (leaked.length) reasons.push(`sentinel received ${describeEvents(leaked)}`);
}
