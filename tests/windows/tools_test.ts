/**
 * The tool registry on the Windows back end under Wine, against stock apps: every
 * answer is judged by what the app owns, read through Win32 by the test itself.
 *
 * @module
 */
import assert from "node:assert/strict";
import { startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";
import { checkOf, onWindows, StockApp, textOf, waitFor } from "./_win_apps.ts";
import { windowRect } from "../../src/backends/windows/win32/hwnd.ts";

function element(state: Structured, predicate: (e: Structured) => boolean): Structured {
  const found = (state.elements as Structured[]).find(predicate);
  assert.ok(
    found,
    `no such element in ${JSON.stringify(state.elements?.map((e: Structured) => [e.role, e.label]))}`,
  );
  return found;
}

Deno.test({
  name: "get_window_state of notepad names its edit, menu and status bar with frames and tokens",
  ignore: !onWindows,
  async fn() {
    await using driver = await startTestDriver();
    await using notepad = await StockApp.start("notepad.exe", [], "Notepad");
    const list = await driver.ok("list_windows", {});
    const row = (list.windows as Structured[]).find((w) => w.window_id === notepad.windowId);
    assert.ok(row, "list_windows shows notepad");
    assert.equal(row.pid, notepad.pid);
    const state = await driver.ok("get_window_state", { pid: notepad.pid, window_id: notepad.windowId });
    console.log(state.tree_markdown ?? state.markdown ?? JSON.stringify(state).slice(0, 2000));
    const edit = element(state, (e) => e.role === "Edit");
    assert.ok(edit.element_token, "the edit has a token");
    const rect = windowRect(notepad.control("Edit"))!;
    assert.deepEqual(edit.frame ? [edit.frame.w, edit.frame.h] : null, [rect.width, rect.height]);
  },
});

Deno.test({
  name: "type_text into notepad's edit by element token lands in the background (WM_GETTEXT)",
  ignore: !onWindows,
  async fn() {
    await using driver = await startTestDriver();
    await using notepad = await StockApp.start("notepad.exe", [], "Notepad");
    const state = await driver.ok("get_window_state", { pid: notepad.pid, window_id: notepad.windowId });
    const edit = element(state, (e) => e.role === "Edit");
    const text = "Grüße, мир, 世界 🎉";
    const result = await driver.ok("type_text", {
      pid: notepad.pid,
      window_id: notepad.windowId,
      element_token: edit.element_token,
      text,
    });
    console.log(JSON.stringify(result).slice(0, 600));
    assert.equal(
      await waitFor("the text", () => textOf(notepad.control("Edit")) === text ? "ok" : null),
      "ok",
    );
  },
});

Deno.test({
  name: "click by element toggles the Find dialog's Match case check box in the background (BM_GETCHECK)",
  ignore: !onWindows,
  async fn() {
    await using driver = await startTestDriver();
    await using notepad = await StockApp.start("notepad.exe", [], "Notepad");
    await driver.ok("press_key", {
      pid: notepad.pid,
      window_id: notepad.windowId,
      key: "f",
      modifiers: ["ctrl"],
      delivery_mode: "foreground",
    });
    const find = await waitFor("the Find dialog", () => {
      const { windowsOf } = {
        windowsOf: (pid: number) => import("./_win_apps.ts").then((m) => m.windowsOf(pid)),
      };
      return windowsOf(notepad.pid).then((ws) => ws.find((w) => w !== notepad.windowId) ?? null);
    });
    const box = notepad.control("Button", /case/i, find);
    const before = checkOf(box);
    const state = await driver.ok("get_window_state", { pid: notepad.pid, window_id: find });
    console.log(
      JSON.stringify(state.elements.map((e: Structured) => [e.element_index, e.role, e.label, e.selected])),
    );
    const match = element(state, (e) => /case/i.test(e.label));
    const result = await driver.ok("click", {
      pid: notepad.pid,
      window_id: find,
      element_token: match.element_token,
    });
    console.log(JSON.stringify(result).slice(0, 600));
    assert.equal(await waitFor("the check", () => checkOf(box) !== before ? "ok" : null), "ok");
  },
});
