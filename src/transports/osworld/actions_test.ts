import assert from "node:assert/strict";
import { computer13ToPy, pyCallToDriver, UnsupportedActionError } from "./actions.ts";
import { parsePyautogui } from "./pyautogui.ts";

const cursor = { x: 7, y: 8 };
const plan = (source: string) => parsePyautogui(source).map(pyCallToDriver).flatMap((p) => p(cursor));

Deno.test("pyCallToDriver maps OSWorld's pyautogui calls onto desktop tools in screen pixels", () => {
  const calls = plan(
    "pyautogui.click(button='right', x=10, y=20); pyautogui.doubleClick(); pyautogui.scroll(-3, 5, 6)\n" +
      "pyautogui.dragTo(30, 40, duration=1.0, button='left', mouseDownUp=True); pyautogui.hotkey('ctrl', 'c')\n" +
      "pyautogui.press('enter', presses=2); pyautogui.typewrite('hi'); pyautogui.hscroll(2)",
  );
  const desktop = { target: { kind: "desktop" }, coordinate_space: "screen" };
  assert.deepEqual(calls, [
    { tool: "click", args: { ...desktop, x: 10, y: 20, button: "right", count: 1 } },
    { tool: "click", args: { ...desktop, x: 7, y: 8, button: "left", count: 2 } },
    { tool: "scroll", args: { ...desktop, x: 5, y: 6, direction: "down", amount: 3 } },
    { tool: "drag", args: { ...desktop, from_x: 7, from_y: 8, to_x: 30, to_y: 40 } },
    { tool: "hotkey", args: { target: desktop.target, keys: ["ctrl", "c"] } },
    { tool: "press_key", args: { target: desktop.target, key: "enter" } },
    { tool: "press_key", args: { target: desktop.target, key: "enter" } },
    { tool: "type_text", args: { target: desktop.target, text: "hi" } },
    { tool: "scroll", args: { ...desktop, x: 7, y: 8, direction: "right", amount: 2 } },
  ]);
});

Deno.test("pyCallToDriver refuses what the driver cannot do before anything runs", () => {
  for (
    const source of [
      "pyautogui.press('nosuchkey')",
      "pyautogui.click(clicks=5)",
      "pyautogui.click(button='x1')",
    ]
  ) {
    assert.throws(() => parsePyautogui(source).map(pyCallToDriver), UnsupportedActionError, source);
  }
});

Deno.test("computer13ToPy: OSWorld's structured actions as the pyautogui its controller emits", () => {
  assert.deepEqual(computer13ToPy({ action_type: "CLICK", parameters: { x: 1, y: 2, num_clicks: 2 } }), {
    fn: "click",
    args: [],
    kwargs: { x: 1, y: 2, clicks: 2 },
  });
  assert.deepEqual(computer13ToPy({ action_type: "SCROLL", parameters: { dy: -2 } })?.fn, "vscroll");
  assert.equal(computer13ToPy({ action_type: "DONE" }), null);
  assert.throws(
    () => computer13ToPy({ action_type: "KEY_DOWN", parameters: { key: "a" } }),
    UnsupportedActionError,
  );
  assert.throws(() => computer13ToPy({ action_type: "NOPE" }), UnsupportedActionError);
});
