/**
 * The scroll ladder. An element, in background: its accessibility scroll actions,
 * else its numeric value (a slider or scroll bar) moved by steps; both read back.
 * A point (or an element without either): wheel detents through a private pointer
 * where nothing covers the point, in the foreground transaction, or on the user's
 * pointer for the desktop.
 *
 * A scroll is `confirmed` only by the scrolled view's own state: the value of the element
 * (a slider, a scroll bar) or of the scroll bar of the view under the point, read back.
 * The window's pixels or other objects changing prove nothing about which view moved
 * (a pointer entering repaints hover highlights): the answer is then `unverifiable`.
 *
 * @module
 */
import { abortedPartway } from "../kernel/call_abort.ts";
import type { Point } from "../ports/geometry.ts";
import type { SnapshotElement } from "../kernel/snapshots.ts";
import type { ToolContext } from "../kernel/tool.ts";
import { requireBackgroundPointer } from "./background.ts";
import { actionVerb, type DeliveryMode } from "./click.ts";
import type { Outcome } from "./outcome.ts";
import { cursorApproach, frameCentre } from "../features/agent_cursor/follow.ts";
import { elementCenter } from "./pointing.ts";
import type { ActionTarget } from "./target.ts";
import { probeAt, probeElement, type ValueProbe, witnessedProbe } from "./value_probe.ts";
import { judged, Witness, witnessedForeground, type WitnessScope, witnessScope } from "./witness.ts";

/** Scroll directions. */
export type ScrollDirection = "up" | "down" | "left" | "right";

/** Wheel detents per `by: "page"` unit (X11 has no page wheel event). */
export const DETENTS_PER_PAGE = 5;

/** What to scroll. */
export interface ScrollGesture {
  direction: ScrollDirection;
  /** Units of `by`. */
  amount: number;
  by: "line" | "page";
}

/** Detents of a gesture: one per line, {@linkcode DETENTS_PER_PAGE} per page. */
export function detents(gesture: ScrollGesture): number {
  return gesture.amount * (gesture.by === "page" ? DETENTS_PER_PAGE : 1);
}

const ACTIONS: Record<ScrollDirection, string[]> = {
  up: ["scrollup", "scrollbackward"],
  down: ["scrolldown", "scrollforward"],
  left: ["scrollleft"],
  right: ["scrollright"],
};

/**
 * Runs one scroll: at `point` (screen points), else at the target's element, else at
 * the window's centre (desktop scope needs `point`).
 */
export async function performScroll(
  ctx: ToolContext,
  target: ActionTarget,
  point: Point | null,
  gesture: ScrollGesture,
  mode: DeliveryMode,
): Promise<Outcome> {
  const count = detents(gesture);
  const dx = gesture.direction === "left" ? -count : gesture.direction === "right" ? count : 0;
  const dy = gesture.direction === "up" ? -count : gesture.direction === "down" ? count : 0;
  const label = `scrolled ${gesture.direction} ${count} detent${count === 1 ? "" : "s"}`;
  await cursorApproach(
    ctx,
    () =>
      point ?? frameCentre(target.element?.element.frame) ??
        (target.scope === "window" ? center(target.window.bounds) : null),
    "scroll",
  );
  if (target.scope === "desktop") {
    const witness = await Witness.observe(ctx, await witnessScope(ctx, target, point));
    const pointer = await ctx.input.pointer("global");
    await pointer.move(point!);
    stopIfAborted(ctx, await pointer.wheel(dx, dy, ctx.signal), count);
    await pointer.sync();
    witness.sent();
    return await judged(witness, {
      effect: "unverifiable",
      route: "global_input",
      mode: "not_applicable",
      deliveredCount: count,
      summary: `${label} at screen (${point!.x}, ${point!.y}) with your pointer`,
    }, { changed: "unverifiable" });
  }
  const element = target.element?.element ?? null;
  if (element && mode === "background") {
    const done = await accessibilityScroll(
      ctx,
      { pid: target.pid, windowId: target.windowId },
      element,
      gesture,
    );
    if (done) return done;
  }
  const at = point ?? (element ? await elementCenter(ctx, element.ref) : center(target.window.bounds));
  if (mode === "background" && !(await ctx.backend.input.windowOnTopAt(target.windowId, at))) {
    // Another window covers the point: the view's own scroll bar there (or beside it) moves
    // through accessibility, which the covering window never sees; without one, refused below.
    const covered = await coveredScroll(ctx, target, at, gesture, dy !== 0 ? "vertical" : "horizontal");
    if (covered) return covered;
  }
  if (mode === "background") await requireBackgroundPointer(ctx, target, [at], "scroll");
  // An element without a value of its own is read through the scroll bar of the view it is in.
  const axis = dy !== 0 ? "vertical" : "horizontal";
  const probe = (element ? await probeElement(ctx, element) : null) ??
    await probeAt(ctx, target.windowId, at, axis);
  const wheel = async (channel: "background" | "global") => {
    const pointer = await ctx.input.pointer(channel);
    await pointer.move(at);
    stopIfAborted(ctx, await pointer.wheel(dx, dy, ctx.signal), count);
    await pointer.sync();
  };
  const scope = { pid: target.pid, windowId: target.windowId };
  const refs = probe ? [probe.ref] : [];
  let summary: string;
  let witness: Witness;
  if (mode === "foreground") {
    ({ witness } = await witnessedForeground(ctx, scope, refs, () => wheel("global")));
    summary =
      `${label} at (${at.x}, ${at.y}) in window ${target.windowId}, then restored the previous window`;
  } else {
    witness = await Witness.observe(ctx, scope, refs);
    await wheel("background");
    witness.sent();
    summary = `${label} at (${at.x}, ${at.y}) in window ${target.windowId} with a private pointer`;
  }
  return await readBack(ctx, witness, probe, { route: "global_input", mode, deliveredCount: count, summary });
}

/** A scroll at a covered point through the value of the scroll bar the point belongs to; null without one. */
async function coveredScroll(
  ctx: ToolContext,
  target: Extract<ActionTarget, { scope: "window" }>,
  at: Point,
  gesture: ScrollGesture,
  axis: "vertical" | "horizontal",
): Promise<Outcome | null> {
  const probe = await probeAt(ctx, target.windowId, at, axis);
  if (!probe) return null;
  const bar = { ref: probe.ref, platformRole: probe.platformRole, label: probe.label } as SnapshotElement;
  const done = await accessibilityScroll(ctx, { pid: target.pid, windowId: target.windowId }, bar, gesture);
  return done ? { ...done, summary: `${done.summary} (another window covers (${at.x}, ${at.y}))` } : null;
}

function center(bounds: { x: number; y: number; width: number; height: number }): Point {
  return { x: Math.round(bounds.x + bounds.width / 2), y: Math.round(bounds.y + bounds.height / 2) };
}

/** The element's scroll actions, else its value; null when it has neither. */
async function accessibilityScroll(
  ctx: ToolContext,
  scope: WitnessScope,
  element: SnapshotElement,
  gesture: ScrollGesture,
): Promise<Outcome | null> {
  const count = detents(gesture);
  const probe = await probeElement(ctx, element);
  // The snapshot's action names (asking GTK for a Value-only widget's actions logs a CRITICAL).
  const names = element.actions ??
    await ctx.backend.accessibility.actionNames(element.ref).catch(() => [] as string[]);
  const action = names.find((name) => ACTIONS[gesture.direction].includes(actionVerb(name)));
  const what = `${element.platformRole} ${JSON.stringify(element.label)}`;
  const witness = await Witness.observe(ctx, scope, [element.ref]);
  if (action) {
    let fired = 0;
    for (let i = 0; i < count; i++) {
      if (!(await ctx.backend.accessibility.doAction(element.ref, action))) break;
      fired++;
    }
    const base = {
      route: "accessibility" as const,
      mode: "background" as const,
      deliveredCount: fired,
      summary: `"${action}" ${fired} time${fired === 1 ? "" : "s"} on ${what} through accessibility`,
    };
    if (fired === 0) return { ...base, effect: "suspected_noop", escalation: pixelEscalation() };
    witness.sent();
    return await readBack(ctx, witness, probe, base);
  }
  if (!probe) return null;
  // Value route: down/right raise the value (as a scroll bar moves), up/left lower it.
  const range = await ctx.backend.accessibility.value(element.ref);
  const step = range.step > 0 ? range.step : 1;
  const sign = gesture.direction === "down" || gesture.direction === "right" ? 1 : -1;
  let next = probe.before + sign * step * count;
  if (Number.isFinite(range.min)) next = Math.max(range.min, next);
  if (Number.isFinite(range.max)) next = Math.min(range.max, next);
  const base = {
    route: "accessibility" as const,
    mode: "background" as const,
    deliveredCount: 1,
    summary: `set ${what} value ${probe.before} -> ${next} (${gesture.direction} ${count} x step ${step}) ` +
      "through accessibility",
  };
  if (next === probe.before) {
    return {
      ...base,
      deliveredCount: 0,
      effect: "suspected_noop",
      summary: `${what} is already at its ${
        sign > 0 ? "maximum" : "minimum"
      } ${probe.before}; nothing was sent`,
    };
  }
  await ctx.backend.accessibility.setValue(element.ref, next);
  witness.sent();
  return await readBack(ctx, witness, probe, base);
}

function pixelEscalation(): Outcome["escalation"] {
  return { target: "pixel", reason: "suspected_noop" };
}

/**
 * Reads the probe back; without one (or when its value stayed), the witness only tells a
 * suspected no-op (nothing changed anywhere) from `unverifiable`: never `confirmed`.
 */
async function readBack(
  ctx: ToolContext,
  witness: Witness,
  probe: ValueProbe | null,
  base: Omit<Outcome, "effect" | "evidence">,
): Promise<Outcome> {
  const noop = base.route === "accessibility"
    ? pixelEscalation()
    : base.mode === "background"
    ? { target: "foreground" as const, reason: "suspected_noop" as const }
    : undefined;
  return await witnessedProbe(ctx, witness, probe, base, { noop, changed: "unverifiable" });
}

/** Throws when the call was aborted part-way through the detents (how many went out is in the error). */
function stopIfAborted(ctx: ToolContext, sent: number | void, planned: number): void {
  if (!ctx.signal.aborted) return;
  throw abortedPartway(ctx.signal, "Scrolling", { delivered_count: sent ?? 0, planned_count: planned });
}
