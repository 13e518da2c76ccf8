/**
 * Schema fragments of action tools: targets, elements, points, delivery mode,
 * modifiers and buttons (contract.md §1.1).
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { shared } from "./params.ts";

/** The preferred per-call target. */
export const targetParam = z.union([
  z.strictObject({
    kind: z.literal("window"),
    pid: z.number().int().min(1),
    window_id: z.number().int().min(1),
  }),
  z.strictObject({ kind: z.literal("desktop"), display_id: z.string().optional() }),
]).nullable().optional().describe('{kind:"window", pid, window_id} or {kind:"desktop"}').meta(
  shared("target"),
);

/** Marks a parameter that is accepted but left out of tools/list (another one replaces it). */
export const LEGACY = { legacy: true } as const;

/** Legacy flat targeting: accepted, not listed (`target` replaces it). */
export const legacyTargetParams = {
  scope: z.enum(["window", "desktop"]).optional().describe("Legacy target selector; prefer target").meta(
    LEGACY,
  ),
  pid: z.number().int().min(1).optional().describe("Target process (legacy; prefer target)").meta(LEGACY),
  window_id: z.number().int().min(1).optional().describe("Target window (legacy; prefer target)").meta(
    LEGACY,
  ),
};

/** Element addressing. */
export const elementParams = {
  element_token: z.string().optional().describe("From the latest get_window_state").meta(
    shared("element_token"),
  ),
  element_index: z.number().int().min(0).optional().describe("Element index; must come with snapshot_id")
    .meta(LEGACY),
  snapshot_id: z.string().optional().describe("Snapshot id the element_index belongs to").meta(LEGACY),
};

/** What x, y mean: one coordinate story for every tool that takes a point. */
export const coordinateSpaceParam = z.enum(["screenshot", "screen"]).optional().describe(
  '"screenshot" (default): pixels of the window\'s latest screenshot, as element center; "screen": screen ' +
    "points, as element frame",
).meta(shared("coordinate_space"));

/** Pixel addressing. */
export const pointParams = {
  x: z.number().optional().describe("X, in coordinate_space").meta(shared("x")),
  y: z.number().optional().describe("Y, in coordinate_space").meta(shared("y")),
  coordinate_space: coordinateSpaceParam,
  from_zoom: z.boolean().optional().describe("x, y are pixels of the latest zoom").meta(shared("from_zoom")),
  screenshot_id: z.string().min(1).optional().describe(
    "Pin x, y to this capture's pixels (a screenshot_id or zoom_id); refused once superseded or moved",
  ).meta(shared("screenshot_id")),
};

/** The ladder rung. */
export const deliveryModeParam = z.enum(["background", "foreground", "auto"]).optional().describe(
  '"background" (default, = "auto") leaves the window where it is; "foreground" fronts it, acts, restores',
).meta(shared("delivery_mode"));

/** Held modifiers. */
export const modifierParam = z.array(z.string().min(1)).max(6).optional().describe(
  "Modifier keys held during the action: ctrl, shift, alt, super",
).meta(shared("modifier"));

/** Mouse button. */
export const buttonParam = z.enum(["left", "right", "middle"]).default("left");

/** Names a virtual pointer instance (accepted for compatibility). */
export const cursorIdParam = z.string().optional().describe(
  'Virtual cursor instance name (default "default")',
).meta(LEGACY);

/** The delivery mode the ladder uses. */
export function deliveryMode(value: string | undefined): "background" | "foreground" {
  return value === "foreground" ? "foreground" : "background";
}
