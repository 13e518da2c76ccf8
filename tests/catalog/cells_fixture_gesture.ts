/**
 * Fixture cells for scroll, drag, move_cursor, the held-button tools and
 * parallel_mouse_drag.
 *
 * @module
 */
import type { Structured } from "../_helpers/in_process_driver.ts";
import type { Cell, CellContext } from "./cell.ts";
import {
  call,
  define,
  delivered,
  DESKTOP,
  dims,
  FG,
  fromTo,
  px,
  refused,
  tok,
  wdesk,
  win,
  wpx,
} from "./cell_kit.ts";
import { DRAG_TIMING, dragged, F, scrollBar, scrolledDown, untouched } from "./fixture_kit.ts";
import { both, journal, pointerAt, sentinelHover, stockElement, stockNumber } from "./oracles.ts";

/** scroll, drag, move_cursor, the held-button tools and parallel_mouse_drag. */
export function gestureCells(): Cell[] {
  const area = (fx: number, fy: number) => (ctx: CellContext) => ctx.view.widgetPixel("drag-area", fx, fy);
  const areaScreen = (fx: number, fy: number) => (ctx: CellContext) =>
    ctx.view.widgetScreen("drag-area", fx, fy);
  const drag = dragged([0.1, 0.3, 0.6, 0.7]);
  const sliderMoved = journal(
    "slider_value jumps past 60",
    (b, a) => a.slider_value !== b.slider_value && Number(a.slider_value) > 60,
  );
  const down = { direction: "down", amount: 3 };
  return [
    define({
      ...dims(F, "scroll", "element", "background"),
      calls: call("scroll", tok(scrollBar), down),
      oracle: scrolledDown,
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(F, "scroll", "element", "background"),
      variant: "slider",
      calls: call("scroll", tok("sld-value"), { direction: "right", amount: 3 }),
      oracle: journal("slider_value grows", (b, a) => Number(a.slider_value) > Number(b.slider_value)),
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(F, "scroll", "pixel", "background"),
      calls: call("scroll", wpx("scroll-tall", 0.4), down),
      oracle: scrolledDown,
      expect: delivered("global_input"),
    }),
    define({
      ...dims(F, "scroll", "pixel", "foreground"),
      calls: call("scroll", wpx("scroll-tall", 0.4), down, FG),
      oracle: scrolledDown,
      expect: delivered(),
    }),
    define({
      ...dims(F, "scroll", "element", "foreground"),
      calls: call("scroll", tok(scrollBar), down, FG),
      oracle: scrolledDown,
      expect: delivered(),
    }),
    define({
      ...dims(F, "scroll", "pixel", "n/a", "desktop"),
      calls: call("scroll", wdesk("scroll-tall", 0.4), down),
      oracle: scrolledDown,
      expect: delivered(),
    }),
    define({
      ...dims(F, "scroll", "pixel", "background"),
      variant: "covered",
      covered: true,
      calls: call("scroll", px("btn-reset", 0.8), down),
      oracle: untouched,
      expect: refused("background_unavailable"),
    }),
    define({
      ...dims(F, "scroll", "pixel", "background"),
      variant: "amount_0",
      calls: call("scroll", wpx("scroll-tall", 0.4), { direction: "down", amount: 0 }),
      oracle: untouched,
      expect: refused("invalid_arguments", "amount"),
    }),
    define({
      ...dims(F, "scroll", "element", "background"),
      variant: "element_and_point",
      calls: call("scroll", tok(scrollBar), wpx("scroll-tall", 0.4), down),
      oracle: untouched,
      expect: refused("invalid_arguments", "x, y"),
    }),
    define({
      ...dims(F, "drag", "pixel", "background"),
      calls: call("drag", win, fromTo(area(0.1, 0.3), area(0.6, 0.7)), DRAG_TIMING),
      oracle: drag,
      expect: delivered("global_input"),
    }),
    define({
      ...dims(F, "drag", "pixel", "foreground"),
      calls: call("drag", win, fromTo(area(0.1, 0.3), area(0.6, 0.7)), DRAG_TIMING, FG),
      oracle: drag,
      expect: delivered(),
    }),
    define({
      ...dims(F, "drag", "pixel", "n/a", "desktop"),
      calls: call("drag", DESKTOP, fromTo(areaScreen(0.1, 0.3), areaScreen(0.6, 0.7)), DRAG_TIMING),
      oracle: drag,
      expect: delivered(),
    }),
    define({
      ...dims(F, "drag", "pixel", "background"),
      variant: "slider",
      calls: call(
        "drag",
        win,
        fromTo((c) => c.view.pixel("sld-value", 0.1), (c) => c.view.pixel("sld-value", 0.85)),
        DRAG_TIMING,
      ),
      oracle: sliderMoved,
      expect: delivered(),
    }),
    define({
      ...dims(F, "drag", "pixel", "background"),
      variant: "covered",
      covered: true,
      calls: call("drag", win, fromTo(area(0.5, 0.5), (c) => c.view.pixel("btn-reset", 0.8)), DRAG_TIMING),
      oracle: untouched,
      expect: refused("background_unavailable"),
    }),
    define({
      ...dims(F, "drag", "pixel", "background"),
      variant: "steps_0",
      calls: call("drag", win, fromTo(area(0.1, 0.3), area(0.6, 0.7)), { steps: 0 }),
      oracle: untouched,
      expect: refused("invalid_arguments", "steps"),
    }),
    define({
      ...dims(F, "drag", "element", "background"),
      variant: "element_rejected",
      calls: call("drag", win, tok("sld-value"), fromTo(area(0.1, 0.3), area(0.6, 0.7))),
      oracle: untouched,
      expect: refused("invalid_arguments", "element_token"),
    }),
    define({
      ...dims(F, "move_cursor", "pixel", "n/a", "desktop"),
      calls: call("move_cursor", wdesk("drag-area", 0.5, 0.5)),
      oracle: pointerAt((c) => c.view.widgetScreen("drag-area", 0.5, 0.5)),
      expect: delivered(),
    }),
    define({
      ...dims("sentinel", "move_cursor", "pixel", "background"),
      variant: "hover",
      sentinelTarget: "B",
      calls: async (ctx) => {
        const pad = await ctx.observe("sentinel");
        return [{ tool: "move_cursor", args: { target: pad.target, x: 100, y: 50 } }];
      },
      oracle: sentinelHover("B"),
      expect: delivered(),
    }),
    define({
      ...dims(F, "move_cursor", "pixel", "background"),
      variant: "covered",
      covered: true,
      calls: call("move_cursor", px("btn-reset", 0.8)),
      oracle: untouched,
      expect: refused("background_unavailable"),
    }),
    define({
      ...dims(F, "move_cursor", "pixel", "n/a", "desktop"),
      variant: "offscreen",
      calls: call("move_cursor", DESKTOP, { x: 5000, y: 5 }),
      oracle: untouched,
      expect: refused("invalid_arguments", "x, y"),
    }),
    define({
      ...dims(F, "mouse_button_down", "pixel", "background"),
      variant: "hold_drag_release",
      calls(ctx) {
        const a = area(0.1, 0.3)(ctx), b = area(0.6, 0.7)(ctx);
        return [
          { tool: "mouse_button_down", args: { target: ctx.view.target, ...a } },
          { tool: "mouse_drag", args: { ...b, ...DRAG_TIMING } },
          { tool: "mouse_button_up", args: {} },
        ];
      },
      oracle: drag,
      expect: delivered(),
    }),
    define({
      ...dims(F, "mouse_button_down", "pixel", "background"),
      variant: "covered",
      covered: true,
      calls: call("mouse_button_down", px("btn-reset", 0.8)),
      oracle: untouched,
      expect: refused("background_unavailable"),
    }),
    define({
      ...dims(F, "mouse_drag", "pixel", "background"),
      variant: "not_held",
      calls: call("mouse_drag", (c) => ({ ...area(0.5, 0.5)(c) })),
      oracle: untouched,
      expect: refused("button_not_held"),
    }),
    define({
      ...dims(F, "parallel_mouse_drag", "pixel", "background"),
      variant: "two_apps",
      async calls(ctx) {
        // Two windows: GTK routes a second pointer's release in one toplevel to the first's grab widget.
        const one = await ctx.observe("fixture", { session: "catalog-p1" });
        const two = await ctx.observe("widget-factory", { session: "catalog-p2" });
        const a = one.widgetPixel("drag-area", 0.1, 0.3), b = one.widgetPixel("drag-area", 0.6, 0.7);
        const slider = (e: Structured) => e.role === "slider" && e.frame.w > e.frame.h;
        const c = two.pixel(slider, 0.6), d = two.pixel(slider, 0.95);
        return [{
          tool: "parallel_mouse_drag",
          args: {
            drags: [
              {
                session: "catalog-p1",
                window_id: one.windowId,
                from_x: a.x,
                from_y: a.y,
                to_x: b.x,
                to_y: b.y,
                duration_ms: 300,
              },
              {
                session: "catalog-p2",
                window_id: two.windowId,
                from_x: c.x,
                from_y: c.y,
                to_x: d.x,
                to_y: d.y,
                duration_ms: 300,
              },
            ],
          },
        }];
      },
      oracle: both(
        drag,
        stockNumber(
          "widget-factory slider moves",
          (tree) => stockElement(tree, (e) => e.role === "slider" && e.frame.w > e.frame.h),
          (b, a) => a !== b,
        ),
      ),
      expect: delivered(),
    }),
  ];
}
