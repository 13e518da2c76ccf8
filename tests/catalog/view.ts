/**
 * A fresh observation of one window, taken through the driver's get_window_state the
 * way an agent takes it, with the helpers cells use to build arguments from it:
 * element tokens from `elements`, pixels from element frames minus the window origin
 * times `screenshot_scale`.
 *
 * @module
 */
import type { Structured } from "../_helpers/in_process_driver.ts";
import type { ElementSpec, Point, View } from "./cell.ts";
import type { Box } from "./world.ts";

/** Builds a view over a get_window_state result (or over bare bounds for a window without a tree). */
export function makeView(
  pid: number,
  windowId: number,
  state: Structured,
  widgets: Readonly<Record<string, Box>> = {},
): View {
  const elements = (state.elements ?? []) as Structured[];
  const bounds = state.bounds as Box;
  const scale = Number(state.screenshot_scale ?? 1);
  const find = (spec: ElementSpec, nth = 0): Structured => {
    const test = typeof spec === "string" ? (e: Structured) => e.label === spec : spec;
    const matches = elements.filter((e) => e.frame && test(e))
      .sort((a, b) => a.frame.y - b.frame.y || a.frame.x - b.frame.x);
    const found = matches[nth];
    if (!found) {
      throw new Error(
        `no element ${
          typeof spec === "string" ? JSON.stringify(spec) : "matching"
        } #${nth} in window ${windowId}`,
      );
    }
    return found;
  };
  const screenOf = (spec: ElementSpec, fx = 0.5, fy = 0.5, nth = 0): Point => {
    const f = find(spec, nth).frame;
    return { x: Math.round(f.x + f.w * fx), y: Math.round(f.y + f.h * fy) };
  };
  const toPixel = (p: Point): Point => ({
    x: Math.round((p.x - bounds.x) * scale),
    y: Math.round((p.y - bounds.y) * scale),
  });
  const widget = (name: string): Box => {
    const box = widgets[name];
    if (!box) throw new Error(`the fixture reported no widget ${name}`);
    return box;
  };
  const widgetScreen = (name: string, fx = 0.5, fy = 0.5): Point => {
    const w = widget(name);
    return { x: Math.round(bounds.x + w.x + w.width * fx), y: Math.round(bounds.y + w.y + w.height * fy) };
  };
  return {
    pid,
    windowId,
    target: { kind: "window", pid, window_id: windowId },
    state,
    token: (label, nth) => find(label, nth).element_token,
    element: (label, nth) => find(label, nth),
    pixel: (label, fx, fy, nth) => toPixel(screenOf(label, fx, fy, nth)),
    screen: screenOf,
    widgetPixel: (name, fx, fy) => toPixel(widgetScreen(name, fx, fy)),
    widgetScreen,
    widget,
  };
}

/** Screen point of window pixel (x, y) under a view's observation. */
export function pixelToScreen(view: View, point: Point): Point {
  const bounds = view.state.bounds as Box;
  const scale = Number(view.state.screenshot_scale ?? 1);
  return { x: Math.round(bounds.x + point.x / scale), y: Math.round(bounds.y + point.y / scale) };
}
