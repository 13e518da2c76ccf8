/**
 * Catalog cells on applications the project did not write: gtk3-widget-factory
 * (judged by a fresh accessibility observation of its widgets) and xmessage (judged by
 * what it prints and its exit code; it sets no _NET_WM_PID and has no accessibility, so
 * only the desktop scope can reach it and window targets are refused). Sentinel B covers
 * the right part of widget-factory's lower togglebutton and the left third of its
 * horizontal slider (see world.ts).
 *
 * @module
 */
import type { Structured } from "../_helpers/in_process_driver.ts";
import type { Cell } from "./cell.ts";
import { call, define, delivered, desk, dims, FG, fromTo, px, refused, tok, win } from "./cell_kit.ts";
import { stockElement, stockNumber, stockText, stockToggled, stockTree, xmessageChose } from "./oracles.ts";

const S = "widget-factory" as const;

const spin = (e: Structured) => e.role === "spin button";
const hslider = (e: Structured) => e.role === "slider" && e.frame && e.frame.w > e.frame.h;
/** The third one-line text field from the top of page 1 (its label is its text, so it is found by shape). */
const entry = (e: Structured) => e.role === "text" && e.frame.h <= 40;
const ENTRY = 2;
/** The spin button's "+" (the rightmost of its two buttons) and "-" as fractions of its frame. */
const PLUS = 0.86;

function first(pred: (e: Structured) => boolean) {
  return (tree: Structured) =>
    (tree.elements as Structured[]).filter((e) => e.frame && pred(e))
      .sort((a, b) => a.frame.y - b.frame.y || a.frame.x - b.frame.x)[0];
}

const spinBy = (n: number) => stockNumber(`spin button +${n}`, first(spin), (b, a) => a - b === n);
const sliderMoves = stockNumber("horizontal slider moves", first(hslider), (b, a) => a !== b);
const entryText = (says: string, check: (b: string, a: string) => boolean) =>
  stockText(says, (tree) => stockElement(tree, entry, ENTRY), check);
const entryGets = (text: string) => entryText(`entry gets "${text}"`, (b, a) => a !== b && a.includes(text));
const entryShrinks = entryText("entry text shrinks", (b, a) => a.length < b.length);
const untouched = stockTree("widgets unchanged", () => null, () => false);
const page2 = stockTree(
  "notebook shows Page 2",
  (tree) => stockElement(tree, "Page 2")?.selected ?? null,
  (b, a) => b === false && a === true,
);

/** Switches back to Page 1 when a cell left Page 2 showing. */
async function backToPage1(ctx: Parameters<NonNullable<Cell["cleanup"]>>[0]): Promise<void> {
  const view = await ctx.observe(S);
  if (view.element("Page 1").selected !== true) {
    await ctx.call("click", { element_token: view.token("Page 1") });
  }
}

/** Every widget-factory and xmessage cell, in run order. */
export function stockCells(): Cell[] {
  return [
    // click: toggles and check boxes flip their checked state.
    define({
      ...dims(S, "click", "element", "background"),
      calls: call("click", tok("togglebutton", 0)),
      oracle: stockToggled("togglebutton", 0),
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(S, "click", "pixel", "background"),
      calls: call("click", px("checkbutton", 0.15, 0.5, 0)),
      oracle: stockToggled("checkbutton", 0),
      expect: delivered("global_input"),
    }),
    define({
      ...dims(S, "click", "pixel", "background"),
      variant: "covered",
      covered: true,
      calls: call("click", px("togglebutton", 0.85, 0.5, 1)),
      oracle: stockToggled("togglebutton", 1),
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(S, "click", "element", "foreground"),
      calls: call("click", tok("checkbutton", 1), FG),
      oracle: stockToggled("checkbutton", 1),
      expect: delivered(),
    }),
    define({
      ...dims(S, "click", "pixel", "foreground"),
      calls: call("click", px("togglebutton", 0.5, 0.5, 0), FG),
      oracle: stockToggled("togglebutton", 0),
      expect: delivered(),
    }),
    define({
      ...dims(S, "click", "pixel", "foreground"),
      variant: "covered",
      covered: true,
      calls: call("click", px("togglebutton", 0.85, 0.5, 1), FG),
      oracle: stockToggled("togglebutton", 1),
      expect: delivered(),
    }),
    define({
      ...dims(S, "click", "pixel", "n/a", "desktop"),
      calls: call("click", desk("checkbutton", 0.15, 0.5, 2)),
      oracle: stockToggled("checkbutton", 2),
      expect: delivered(),
    }),
    define({
      ...dims(S, "click", "element", "background"),
      variant: "page",
      calls: call("click", tok("Page 2")),
      oracle: page2,
      expect: delivered("accessibility"),
      cleanup: backToPage1,
    }),
    define({
      ...dims(S, "click", "pixel", "background"),
      variant: "spin_plus",
      calls: call("click", px(spin, PLUS)),
      oracle: spinBy(1),
      expect: delivered("global_input"),
    }),
    // double_click: the spin button's "+" counts both presses.
    define({
      ...dims(S, "double_click", "pixel", "background"),
      calls: call("double_click", px(spin, PLUS)),
      oracle: spinBy(2),
      expect: delivered("global_input"),
    }),
    define({
      ...dims(S, "double_click", "pixel", "foreground"),
      calls: call("double_click", px(spin, PLUS), FG),
      oracle: spinBy(2),
      expect: delivered(),
    }),
    define({
      ...dims(S, "double_click", "pixel", "n/a", "desktop"),
      calls: call("double_click", desk(spin, PLUS)),
      oracle: spinBy(2),
      expect: delivered(),
    }),
    define({
      ...dims(S, "right_click", "pixel", "background"),
      variant: "covered",
      covered: true,
      calls: call("right_click", px("togglebutton", 0.85, 0.5, 1)),
      oracle: untouched,
      expect: refused("background_unavailable"),
    }),
    // set_value and text.
    define({
      ...dims(S, "set_value", "element", "n/a"),
      variant: "entry",
      calls: call("set_value", tok(entry, ENTRY), { value: "catalog" }),
      oracle: entryText("entry = catalog", (_b, a) => a === "catalog"),
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(S, "set_value", "element", "n/a"),
      variant: "slider",
      calls: (
        c,
      ) => [{
        tool: "set_value",
        args: {
          element_token: c.view.token(hslider),
          value: Number(c.view.element(hslider).value) === 30 ? "70" : "30",
        },
      }],
      oracle: sliderMoves,
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(S, "set_value", "element", "n/a"),
      variant: "spin",
      calls: (
        c,
      ) => [{
        tool: "set_value",
        args: {
          element_token: c.view.token(spin),
          value: Number(c.view.element(spin).value) === 7 ? "8" : "7",
        },
      }],
      oracle: stockNumber("spin button = requested", first(spin), (b, a) => a !== b && (a === 7 || a === 8)),
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(S, "type_text", "element", "background"),
      calls: call("type_text", tok(entry, ENTRY), { text: "+ax" }),
      oracle: entryGets("+ax"),
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(S, "type_text", "pixel", "background"),
      calls: call("type_text", px(entry, 0.9, 0.5, ENTRY), { text: "+bg" }),
      oracle: entryGets("+bg"),
      expect: delivered(),
    }),
    define({
      ...dims(S, "type_text", "pixel", "foreground"),
      calls: call("type_text", px(entry, 0.9, 0.5, ENTRY), FG, { text: "+fg" }),
      oracle: entryGets("+fg"),
      expect: delivered(),
    }),
    define({
      ...dims(S, "press_key", "element", "background"),
      calls: call("press_key", tok(entry, ENTRY), { key: "BackSpace" }),
      oracle: entryShrinks,
      expect: delivered(),
    }),
    define({
      ...dims(S, "hotkey", "pixel", "background"),
      calls: call("hotkey", px(entry, 0.9, 0.5, ENTRY), { keys: ["ctrl", "BackSpace"] }),
      oracle: entryShrinks,
      expect: delivered(),
    }),
    define({
      ...dims(S, "press_key", "pixel", "background"),
      variant: "covered",
      covered: true,
      calls: call("press_key", px("togglebutton", 0.85, 0.5, 1), { key: "space" }),
      oracle: untouched,
      expect: refused("background_unavailable"),
    }),
    // scroll and drag on the horizontal slider (its left third is covered).
    define({
      ...dims(S, "scroll", "element", "background"),
      calls: call("scroll", tok(hslider), { direction: "down", amount: 2 }),
      oracle: sliderMoves,
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(S, "scroll", "pixel", "background"),
      calls: call("scroll", px(hslider, 0.8), { direction: "up", amount: 2 }),
      oracle: sliderMoves,
      expect: delivered("global_input"),
    }),
    define({
      ...dims(S, "scroll", "pixel", "foreground"),
      calls: call("scroll", px(hslider, 0.8), FG, { direction: "down", amount: 2 }),
      oracle: sliderMoves,
      expect: delivered(),
    }),
    define({
      ...dims(S, "scroll", "pixel", "background"),
      variant: "covered",
      covered: true,
      // Under sentinel B: the slider's own value moves through accessibility; B sees nothing.
      calls: call("scroll", px(hslider, 0.1), { direction: "up", amount: 2 }),
      oracle: sliderMoves,
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(S, "drag", "pixel", "background"),
      calls: call(
        "drag",
        win,
        fromTo((c) => c.view.pixel(hslider, 0.6), (c) => c.view.pixel(hslider, 0.95)),
        { duration_ms: 150, steps: 8 },
      ),
      oracle: sliderMoves,
      expect: delivered("global_input"),
    }),
    define({
      ...dims(S, "drag", "pixel", "foreground"),
      calls: call(
        "drag",
        win,
        fromTo((c) => c.view.pixel(hslider, 0.95), (c) => c.view.pixel(hslider, 0.6)),
        FG,
        { duration_ms: 150, steps: 8 },
      ),
      oracle: sliderMoves,
      expect: delivered(),
    }),
    define({
      ...dims(S, "drag", "pixel", "background"),
      variant: "covered",
      covered: true,
      calls: call("drag", win, fromTo((c) => c.view.pixel(hslider, 0.8), (c) => c.view.pixel(hslider, 0.1)), {
        duration_ms: 150,
        steps: 8,
      }),
      oracle: untouched,
      expect: refused("background_unavailable"),
    }),
    // xmessage: no pid to target a window by; the desktop scope reaches it.
    define({
      ...dims("xmessage", "click", "pixel", "n/a", "desktop"),
      calls: (c) => [{ tool: "click", args: { target: { kind: "desktop" }, ...c.xmessage()!.buttons[1] } }],
      oracle: xmessageChose("Beta", 12),
      expect: delivered(),
    }),
    define({
      ...dims("xmessage", "click", "pixel", "background"),
      variant: "no_pid",
      calls: (
        c,
      ) => [{
        tool: "click",
        args: {
          target: { kind: "window", pid: c.xmessage()!.pid, window_id: c.xmessage()!.windowId },
          x: 10,
          y: 10,
        },
      }],
      oracle: xmessageChose("", -1),
      expect: refused("window_target_not_found"),
    }),
  ];
}
