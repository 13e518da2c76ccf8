/**
 * Schema fragments of action tools: targets, elements, points, delivery mode,
 * modifiers and buttons (contract.md §1.1).
 *
 * @module
 */
import { z } from "zod";

/** The preferred per-call target. */
export const targetParam = z.union([
  z.strictObject({
    kind: z.literal("window"),
    pid: z.number().int().min(1),
    window_id: z.number().int().min(1),
  }),
  z.strictObject({ kind: z.literal("desktop"), display_id: z.string().optional() }),
]).nullable().optional().describe(
  'The target: {kind:"window", pid, window_id} or {kind:"desktop", display_id:"primary"}. ' +
    "Cannot be combined with the legacy scope, pid or window_id.",
);

/** Legacy flat targeting. */
export const legacyTargetParams = {
  scope: z.enum(["window", "desktop"]).optional().describe("Legacy target selector; prefer target"),
  pid: z.number().int().min(1).optional().describe("Target process (legacy; prefer target)"),
  window_id: z.number().int().min(1).optional().describe("Target window (legacy; prefer target)"),
};

/** Element addressing. */
export const elementParams = {
  element_token: z.string().optional().describe(
    "Element handle (s<8 hex>:<index>) from the latest get_window_state",
  ),
  element_index: z.number().int().min(0).optional().describe("Element index; must come with snapshot_id"),
  snapshot_id: z.string().optional().describe("Snapshot id the element_index belongs to"),
};

/** What x, y mean: one coordinate story for every tool that takes a point. */
export const coordinateSpaceParam = z.enum(["screenshot", "screen"]).optional().describe(
  'Space of the point: "screenshot" (default) = pixels of the latest get_window_state screenshot of the ' +
    "window (an element's center); \"screen\" = screen points (an element's frame). Desktop targets: screen " +
    "points either way. Out-of-window points are refused with the conversion",
);

/** Pixel addressing. */
export const pointParams = {
  x: z.number().optional().describe("X, in coordinate_space"),
  y: z.number().optional().describe("Y, in coordinate_space"),
  coordinate_space: coordinateSpaceParam,
  from_zoom: z.boolean().optional().describe("x, y are pixels of this session's latest zoom of the window"),
  screenshot_id: z.string().min(1).optional().describe(
    "x, y are pixels of exactly this capture (get_window_state / get_desktop_state screenshot_id or a " +
      "zoom_id; e.g. a region centre from parse_visual_regions). Refused with stale_screenshot when a newer " +
      "capture of the same window or display exists or it moved or resized since",
  ),
};

/** The ladder rung. */
export const deliveryModeParam = z.enum(["background", "foreground", "auto"]).optional().describe(
  '"background" (default) acts without fronting or raising the target. "foreground" briefly fronts it, acts, ' +
    "and restores the previous front window: use it after a background attempt reports it did not land. " +
    '"auto" is accepted and means background.',
);

/** Held modifiers. */
export const modifierParam = z.array(z.string().min(1)).max(6).optional().describe(
  "Modifier keys held during the action: ctrl, shift, alt, super",
);

/** Mouse button. */
export const buttonParam = z.enum(["left", "right", "middle"]).default("left");

/** Names a virtual pointer instance (accepted for compatibility). */
export const cursorIdParam = z.string().optional().describe(
  'Virtual cursor instance name (default "default")',
);

/** The delivery mode the ladder uses. */
export function deliveryMode(value: string | undefined): "background" | "foreground" {
  return value === "foreground" ? "foreground" : "background";
}
