/**
 * A drag split over calls: press and hold (mouse_button_down), move while held
 * (mouse_drag), release (mouse_button_up). Background only: each hold has a
 * private pointer of its own, pressed only where nothing covers the window.
 *
 * @module
 */
import type { Point } from "../ports/geometry.ts";
import type { MouseButton } from "../ports/input.ts";
import { DriverError } from "../ports/errors.ts";
import type { ToolContext } from "../kernel/tool.ts";
import { requireBackgroundPointer } from "./background.ts";
import { interpolate, moveTracks } from "./gesture.ts";
import { alreadyHeld, type HeldButton, heldButtons } from "./held_buttons.ts";
import type { Outcome } from "./outcome.ts";
import { type ActionTarget, resolveTarget, type TargetArgs } from "./target.ts";
import { probeAt, readValue, type ValueProbe, witnessedProbe } from "./value_probe.ts";
import { Witness, type WitnessScope } from "./witness.ts";

type WindowTarget = Extract<ActionTarget, { scope: "window" }>;

/** Resolves the window a held-button tool acts on (no desktop, no elements). */
export async function resolveWindowTarget(ctx: ToolContext, args: TargetArgs): Promise<WindowTarget> {
  const target = await resolveTarget(ctx, args, { allowDesktop: false, allowElement: false });
  if (target.scope !== "window") {
    throw new DriverError("invalid_action_target", "Invalid target: this tool acts on one window", {
      effect: "refused",
    });
  }
  return target;
}

/** Presses `button` at `point` of the target window and keeps it held. */
export async function pressAndHold(
  ctx: ToolContext,
  target: WindowTarget,
  point: Point,
  button: MouseButton,
  cursorId: string,
): Promise<Outcome> {
  const store = heldButtons(ctx.state);
  const current = store.get(ctx.session.id, cursorId);
  if (current) throw alreadyHeld(current);
  await requireBackgroundPointer(ctx, target, [point], "press", { foregroundRung: false });
  const probe = await probeAt(ctx, target.windowId, point);
  const witness = await Witness.observe(ctx, scopeOf(target), probe ? [probe.ref] : []);
  const pointer = await ctx.backend.input.extraPointer();
  try {
    await pointer.move(point);
    await pointer.button(button, true);
    await pointer.sync();
  } catch (error) {
    await pointer.close().catch(() => {});
    throw error;
  }
  witness.sent();
  store.add({
    sessionId: ctx.session.id,
    cursorId,
    pid: target.pid,
    windowId: target.windowId,
    button,
    pointer,
    at: { x: point.x, y: point.y },
    probe,
  });
  const summary = `pressed and holding the ${button} button at (${point.x}, ${point.y}) in window ` +
    `${target.windowId} with a private pointer (cursor "${cursorId}"); release it with mouse_button_up`;
  const base = { route: "global_input" as const, mode: "background" as const, deliveredCount: 1, summary };
  const finding = await witness.settle();
  if (finding.changes.length) {
    return {
      ...base,
      effect: "confirmed",
      evidence: ["window_change"],
      summary: `${summary}; ${finding.changes.join("; ")}`,
    };
  }
  // A press alone often shows nothing until the button moves or is released: compared, not a no-op.
  return {
    ...base,
    effect: "unverifiable",
    summary: finding.readable
      ? `${summary}; nothing the app shows changed yet (a press may show nothing until the button moves or is released)`
      : summary,
  };
}

function scopeOf(target: { pid: number; windowId: number }): WitnessScope {
  return { pid: target.pid, windowId: target.windowId };
}

/**
 * The hold of this session's cursor, checked against an optionally named window.
 *
 * @throws {DriverError} `button_not_held` without a hold; `invalid_arguments` when
 *   `pid`/`window_id` name another window than the one holding the button.
 */
export function findHold(
  ctx: ToolContext,
  cursorId: string,
  named: { pid?: number; windowId?: number },
  tool: string,
): HeldButton {
  const hold = heldButtons(ctx.state).get(ctx.session.id, cursorId);
  if (!hold) {
    throw new DriverError(
      "button_not_held",
      `Cursor "${cursorId}" holds no button in this session; nothing was sent`,
      {
        effect: "refused",
        cursor_id: cursorId,
        hint: `call mouse_button_down first (with the same session and cursor_id), then ${tool}`,
      },
    );
  }
  const mismatch = named.pid !== undefined && named.pid !== hold.pid
    ? "pid"
    : named.windowId !== undefined && named.windowId !== hold.windowId
    ? "window_id"
    : null;
  if (mismatch) {
    throw new DriverError(
      "invalid_arguments",
      `Cursor "${cursorId}" holds the ${hold.button} button in window ${hold.windowId} (pid ${hold.pid}), ` +
        `not the ${mismatch} given; nothing was sent`,
      {
        field: mismatch,
        effect: "refused",
        pid: hold.pid,
        window_id: hold.windowId,
        hint: `omit pid and window_id, or pass the holding window's`,
      },
    );
  }
  return hold;
}

/** Moves a held button's pointer to `point` in steps. A failed move releases the button. */
export async function moveHeld(
  ctx: ToolContext,
  hold: HeldButton,
  target: WindowTarget,
  point: Point,
  timing: { durationMs: number; steps: number },
): Promise<Outcome> {
  const path = interpolate([hold.at, point], timing.steps);
  await requireBackgroundPointer(ctx, target, path, "drag", { foregroundRung: false });
  const before = hold.probe ? await reprobe(ctx, hold.probe) : null;
  const witness = await Witness.observe(ctx, scopeOf(hold), before ? [before.ref] : []);
  try {
    await moveTracks([{ pointer: hold.pointer, path, durationMs: timing.durationMs }], ctx.signal);
  } catch (error) {
    await release(ctx, hold).catch(() => {});
    throw error;
  }
  witness.sent();
  const from = hold.at;
  hold.at = { x: point.x, y: point.y };
  const summary = `moved the held ${hold.button} button from (${from.x}, ${from.y}) to ` +
    `(${point.x}, ${point.y}) in window ${hold.windowId} (cursor "${hold.cursorId}")`;
  return await witnessedProbe(ctx, witness, before, {
    route: "global_input",
    mode: "background",
    deliveredCount: 1,
    summary,
  });
}

/** Releases a hold, at `point` when given (else where it is); always forgets it and removes its pointer. */
export async function releaseHeld(
  ctx: ToolContext,
  hold: HeldButton,
  point: Point | null,
  note = "",
): Promise<Outcome> {
  const witness = await Witness.observe(ctx, scopeOf(hold), hold.probe ? [hold.probe.ref] : []);
  try {
    if (point) {
      await hold.pointer.move(point);
      hold.at = { x: point.x, y: point.y };
    }
  } catch (error) {
    await release(ctx, hold).catch(() => {});
    throw error;
  }
  await release(ctx, hold);
  witness.sent();
  const summary = `released the ${hold.button} button at (${hold.at.x}, ${hold.at.y}) in window ` +
    `${hold.windowId} (cursor "${hold.cursorId}")${note}`;
  return await witnessedProbe(ctx, witness, hold.probe, {
    route: "global_input",
    mode: "background",
    deliveredCount: 1,
    summary,
  });
}

async function release(ctx: ToolContext, hold: HeldButton): Promise<void> {
  try {
    await hold.pointer.button(hold.button, false);
    await hold.pointer.sync();
  } finally {
    heldButtons(ctx.state).delete(hold);
    await hold.pointer.close();
  }
}

/** The probe's value now, as a new probe (to compare one step). */
async function reprobe(ctx: ToolContext, probe: ValueProbe): Promise<ValueProbe | null> {
  const value = await readValue(ctx, probe.ref);
  return value === null ? null : { ...probe, before: value };
}
