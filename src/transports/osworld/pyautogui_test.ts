import assert from "node:assert/strict";
import { parsePyautogui, PyautoguiSyntaxError } from "./pyautogui.ts";

Deno.test("parsePyautogui reads OSWorld's prefix and the calls its actions emit", () => {
  const calls = parsePyautogui(
    "import pyautogui; import time; pyautogui.FAILSAFE = False; " +
      "pyautogui.moveTo(100, 200, 0.7, pyautogui.easeInQuad)\n" +
      "pyautogui.click(button='left', x=10, y=20, clicks=2); pyautogui.typewrite('it\\'s \\u00e9\\n')\n" +
      'pyautogui.hotkey("ctrl", "s"); pyautogui.press(["enter", "tab"]); time.sleep(0.5)\n' +
      "pyautogui.scroll(-3); pyautogui.dragTo(5, 6, duration=1.0, button='left', mouseDownUp=True)",
  );
  assert.deepEqual(calls.map((c) => c.fn), [
    "moveTo",
    "click",
    "typewrite",
    "hotkey",
    "press",
    "sleep",
    "scroll",
    "dragTo",
  ]);
  assert.deepEqual(calls[0].args, [100, 200, 0.7, { tween: "easeInQuad" }]);
  assert.deepEqual(calls[1].kwargs, { button: "left", x: 10, y: 20, clicks: 2 });
  assert.deepEqual(calls[2].args, ["it's é\n"]);
  assert.deepEqual(calls[4].args, [["enter", "tab"]]);
  assert.deepEqual(calls[6].args, [-3]);
  assert.equal(calls[7].kwargs.mouseDownUp, true);
});

Deno.test("parsePyautogui refuses anything outside the subset", () => {
  for (
    const source of [
      "import os; os.system('rm -rf /')",
      "pyautogui.click(100, 200); __import__('os').system('id')",
      "pyautogui.screenshot('/tmp/x.png')",
      "pyautogui.click(x=eval('1'))",
      "pyautogui.click(1, 2) + 1",
      "pyautogui.typewrite('unterminated)",
      "exec('print(1)')",
      "pyautogui.click(foo=1)",
      "import subprocess",
      "pyautogui.click(1, 2); x = 3",
    ]
  ) {
    assert.throws(() => parsePyautogui(source), PyautoguiSyntaxError, source);
  }
});
