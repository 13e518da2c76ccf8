/**
 * Fixture cells for the keyboard tools (type_text, press_key, hotkey), set_value, and
 * the accessibility-only tools (invoke_menu, verify_state, run_actions).
 *
 * @module
 */
import type { Cell, CellContext } from "./cell.ts";
import { call, define, delivered, DESKTOP, dims, FG, px, refused, tok, win } from "./cell_kit.ts";
import { F, focusInputOnDesktop, hotkeyK, keyEnd, mirrorGets, untouched } from "./fixture_kit.ts";
import { fixtureEvent, fixtureIncrement, journal } from "./oracles.ts";

/** type_text, press_key and hotkey on txt-input, by element, pixel, the window and the desktop. */
export function keyboardCells(): Cell[] {
  const cells: Cell[] = [
    define({
      ...dims(F, "type_text", "element", "background"),
      calls: call("type_text", tok("txt-input"), { text: "tok1" }),
      oracle: mirrorGets("tok1"),
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(F, "type_text", "element", "background"),
      variant: "textview",
      calls: call("type_text", tok("txt-notes"), { text: "notes" }),
      oracle: fixtureIncrement("notes_len", 5),
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(F, "type_text", "pixel", "background"),
      calls: call("type_text", px("txt-input", 0.3), { text: "pxb" }),
      oracle: mirrorGets("pxb"),
      expect: delivered(),
    }),
    define({
      ...dims(F, "type_text", "pixel", "background"),
      variant: "covered",
      covered: true,
      // The covered part of an editable field: inserted through accessibility, the sentinel sees nothing.
      calls: call("type_text", px("txt-input", 0.85), { text: "cov" }),
      oracle: mirrorGets("cov"),
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(F, "type_text", "element", "foreground"),
      calls: call("type_text", tok("txt-input"), FG, { text: "efg" }),
      oracle: mirrorGets("efg"),
      expect: delivered(),
    }),
    define({
      ...dims(F, "type_text", "pixel", "foreground"),
      calls: call("type_text", px("txt-input", 0.3), FG, { text: "pfg" }),
      oracle: mirrorGets("pfg"),
      expect: delivered(),
    }),
    define({
      ...dims(F, "type_text", "none", "n/a", "desktop"),
      prepare: focusInputOnDesktop,
      calls: call("type_text", DESKTOP, { text: "dsk" }),
      oracle: mirrorGets("dsk"),
      expect: delivered(),
    }),
    define({
      ...dims(F, "type_text", "element", "background"),
      variant: "empty_text",
      calls: call("type_text", tok("txt-input"), { text: "" }),
      oracle: untouched,
      expect: refused("invalid_arguments", "text"),
    }),
  ];
  for (
    const [tool, args, oracle] of [
      ["press_key", { key: "End" }, keyEnd],
      ["hotkey", { keys: ["ctrl", "shift", "k"] }, hotkeyK],
    ] as const
  ) {
    cells.push(
      define({
        ...dims(F, tool, "pixel", "background"),
        calls: call(tool, px("txt-input", 0.3), args),
        oracle,
        expect: delivered(),
      }),
      define({
        ...dims(F, tool, "element", "background"),
        calls: call(tool, tok("txt-input"), args),
        oracle,
        expect: delivered(),
      }),
      define({
        ...dims(F, tool, "none", "background"),
        calls: call(tool, win, args),
        oracle,
        expect: delivered(),
      }),
      define({
        ...dims(F, tool, "element", "foreground"),
        calls: call(tool, tok("txt-input"), FG, args),
        oracle,
        expect: delivered(),
      }),
      define({
        ...dims(F, tool, "pixel", "foreground"),
        calls: call(tool, px("txt-input", 0.3), FG, args),
        oracle,
        expect: delivered(),
      }),
      define({
        ...dims(F, tool, "none", "n/a", "desktop"),
        prepare: focusInputOnDesktop,
        calls: call(tool, DESKTOP, args),
        oracle,
        expect: delivered(),
      }),
    );
  }
  cells.push(
    define({
      ...dims(F, "press_key", "element", "background"),
      variant: "unknown_key",
      calls: call("press_key", tok("txt-input"), { key: "NoSuchKey" }),
      oracle: untouched,
      expect: refused("invalid_arguments", "key"),
    }),
    define({
      ...dims(F, "hotkey", "none", "background"),
      variant: "modifier_last",
      calls: call("hotkey", win, { keys: ["ctrl", "shift"] }),
      oracle: untouched,
      expect: refused("invalid_arguments", "keys"),
    }),
  );
  return cells;
}

/** set_value on a text field, a slider and a combo box, and the values it must refuse. */
export function valueCells(): Cell[] {
  let slider = 42, choice = "gamma";
  return [
    define({
      ...dims(F, "set_value", "element", "n/a"),
      variant: "text",
      calls: call("set_value", tok("txt-input"), { value: "set-ok" }),
      oracle: journal("mirror = set-ok", (_b, a) => a.mirror === "set-ok"),
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(F, "set_value", "element", "n/a"),
      variant: "slider",
      calls(ctx) {
        slider = Number(ctx.view.element("sld-value").value) === 42 ? 17 : 42;
        return [{
          tool: "set_value",
          args: { element_token: ctx.view.token("sld-value"), value: String(slider) },
        }];
      },
      oracle: journal("slider_value = requested", (_b, a) => a.slider_value === slider),
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(F, "set_value", "element", "n/a"),
      variant: "combo",
      async calls(ctx) {
        choice = (await ctx.fixtureState()).choice === "gamma" ? "beta" : "gamma";
        return [{ tool: "set_value", args: { element_token: ctx.view.token("cmb-choice"), value: choice } }];
      },
      oracle: journal("choice = requested", (_b, a) => a.choice === choice),
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(F, "set_value", "element", "n/a"),
      variant: "out_of_range",
      calls: call("set_value", tok("sld-value"), { value: "500" }),
      oracle: untouched,
      expect: refused("invalid_arguments", "value"),
    }),
    define({
      ...dims(F, "set_value", "element", "n/a"),
      variant: "button",
      calls: call("set_value", tok("btn-increment"), { value: "1" }),
      oracle: untouched,
      expect: refused("invalid_arguments", "element_token"),
    }),
    define({
      ...dims(F, "set_value", "element", "n/a"),
      variant: "unknown_option",
      calls: call("set_value", tok("cmb-choice"), { value: "delta" }),
      oracle: untouched,
      expect: refused("invalid_arguments", "value"),
    }),
  ];
}

/** invoke_menu, verify_state (its answer must match the journal) and run_actions batches. */
export function accessibilityCells(): Cell[] {
  const agree = (want: boolean) => async (ctx: CellContext) => {
    const agreed = (await ctx.fixtureState()).agreed === true;
    return [{
      tool: "verify_state",
      args: {
        pid: ctx.view.pid,
        window_id: ctx.view.windowId,
        expect: [{
          element: { selector: { label_contains: "chk-agree" }, selected: want ? agreed : !agreed },
        }],
        timeout_ms: want ? 1000 : 300,
        stable_samples: 1,
      },
    }];
  };
  return [
    define({
      ...dims(F, "invoke_menu", "none", "background"),
      calls: call(
        "invoke_menu",
        (c) => ({ pid: c.view.pid, window_id: c.view.windowId, path: ["Window", "Arrange", "Left"] }),
      ),
      oracle: fixtureEvent(
        "menu_action = Window/Arrange/Left",
        "menu",
        (e) => e.menu_action === "Window/Arrange/Left",
      ),
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(F, "invoke_menu", "none", "background"),
      variant: "bad_path",
      calls: call(
        "invoke_menu",
        (c) => ({ pid: c.view.pid, window_id: c.view.windowId, path: ["Window", "Nope"] }),
      ),
      oracle: untouched,
      expect: refused("menu_path_unavailable"),
    }),
    define({
      ...dims(F, "verify_state", "element", "n/a"),
      variant: "holds",
      calls: agree(true),
      oracle: untouched,
      expect: { kind: "observed", status: "satisfied" },
    }),
    define({
      ...dims(F, "verify_state", "element", "n/a"),
      variant: "fails",
      calls: agree(false),
      oracle: untouched,
      expect: { kind: "observed", status: "unsatisfied" },
    }),
    define({
      ...dims(F, "run_actions", "element", "background"),
      calls: (ctx) => [{
        tool: "run_actions",
        args: {
          actions: [
            { tool: "set_value", arguments: { element_token: ctx.view.token("txt-input"), value: "batch" } },
            { tool: "click", arguments: { element_token: ctx.view.token("btn-increment") } },
          ],
        },
      }],
      oracle: journal(
        "mirror = batch and counter +1",
        (b, a) => a.mirror === "batch" && Number(a.counter) === Number(b.counter) + 1,
      ),
      expect: delivered("accessibility"),
    }),
    define({
      ...dims(F, "run_actions", "element", "background"),
      variant: "stale_first",
      async calls(ctx) {
        const old = ctx.view.token("btn-increment");
        const fresh = await ctx.observe("fixture");
        return [{
          tool: "run_actions",
          args: {
            actions: [{ tool: "click", arguments: { element_token: old } }, {
              tool: "click",
              arguments: { element_token: fresh.token("btn-increment") },
            }],
          },
        }];
      },
      oracle: untouched,
      expect: refused("stale_element_token"),
    }),
  ];
}
