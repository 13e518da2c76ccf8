/**
 * Fixture cells for click, double_click and right_click, and the bad targets every
 * action tool refuses before sending anything (shown on click).
 *
 * @module
 */
import type { Cell } from "./cell.ts";
import { call, define, delivered, desk, DESKTOP, dims, FG, px, refused, tok, win } from "./cell_kit.ts";
import { agreedFlips, closeMenus, DOUBLE_CLICK_QUIET_MS, F, reset, untouched } from "./fixture_kit.ts";
import { fixtureIncrement } from "./oracles.ts";

/** click: every rung and the covered point, then the bad targets refused before anything is sent. */
export function clickCells(): Cell[] {
  return [
    define({
      ...dims(F, "click", "element", "background"),
      calls: call("click", tok("btn-increment")),
      oracle: fixtureIncrement("counter"),
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(F, "click", "pixel", "background"),
      calls: call("click", px("btn-increment")),
      oracle: fixtureIncrement("counter"),
      expect: delivered("global_input"),
    }),
    define({
      ...dims(F, "click", "pixel", "background"),
      variant: "covered",
      covered: true,
      calls: call("click", px("btn-reset", 0.8)),
      oracle: reset,
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(F, "click", "element", "foreground"),
      calls: call("click", tok("btn-clicktarget"), FG),
      oracle: fixtureIncrement("clicks"),
      expect: delivered(),
    }),
    define({
      ...dims(F, "click", "pixel", "foreground"),
      calls: call("click", px("btn-increment"), FG),
      oracle: fixtureIncrement("counter"),
      expect: delivered(),
    }),
    define({
      ...dims(F, "click", "pixel", "foreground"),
      variant: "covered",
      covered: true,
      calls: call("click", px("btn-reset", 0.8), FG),
      oracle: reset,
      expect: delivered(),
    }),
    define({
      ...dims(F, "click", "pixel", "n/a", "desktop"),
      calls: call("click", desk("btn-clicktarget")),
      oracle: fixtureIncrement("clicks"),
      expect: delivered(),
    }),
    define({
      ...dims(F, "click", "element", "background"),
      variant: "checkbox",
      calls: call("click", tok("chk-agree")),
      oracle: agreedFlips,
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(F, "click", "pixel", "background"),
      variant: "checkbox",
      calls: call("click", px("chk-agree", 0.1)),
      oracle: agreedFlips,
      expect: delivered(),
    }),
    define({
      ...dims(F, "click", "element", "background"),
      variant: "triple",
      calls: call("click", tok("btn-increment"), { count: 3 }),
      oracle: fixtureIncrement("counter", 3),
      expect: delivered(),
    }),
    define({
      ...dims(F, "click", "pixel", "background"),
      variant: "ctrl",
      calls: call("click", px("btn-increment"), { modifier: ["ctrl"] }),
      oracle: fixtureIncrement("counter"),
      expect: delivered(),
    }),
    // Refusals: nothing may be sent.
    define({
      ...dims(F, "click", "element", "background"),
      variant: "stale_token",
      async calls(ctx) {
        const old = ctx.view.token("btn-increment");
        await ctx.observe("fixture");
        return [{ tool: "click", args: { element_token: old } }];
      },
      oracle: untouched,
      expect: refused("stale_element_token"),
    }),
    define({
      ...dims(F, "click", "element", "background"),
      variant: "foreign_token",
      async calls(ctx) {
        const other = await ctx.observe("widget-factory");
        return [{
          tool: "click",
          args: { target: ctx.view.target, element_token: other.token("togglebutton") },
        }];
      },
      oracle: untouched,
      expect: refused("conflicting_element_target"),
    }),
    define({
      ...dims(F, "click", "pixel", "background"),
      variant: "ambiguous_pid",
      calls: (ctx) => [{ tool: "click", args: { pid: ctx.sentinel.pid, x: 10, y: 10 } }],
      oracle: untouched,
      expect: refused("ambiguous_window_target"),
    }),
    define({
      ...dims(F, "click", "pixel", "background"),
      variant: "outside_window",
      calls: call("click", win, (c) => ({ x: Number(c.view.state.screenshot_width) + 40, y: 10 })),
      oracle: untouched,
      expect: refused("invalid_arguments", "x, y"),
    }),
    define({
      ...dims(F, "click", "element", "background"),
      variant: "count_4",
      calls: call("click", tok("btn-increment"), { count: 4 }),
      oracle: untouched,
      expect: refused("invalid_arguments", "count"),
    }),
    define({
      ...dims(F, "click", "element", "background"),
      variant: "index_without_snapshot",
      calls: call("click", win, { element_index: 5 }),
      oracle: untouched,
      expect: refused("snapshot_id_required"),
    }),
    define({
      ...dims(F, "click", "pixel", "background"),
      variant: "gone_window",
      calls: (
        c,
      ) => [{
        tool: "click",
        args: { target: { kind: "window", pid: c.view.pid, window_id: 0x3fff_fff0 }, x: 10, y: 10 },
      }],
      oracle: untouched,
      expect: refused("window_target_not_found"),
    }),
    define({
      ...dims(F, "click", "pixel", "n/a", "desktop"),
      variant: "offscreen",
      calls: call("click", DESKTOP, { x: 5000, y: 10 }),
      oracle: untouched,
      expect: refused("invalid_arguments", "x, y"),
    }),
    define({
      ...dims(F, "click", "pixel", "background"),
      variant: "unobserved_session",
      calls: call("click", px("btn-increment"), { session: "catalog-unobserved" }),
      oracle: untouched,
      expect: refused("screenshot_context_missing"),
    }),
    define({
      ...dims(F, "click", "pixel", "background"),
      variant: "bad_modifier",
      calls: call("click", px("btn-increment"), { modifier: ["hyper"] }),
      oracle: untouched,
      expect: refused("invalid_arguments", "modifier"),
    }),
    define({
      ...dims(F, "click", "pixel", "background"),
      variant: "target_and_pid",
      calls: call("click", px("btn-increment"), (c) => ({ pid: c.view.pid })),
      oracle: untouched,
      expect: refused("invalid_action_target"),
    }),
  ];
}

/** double_click and right_click (a right click opens a menu, closed again by the clean-up). */
export function pointerButtonCells(): Cell[] {
  const doubled = fixtureIncrement("double_clicks");
  const right = fixtureIncrement("right_clicks");
  return [
    define({
      ...dims(F, "double_click", "pixel", "background"),
      quietMs: DOUBLE_CLICK_QUIET_MS,
      calls: call("double_click", px("btn-double")),
      oracle: doubled,
      expect: delivered("global_input"),
    }),
    define({
      ...dims(F, "double_click", "element", "background"),
      quietMs: DOUBLE_CLICK_QUIET_MS,
      calls: call("double_click", tok("btn-double")),
      oracle: doubled,
      expect: delivered("global_input"),
    }),
    define({
      ...dims(F, "double_click", "pixel", "foreground"),
      quietMs: DOUBLE_CLICK_QUIET_MS,
      calls: call("double_click", px("btn-double"), FG),
      oracle: doubled,
      expect: delivered(),
    }),
    define({
      ...dims(F, "double_click", "element", "foreground"),
      quietMs: DOUBLE_CLICK_QUIET_MS,
      calls: call("double_click", tok("btn-double"), FG),
      oracle: doubled,
      expect: delivered(),
    }),
    define({
      ...dims(F, "double_click", "pixel", "n/a", "desktop"),
      quietMs: DOUBLE_CLICK_QUIET_MS,
      calls: call("double_click", desk("btn-double")),
      oracle: doubled,
      expect: delivered(),
    }),
    define({
      ...dims(F, "double_click", "pixel", "background"),
      variant: "covered",
      covered: true,
      calls: call("double_click", px("btn-reset", 0.8)),
      oracle: untouched,
      expect: refused("background_unavailable"),
    }),
    define({
      ...dims(F, "right_click", "pixel", "background"),
      calls: call("right_click", px("btn-context", 0.15)),
      oracle: right,
      expect: delivered("global_input"),
      cleanup: closeMenus,
    }),
    define({
      ...dims(F, "right_click", "element", "background"),
      variant: "covered",
      calls: call("right_click", tok("btn-context")),
      oracle: untouched,
      expect: refused("background_unavailable"),
    }),
    define({
      ...dims(F, "right_click", "pixel", "background"),
      variant: "covered",
      covered: true,
      calls: call("right_click", px("btn-context", 0.8)),
      oracle: untouched,
      expect: refused("background_unavailable"),
    }),
    define({
      ...dims(F, "right_click", "pixel", "foreground"),
      calls: call("right_click", px("btn-context", 0.15), FG),
      oracle: right,
      expect: delivered(),
      cleanup: closeMenus,
    }),
    define({
      ...dims(F, "right_click", "element", "foreground"),
      calls: call("right_click", tok("btn-context"), FG),
      oracle: right,
      expect: delivered(),
      cleanup: closeMenus,
    }),
    define({
      ...dims(F, "right_click", "pixel", "n/a", "desktop"),
      calls: call("right_click", desk("btn-context", 0.15)),
      oracle: right,
      expect: delivered(),
      cleanup: closeMenus,
    }),
  ];
}
