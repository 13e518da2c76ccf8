/**
 * Read-back of pointer gestures through a numeric accessibility value: the
 * slider under a drag, the scroll bar of the area under a wheel. A probe reads
 * the value before the gesture and compares after.
 *
 * @module
 */
import { AxRole } from "../ports/accessibility.ts";
import { type Point } from "../ports/geometry.ts";
import type { Snapshot, SnapshotElement } from "../kernel/snapshots.ts";
import type { ToolContext } from "../kernel/tool.ts";
import type { Outcome } from "./outcome.ts";
import { elementAt, waitForChange } from "./readback.ts";
import { judged, type JudgeOptions, type Witness } from "./witness.ts";

/** A value read before a gesture, to compare afterwards. */
export interface ValueProbe {
  ref: unknown;
  /** The platform's role name, for messages. */
  platformRole: string;
  label: string;
  before: number;
  /**
   * True when the element itself is under the point; false for a scroll bar
   * associated with the area under the point (an inference: no change there
   * does not prove the gesture did nothing).
   */
  direct: boolean;
}

/** An element's current numeric value, or null when it has none. */
export async function readValue(ctx: ToolContext, ref: unknown): Promise<number | null> {
  try {
    const { current } = await ctx.backend.accessibility.value(ref);
    return Number.isFinite(current) ? current : null;
  } catch {
    return null;
  }
}

/** Reads a probe of an element, or null when it has no numeric value. */
export async function probeElement(
  ctx: ToolContext,
  element: Pick<SnapshotElement, "ref" | "platformRole" | "label">,
  direct = true,
): Promise<ValueProbe | null> {
  const before = await readValue(ctx, element.ref);
  return before === null
    ? null
    : { ref: element.ref, platformRole: element.platformRole, label: element.label, before, direct };
}

/**
 * A probe for a gesture at a screen point of a window, from the window's current
 * snapshot: the value element under the point, else (with `axis`) the nearest
 * scroll bar of that orientation beside the point. Null when the window has no
 * snapshot or nothing there has a value.
 */
export async function probeAt(
  ctx: ToolContext,
  windowId: number,
  point: Point,
  axis?: "vertical" | "horizontal",
): Promise<ValueProbe | null> {
  const snapshot = ctx.state.snapshots.current(windowId, ctx.session.id);
  const hit = elementAt(snapshot, point);
  if (hit) {
    const probe = await probeElement(ctx, hit);
    if (probe) return probe;
  }
  const bar = axis ? scrollBarBeside(snapshot, point, axis) : null;
  return bar ? await probeElement(ctx, bar, false) : null;
}

/**
 * The scroll bar of `axis` nearest to the point along the cross axis that spans
 * it (to its right for a vertical bar, below it for a horizontal one).
 */
export function scrollBarBeside(
  snapshot: Snapshot | undefined,
  point: Point,
  axis: "vertical" | "horizontal",
): SnapshotElement | null {
  let best: SnapshotElement | null = null;
  let bestGap = Infinity;
  for (const element of snapshot?.elements ?? []) {
    const f = element.frame;
    if (!f || element.role !== AxRole.ScrollBar) continue;
    const vertical = f.height > f.width;
    if (vertical !== (axis === "vertical")) continue;
    const spans = vertical
      ? point.y >= f.y && point.y < f.y + f.height
      : point.x >= f.x && point.x < f.x + f.width;
    const gap = vertical ? f.x + f.width - point.x : f.y + f.height - point.y;
    if (spans && gap >= 0 && gap < bestGap) {
      best = element;
      bestGap = gap;
    }
  }
  return best;
}

/** Waits (up to ~600 ms; with `quick`, one read) for the probed value to change. */
export async function settleProbe(
  ctx: ToolContext,
  probe: ValueProbe,
  quick = false,
): Promise<{ changed: boolean; after: number | null }> {
  return await waitForChange<number | null>(
    () => readValue(ctx, probe.ref),
    probe.before,
    (value) => value !== null && value !== probe.before,
    quick ? 0 : undefined,
  );
}

/**
 * A gesture's outcome judged by its probe: unverifiable without one, confirmed
 * when the value moved, else `unchanged` (by default a suspected no-op).
 */
export async function probeOutcome(
  ctx: ToolContext,
  probe: ValueProbe | null,
  base: Omit<Outcome, "effect" | "evidence">,
  unchanged: Pick<Outcome, "effect" | "escalation"> = { effect: "suspected_noop" },
  quick = false,
): Promise<Outcome> {
  if (!probe) return { ...base, effect: "unverifiable" };
  const { changed, after } = await settleProbe(ctx, probe, quick);
  const what = `${probe.platformRole} ${JSON.stringify(probe.label)}`;
  if (changed) {
    return {
      ...base,
      effect: "confirmed",
      evidence: ["value_readback"],
      summary: `${base.summary}; ${what} value ${probe.before} -> ${after}`,
    };
  }
  return { ...base, ...unchanged, summary: `${base.summary}; ${what} value stayed ${probe.before}` };
}

/**
 * The verdict of a pointer action with a value probe and a witness: the probe's read-back
 * when the value moved, otherwise what the witness saw (a change confirms, nothing
 * changed is a suspected no-op with `options.noop`).
 */
export async function witnessedProbe(
  ctx: ToolContext,
  witness: Witness,
  probe: ValueProbe | null,
  base: Omit<Outcome, "effect" | "evidence">,
  options: JudgeOptions = {},
): Promise<Outcome> {
  const read = await probeOutcome(
    ctx,
    probe,
    base,
    { effect: "unverifiable" },
    await witness.settledUnchanged(),
  );
  return await judged(witness, read, options);
}
