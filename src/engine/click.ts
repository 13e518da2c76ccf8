/**
 * The click ladder: element action in background, then pixel in background
 * (a private pointer when nothing covers the point, else the element under the
 * point), then foreground as a transaction. Desktop scope uses the user's pointer.
 *
 * @module
 */
import type { ElementState } from "../ports/accessibility.ts";
import type { Point } from "../ports/geometry.ts";
import type { MouseButton, RawPointer } from "../ports/input.ts";
import { cursorApproach, cursorPress, frameCentre } from "../features/agent_cursor/follow.ts";
import { DriverError } from "../ports/errors.ts";
import type { ToolContext } from "../kernel/tool.ts";
import { heldModifiers } from "./modifiers.ts";
import type { Outcome } from "./outcome.ts";
import { contains, elementCenter, elementInView } from "./pointing.ts";
import { elementAt, reportedToggle, toggleState, waitForChange, watchElement } from "./readback.ts";
import type { ActionTarget } from "./target.ts";
import { refuseBackgroundFor } from "./toolkit_routes.ts";
import { judged, Witness, witnessedForeground, witnessScope } from "./witness.ts";

/** What to press. */
export interface ClickGesture {
  button: MouseButton;
  count: number;
  modifiers: string[];
}

/** Delivery modes of the ladder. */
export type DeliveryMode = "background" | "foreground";

const ACTIVATION = /^(click|press|activate|toggle|open|jump|dodefault|invoke|clickancestor|check|uncheck)$/;
const CLICK_GAP_MS = 40;
/** Frame reads after a press aimed at an element (see movedAway), and the gap between them. */
const MOVED_LOOKS = 3;
const MOVED_LOOK_GAP_MS = 100;

/**
 * The verb of a platform action name, for classifying it: the last dotted segment, without
 * an AX prefix, letters only, lower case ("AXPress" → "press", "app.activate" → "activate",
 * "scroll-up" → "scrollup").
 */
export function actionVerb(name: string): string {
  return name.split(".").pop()!.replace(/^AX(?=[A-Z])/, "").replace(/[^a-z]/gi, "").toLowerCase();
}

/** The first activation action of an element (never blindly action 0), or null. */
export async function activationAction(ctx: ToolContext, ref: unknown): Promise<string | null> {
  const names = await ctx.backend.accessibility.actionNames(ref);
  return names.find((name) => ACTIVATION.test(actionVerb(name))) ?? null;
}

/** Presses and releases a button `count` times at a point. */
export async function clickAt(pointer: RawPointer, point: Point, gesture: ClickGesture): Promise<void> {
  await pointer.move(point);
  for (let i = 0; i < gesture.count; i++) {
    await pointer.button(gesture.button, true);
    await pointer.button(gesture.button, false);
    if (i < gesture.count - 1) await new Promise((resolve) => setTimeout(resolve, CLICK_GAP_MS));
  }
  await pointer.sync();
}

/**
 * Runs one click. `point` is required for pixel clicks and for desktop scope;
 * element clicks take the element from the target. The verdict compares the app
 * before and after (see {@linkcode Witness}): the toggle state of the element clicked,
 * else anything the app shows.
 */
export async function performClick(
  ctx: ToolContext,
  target: ActionTarget,
  point: Point | null,
  gesture: ClickGesture,
  mode: DeliveryMode,
): Promise<Outcome> {
  const label = `${
    gesture.count === 2 ? "double-" : gesture.count === 3 ? "triple-" : ""
  }${gesture.button} click`;
  // The session's agent cursor glides to the target first (only when it is enabled).
  await cursorApproach(
    ctx,
    () => point ?? frameCentre(target.element?.element.frame),
    "click",
    gesture.modifiers,
  );
  if (target.scope === "desktop") {
    const witness = await Witness.observe(ctx, await witnessScope(ctx, target, point));
    const pointer = await ctx.input.pointer("global");
    await heldModifiers(ctx, "global", gesture.modifiers, () => clickAt(pointer, point!, gesture));
    witness.sent();
    cursorPress(ctx);
    return await judged(witness, {
      effect: "unverifiable",
      route: "global_input",
      mode: "not_applicable",
      deliveredCount: gesture.count,
      summary: `${label} at screen (${point!.x}, ${point!.y})`,
    });
  }
  const element = target.element?.element ?? null;
  const snapshotHit = point
    ? elementAt(ctx.state.snapshots.current(target.windowId, ctx.session.id), point)
    : element;
  const subject = snapshotHit?.ref ?? null;
  const subjectRole = snapshotHit?.role;
  const before = subject !== null ? await toggleState(ctx, subject, subjectRole) : null;
  const scope = { pid: target.pid, windowId: target.windowId };
  const refs = subject !== null ? [subject] : [];
  // Watched from before the click, so the read-back (and the witness) wake on the app's own events.
  const watch = subject !== null ? await watchElement(ctx, subject) : null;
  try {
    let outcome: Omit<Outcome, "effect" | "evidence">;
    let witness: Witness;
    if (mode === "foreground") {
      const { at, scrolled } = point ? { at: point, scrolled: null } : await elementInView(ctx, element!.ref);
      const pointer = await ctx.input.pointer("global");
      ({ witness } = await witnessedForeground(
        ctx,
        scope,
        refs,
        () => heldModifiers(ctx, "global", gesture.modifiers, () => clickAt(pointer, at, gesture)),
      ));
      outcome = {
        route: "global_input",
        mode: "foreground",
        deliveredCount: gesture.count,
        summary:
          `${scrolled ? `${scrolled}; ` : ""}${label} at (${at.x}, ${at.y}) in window ${target.windowId}, ` +
          "then restored the previous window",
      };
    } else {
      witness = await Witness.observe(ctx, scope, refs, { watch });
      outcome = await backgroundClick(ctx, target, point, gesture, label);
      witness.sent();
    }
    cursorPress(ctx);

    if (subject !== null && before !== null) {
      const quick = await witness.settledUnchanged();
      const { changed } = await waitForChange(
        () => toggleState(ctx, subject, subjectRole),
        before,
        undefined,
        quick ? 0 : undefined,
        watch,
        () => reportedToggle(watch),
      );
      if (changed) return { ...outcome, effect: "confirmed", evidence: ["value_readback"] };
    }
    return await judged(witness, { ...outcome, effect: "unverifiable" }, {
      noop: outcome.route === "accessibility"
        ? { target: "pixel", reason: "suspected_noop" }
        : mode === "background"
        ? { target: "foreground", reason: "suspected_noop" }
        : undefined,
    });
  } finally {
    watch?.close();
  }
}

async function backgroundClick(
  ctx: ToolContext,
  target: Extract<ActionTarget, { scope: "window" }>,
  point: Point | null,
  gesture: ClickGesture,
  label: string,
): Promise<Omit<Outcome, "effect" | "evidence">> {
  const plain = gesture.button === "left" && gesture.count === 1 && gesture.modifiers.length === 0;
  const named = target.element?.element ?? null;
  // 1. Element, background: the accessibility action (works whatever covers the window).
  if (plain && named) {
    const done = await accessibilityClick(ctx, named);
    if (done) return done;
  }
  const toolkit = await ctx.backend.input.toolkit(target.pid);
  refuseBackgroundFor(toolkit, "pointer", target);
  const at = point ?? await elementCenter(ctx, named!.ref);
  // 2. Pixel, background: a private pointer where nothing covers the target...
  const onTop = await ctx.backend.input.windowOnTopAt(target.windowId, at);
  if (onTop && await ctx.backend.input.backgroundAvailable()) {
    const pointer = await ctx.input.pointer("background");
    const stateBefore = point ? null : await ctx.backend.accessibility.state(named!.ref).catch(() => null);
    const pressAt = (where: Point) =>
      heldModifiers(
        ctx,
        "background",
        gesture.modifiers,
        () => clickAt(pointer, where, gesture),
        target.windowId,
      );
    await pressAt(at);
    const via = pointer.via?.() ?? null;
    let summary = `${label} at (${at.x}, ${at.y}) in window ${target.windowId} with a private pointer` +
      (via ? ` (posted with ${via})` : "");
    const moved = stateBefore ? await movedAway(ctx, named!.ref, at, stateBefore, target.windowId) : null;
    if (moved) {
      await pressAt(moved);
      summary +=
        ` landed beside ${named!.platformRole} ${JSON.stringify(named!.label)}, which the app then ` +
        `placed at (${moved.x}, ${moved.y}) (its geometry was stale until the pointer arrived); clicked again there`;
    }
    return {
      route: "global_input",
      mode: "background",
      deliveredCount: gesture.count * (moved ? 2 : 1),
      summary,
    };
  }
  // ...else the element under the point, through accessibility (left click only).
  const hit = plain && point
    ? elementAt(ctx.state.snapshots.current(target.windowId, ctx.session.id), point)
    : null;
  if (hit) {
    const done = await accessibilityClick(ctx, hit);
    if (done) {
      return {
        ...done,
        summary: `${done.summary} (the element under (${at.x}, ${at.y}); the point is covered)`,
      };
    }
  }
  throw new DriverError(
    "background_unavailable",
    onTop
      ? "This desktop offers no private background pointer; nothing was sent"
      : `Another window covers window ${target.windowId} at (${at.x}, ${at.y}); background pointer input would land there, so nothing was sent`,
    {
      effect: "refused",
      escalation: { recommended: "foreground", reason: onTop ? "no_private_pointer" : "target_covered" },
      suggestion: 'Retry this action with delivery_mode:"foreground".',
      hint: 'retry with delivery_mode "foreground"' + (onTop ? "" : " or act on an element_token"),
    },
  );
}

/**
 * After a pixel press aimed at an element's centre: the element's new centre when the app
 * now places the element away from the pressed point and its own state (focus, selection,
 * check) did not change, i.e. the press hit something else; else null. LibreOffice's gtk3
 * windows report extents against a stale window position until a pointer event tells them
 * where they are (a fresh Calc window: every cell 25 px too high), so the first press on
 * B2 selects B1.
 */
async function movedAway(
  ctx: ToolContext,
  ref: unknown,
  pressed: Point,
  before: ElementState,
  windowId: number,
): Promise<Point | null> {
  await ctx.backend.input.appSettled(windowId).catch(() => {});
  for (let look = 0; look < MOVED_LOOKS; look++) {
    if (look > 0) await new Promise((resolve) => setTimeout(resolve, MOVED_LOOK_GAP_MS));
    const frame = await ctx.backend.accessibility.frame(ref).catch(() => null);
    if (!frame) return null;
    if (contains(frame, pressed)) continue;
    const after = await ctx.backend.accessibility.state(ref).catch(() => null);
    const same = after !== null && after.focused === before.focused && after.selected === before.selected &&
      after.checked === before.checked;
    return same ? frameCentre(frame) : null;
  }
  return null;
}

/** Fires an element's activation action; null when it has none. */
async function accessibilityClick(
  ctx: ToolContext,
  element: { ref: unknown; platformRole: string; label: string },
): Promise<Omit<Outcome, "effect" | "evidence"> | null> {
  const action = await activationAction(ctx, element.ref);
  if (!action) return null;
  if (!(await ctx.backend.accessibility.doAction(element.ref, action))) {
    throw new DriverError(
      "delivery_failed",
      `The app refused the "${action}" action of ${element.platformRole} "${element.label}"`,
      {
        hint: 'retry by pixel or with delivery_mode "foreground"',
      },
    );
  }
  return {
    route: "accessibility",
    mode: "background",
    deliveredCount: 1,
    summary: `${action} on ${element.platformRole} ${JSON.stringify(element.label)} through accessibility`,
  };
}
