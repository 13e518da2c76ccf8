/**
 * How much of a window an observation covers: the actionable objects an independent
 * AT-SPI walk finds, matched against the elements of the driver's first
 * get_window_state, and how far the driver's frames are from AT-SPI's own extents.
 *
 * Frames are compared in screen points. A toolkit that reports window-relative
 * coordinates (GTK4) gives AT-SPI extents measured from its surface: the test rebases
 * them from what the X server says about the window (xwininfo), and the catalog's
 * clicks prove the driver's frames land where they should.
 *
 * @module
 */
import type { Structured } from "../_helpers/in_process_driver.ts";
import type { ReadNode } from "./reader.ts";

/** Roles a user acts on even when the toolkit names no action. */
const CLICKABLE = new Set([
  "push button",
  "toggle button",
  "check box",
  "radio button",
  "page tab",
  "list item",
  "menu item",
  "check menu item",
  "radio menu item",
  "link",
  "table cell",
  "combo box",
  "spin button",
  "slider",
  "entry",
  "text",
  "password text",
  "switch",
  "tree item",
]);

/**
 * Roles that show things rather than do them (the contract's passive roles): never
 * counted, even where a toolkit hangs actions on them (GTK4's selectable labels offer
 * clipboard actions, Firefox's labels "click" their control).
 */
const PASSIVE = new Set([
  "label",
  "static",
  "filler",
  "image",
  "icon",
  "separator",
  "panel",
  "scroll pane",
  "viewport",
  "layered pane",
  "root pane",
  "glass pane",
  "section",
  "paragraph",
  "heading",
  "frame",
  "window",
  "tool bar",
  "status bar",
  "menu bar",
  "page tab list",
  "internal frame",
  "form",
  "document web",
  "document text",
  "document frame",
  "document spreadsheet",
]);

/** True for an object a user can act on: enabled, on screen with an area, and actionable. */
export function isActionable(node: ReadNode): boolean {
  if (!node.enabled || node.depth <= 1 || PASSIVE.has(node.role)) return false;
  if (!node.ext || node.ext[2] <= 1 || node.ext[3] <= 1) return false;
  return node.actions > 0 || node.ifaces.includes("EditableText") || node.ifaces.includes("Value") ||
    CLICKABLE.has(node.role);
}

/** What the comparison found. */
export interface Coverage {
  /** Actionable objects the independent walk found. */
  actionable: number;
  /** Of those, how many the driver returned as elements. */
  matched: number;
  /** matched / actionable. */
  recall: number;
  /** Matched elements whose frame is within 2 px of AT-SPI's extents (relative to the top level). */
  framesWithin2: number;
  /** Largest frame difference seen, in pixels. */
  worstFrameDelta: number;
  /** A few actionable objects the driver missed, for the failure message. */
  missed: string[];
}

type Frame = { x: number; y: number; w: number; h: number };

/**
 * Where AT-SPI's extents of a window are measured from: the screen, or for a toolkit
 * that reports window-relative coordinates (its top level at (0, 0) while the X window
 * is elsewhere, or smaller than it: GTK4) the X window's origin plus the border GTK4
 * draws inside it (half the size difference), as read from the X server.
 */
export function extentsOrigin(
  walk: readonly ReadNode[],
  window: { x: number; y: number; width: number; height: number },
) {
  const root = walk.find((n) => n.depth === 1 && n.ext)?.ext;
  if (!root || Math.abs(root[0]) > 2 || Math.abs(root[1]) > 2) return { x: 0, y: 0 };
  const containsClient = root[0] <= window.x && root[1] <= window.y &&
    root[0] + root[2] >= window.x + window.width && root[1] + root[3] >= window.y + window.height;
  if (containsClient) return { x: 0, y: 0 };
  return {
    x: window.x + Math.max(0, Math.round((window.width - root[2]) / 2)),
    y: window.y + Math.max(0, Math.round((window.height - root[3]) / 2)),
  };
}

/**
 * Compares the driver's elements with the reader's walk of the window whose client
 * area the X server reports as `window` (from xwininfo).
 */
export function compareCoverage(
  state: Structured,
  walk: readonly ReadNode[],
  window: { x: number; y: number; width: number; height: number },
): Coverage {
  const elements = (state.elements as Structured[]).filter((e) => e.frame);
  const origin = extentsOrigin(walk, window);
  const actionable = walk.filter(isActionable);
  const used = new Set<number>();
  let matched = 0, within = 0, worst = 0;
  const missed: string[] = [];
  for (const node of actionable) {
    const [x, y, w, h] = node.ext!;
    const screen = { x: x + origin.x, y: y + origin.y, w, h };
    let best = -1, bestDelta = Infinity, bestNamed = false;
    elements.forEach((e, i) => {
      if (used.has(i) || e.role !== node.role) return;
      const f = e.frame as Frame;
      const delta = Math.max(
        Math.abs(f.x - screen.x),
        Math.abs(f.y - screen.y),
        Math.abs(f.w - screen.w),
        Math.abs(f.h - screen.h),
      );
      const named = (e.label ?? "") === node.name;
      if ((named && !bestNamed && delta <= 40) || ((named || !bestNamed) && delta < bestDelta)) {
        best = i;
        bestDelta = delta;
        bestNamed = named;
      }
    });
    if (best < 0 || bestDelta > 40) {
      if (missed.length < 8) {
        missed.push(`${node.role} ${JSON.stringify(node.name)} at ${node.ext!.join(",")}`);
      }
      continue;
    }
    used.add(best);
    matched++;
    if (bestDelta <= 2) within++;
    worst = Math.max(worst, bestDelta);
  }
  return {
    actionable: actionable.length,
    matched,
    recall: actionable.length ? matched / actionable.length : 1,
    framesWithin2: within,
    worstFrameDelta: worst,
    missed,
  };
}
