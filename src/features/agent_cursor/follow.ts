/**
 * The hooks actions call so the session's agent cursor shows where they land:
 * a glide to the target before the input goes out, a pulse on a click. An
 * action waits at most `glide_duration_ms` for the glide, and not at all when
 * the cursor is disabled (the default). A cursor failure never fails an action.
 *
 * @module
 */
import type { Point, Rect } from "../../ports/geometry.ts";
import type { ToolContext } from "../../kernel/tool.ts";
import type { CursorAction } from "./themes.ts";
import { sessionCursor } from "./slot.ts";

/** A target point, or a way to find one only when the cursor is shown. */
export type CursorTarget = Point | null | (() => Point | null);

/**
 * Glides the session's cursor to an action's target and waits for it, never longer than
 * the session's `glide_duration_ms`. Returns at once when the cursor is disabled.
 */
export async function cursorApproach(
  ctx: ToolContext,
  target: CursorTarget,
  action: CursorAction,
  modifiers: readonly string[] = [],
): Promise<void> {
  const cursor = sessionCursor(ctx.state, ctx.session.id);
  if (!cursor?.enabled) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const point = typeof target === "function" ? target() : target;
    if (!point) return;
    const cap = cursor.motion.glide_duration_ms;
    await Promise.race([
      cursor.moveTo(point, action, modifiers),
      new Promise<void>((resolve) => timer = setTimeout(resolve, cap)),
    ]);
  } catch {
    // The cursor is decoration: the action goes on without it.
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** Starts a glide that runs alongside an action (a drag's path) without waiting for it. */
export function cursorFollow(ctx: ToolContext, point: Point, action: CursorAction, durationMs: number): void {
  const cursor = sessionCursor(ctx.state, ctx.session.id);
  if (!cursor?.enabled) return;
  try {
    void cursor.moveTo(point, action, cursor.visual.modifiers, durationMs);
  } catch {
    // Decoration only.
  }
}

/** Pulses the session's cursor for a click that just went out. Never waits. */
export function cursorPress(ctx: ToolContext): void {
  const cursor = sessionCursor(ctx.state, ctx.session.id);
  if (!cursor?.enabled) return;
  try {
    cursor.press();
  } catch {
    // Decoration only.
  }
}

/** The centre of a frame, or null without one. */
export function frameCentre(frame: Rect | null | undefined): Point | null {
  return frame
    ? { x: Math.round(frame.x + frame.width / 2), y: Math.round(frame.y + frame.height / 2) }
    : null;
}
