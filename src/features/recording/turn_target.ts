/**
 * What a recorded call is about, read from its arguments before it runs: the window it
 * names (by target, pid/window_id or an element token's snapshot) or else the display,
 * the element a token points at, and the pixel a click aims for.
 *
 * @module
 */
import type { Point, Rect } from "../../ports/geometry.ts";
import { type Capture, captureToScreen } from "../../kernel/captures.ts";
import type { ToolContext } from "../../kernel/tool.ts";

/** Where a turn's screenshots and trees come from. */
export type TurnTarget = { kind: "window"; pid: number; windowId: number } | { kind: "display" };

/**
 * An element named by token, described so a replay can find it again in a fresh
 * snapshot: tokens die with their snapshot and session; role and label do not.
 */
export interface ElementDescriptor {
  role: string;
  label: string;
  /** How many earlier elements of the snapshot have the same role and label. */
  ordinal: number;
  /** Screen frame when the snapshot was taken. */
  frame: Rect | null;
}

/** A turn's target and what the recorder needs to place its click and to replay it. */
export interface TurnPlan {
  target: TurnTarget;
  element: ElementDescriptor | null;
  /** Window-local pixels (x, y of a window target) and the capture they refer to. */
  pixel: { x: number; y: number; capture: Capture | null; fromZoom: boolean } | null;
  /** Screen point of a desktop-scope call. */
  screenPoint: Point | null;
}

/** Reads a call's arguments; never throws (an unresolvable target falls back to the display). */
export async function planTurn(ctx: ToolContext, args: Readonly<Record<string, unknown>>): Promise<TurnPlan> {
  const found = elementOf(ctx, args);
  const target = await targetOf(ctx, args, found?.window ?? null);
  const x = args.x, y = args.y;
  const hasPoint = typeof x === "number" && typeof y === "number";
  let pixel: TurnPlan["pixel"] = null;
  let screenPoint: Point | null = null;
  if (hasPoint && target.kind === "window") {
    const fromZoom = args.from_zoom === true;
    const capture = fromZoom
      ? ctx.state.captures.latestZoom(ctx.session.id, target.windowId)
      : ctx.state.captures.latestForWindow(ctx.session.id, target.windowId);
    pixel = { x, y, capture: capture ?? null, fromZoom };
  } else if (hasPoint) {
    screenPoint = { x, y };
  }
  return { target, element: found?.element ?? null, pixel, screenPoint };
}

/**
 * The click point in the pixels of a screenshot of `shotBounds` (screen points) that is
 * `imageWidth` pixels wide, or null when the call named no point.
 */
export function clickPointIn(plan: TurnPlan, shotBounds: Rect, imageWidth: number): Point | null {
  const scale = shotBounds.width > 0 ? imageWidth / shotBounds.width : 1;
  let screen: Point | null = null;
  if (plan.element?.frame) {
    const f = plan.element.frame;
    screen = { x: f.x + f.width / 2, y: f.y + f.height / 2 };
  } else if (plan.pixel?.capture) {
    // Window-local pixels: relative to where the window was when the agent's screenshot was taken.
    const capture = plan.pixel.capture;
    const atCapture = captureToScreen(capture, plan.pixel.x, plan.pixel.y);
    const origin = capture.windowOrigin ?? { x: capture.bounds.x, y: capture.bounds.y };
    screen = { x: shotBounds.x + atCapture.x - origin.x, y: shotBounds.y + atCapture.y - origin.y };
  } else if (plan.screenPoint) {
    screen = plan.screenPoint;
  }
  if (!screen) return null;
  return {
    x: Math.round((screen.x - shotBounds.x) * scale),
    y: Math.round((screen.y - shotBounds.y) * scale),
  };
}

/** The element a call names by token (its snapshot's window too), or null for none or a stale one. */
export function elementOf(
  ctx: ToolContext,
  args: Readonly<Record<string, unknown>>,
): { element: ElementDescriptor; window: { pid: number; windowId: number } } | null {
  let token: string | null = null;
  if (typeof args.element_token === "string") token = args.element_token;
  else if (typeof args.snapshot_id === "string" && typeof args.element_index === "number") {
    token = `${args.snapshot_id}:${args.element_index}`;
  }
  if (token === null) return null;
  try {
    const { snapshot, element } = ctx.state.snapshots.resolve(token, ctx.session.id);
    const ordinal = snapshot.elements.slice(0, element.index).filter((e) =>
      e.platformRole === element.platformRole && e.label === element.label
    ).length;
    return {
      element: { role: element.platformRole, label: element.label, ordinal, frame: element.frame ?? null },
      window: { pid: snapshot.pid, windowId: snapshot.windowId },
    };
  } catch {
    return null; // stale or malformed: the call will refuse, and the turn records that
  }
}

async function targetOf(
  ctx: ToolContext,
  args: Readonly<Record<string, unknown>>,
  fromElement: { pid: number; windowId: number } | null,
): Promise<TurnTarget> {
  const target = args.target as { kind?: unknown; pid?: unknown; window_id?: unknown } | null | undefined;
  if (target?.kind === "window" && typeof target.pid === "number" && typeof target.window_id === "number") {
    return { kind: "window", pid: target.pid, windowId: target.window_id };
  }
  if (target?.kind === "desktop" || args.scope === "desktop") return { kind: "display" };
  const pid = typeof args.pid === "number" ? args.pid : null;
  const windowId = typeof args.window_id === "number" ? args.window_id : null;
  if (pid !== null && windowId !== null) return { kind: "window", pid, windowId };
  if (fromElement) return { kind: "window", ...fromElement };
  try {
    if (windowId !== null) {
      const window = await ctx.backend.windows.get(windowId);
      if (window?.pid) return { kind: "window", pid: window.pid, windowId };
    } else if (pid !== null) {
      const windows = (await ctx.backend.windows.list()).filter((w) => w.pid === pid);
      windows.sort((a, b) => Number(b.isOnScreen) - Number(a.isOnScreen));
      if (windows[0]) return { kind: "window", pid, windowId: windows[0].windowId };
    }
  } catch {
    // The window system is gone; the display capture will say so.
  }
  return { kind: "display" };
}
