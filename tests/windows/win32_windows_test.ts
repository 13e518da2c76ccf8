/**
 * The Win32 window, screen and input back ends against Wine's notepad, judged by what
 * notepad owns (its edit text through WM_GETTEXT, its window rect).
 *
 * @module
 */
import assert from "node:assert/strict";
import { Win32Input } from "../../src/backends/windows/input.ts";
import { windowRect } from "../../src/backends/windows/win32/hwnd.ts";
import { Win32Screen } from "../../src/backends/windows/screen.ts";
import { Win32Windows } from "../../src/backends/windows/windows.ts";
import { onWindows, StockApp, textOf, waitFor } from "./_win_apps.ts";

Deno.test({
  name: "Win32Windows lists notepad with its pid, title and frame, and set_frame moves it",
  ignore: !onWindows,
  async fn() {
    await using notepad = await StockApp.start("notepad.exe", [], "Notepad");
    const windows = new Win32Windows();
    const listed = (await windows.list()).find((w) => w.windowId === notepad.windowId);
    assert.ok(listed, "notepad is listed");
    assert.equal(listed.pid, notepad.pid);
    assert.match(listed.title, /Notepad/);
    assert.equal(listed.appName.toLowerCase(), "notepad");
    await windows.setFrame(notepad.windowId, { x: 60, y: 50, width: 640, height: 480 });
    const rect = await waitFor("the new frame", () => {
      const r = windowRect(notepad.windowId);
      return r && r.x === 60 && r.width === 640 ? r : null;
    });
    assert.deepEqual(rect, { x: 60, y: 50, width: 640, height: 480 });
  },
});

Deno.test({
  name: "Win32Screen captures the display and notepad's window with real pixels",
  ignore: !onWindows,
  async fn() {
    await using notepad = await StockApp.start("notepad.exe", [], "Notepad");
    const screen = new Win32Screen();
    const [display] = await screen.displays();
    assert.ok(display.bounds.width >= 1024, `display ${JSON.stringify(display)}`);
    // Notepad's window exists before it has painted: wait for a capture with its pixels in it.
    let colours = 0;
    const shot = await waitFor("a desktop capture with more than 2 colours", async () => {
      const shot = await screen.captureDisplay(display.id);
      const seen = new Set<number>();
      for (let i = 0; i < shot.data.length; i += 4 * 97) {
        seen.add(shot.data[i] << 16 | shot.data[i + 1] << 8 | shot.data[i + 2]);
      }
      colours = seen.size;
      return colours > 2 ? shot : null;
    }).catch((error) => {
      throw new Error(`${error.message} (the last had ${colours})`);
    });
    assert.equal(shot.width, display.bounds.width);
    const recording = await screen.recordingSource({ frameRate: 10, drawCursor: false });
    assert.deepEqual(recording.ffmpegInput.slice(0, 2), ["-f", "gdigrab"]);
    assert.equal(recording.ffmpegInput.at(-1), "desktop");
    assert.deepEqual([recording.width % 2, recording.height % 2], [0, 0]);
    assert.ok(recording.width >= display.bounds.width - 1);
    const { image, bounds } = await screen.captureWindow(notepad.windowId);
    assert.equal(image.width, bounds.width);
    assert.equal(image.height, bounds.height);
  },
});

Deno.test({
  name: "Win32Input types mixed scripts into a background notepad by posted WM_CHAR",
  ignore: !onWindows,
  async fn() {
    await using notepad = await StockApp.start("notepad.exe", [], "Notepad");
    const edit = notepad.control("Edit");
    const input = new Win32Input();
    const keyboard = await input.keyboard("background");
    const text = "Hello Καλημέρα 你好 𝄞!";
    const count = await input.withBackgroundKeyboard(notepad.windowId, () => keyboard.typeText(text));
    assert.equal(count, [...text].length);
    assert.equal(await waitFor("the typed text", () => textOf(edit) === text ? textOf(edit) : null), text);
    await input.close();
  },
});

Deno.test({
  name: "Win32Input types through SendInput inside a foreground transaction and restores the cursor",
  ignore: !onWindows,
  async fn() {
    await using notepad = await StockApp.start("notepad.exe", [], "Notepad");
    const edit = notepad.control("Edit");
    const input = new Win32Input();
    const screen = new Win32Screen();
    const before = await screen.cursorPosition();
    const keyboard = await input.keyboard("global");
    await input.withForeground(notepad.windowId, () => keyboard.typeText("fg ÄÖ €"));
    assert.equal(await waitFor("the typed text", () => textOf(edit) === "fg ÄÖ €" ? "ok" : null), "ok");
    const after = await screen.cursorPosition();
    assert.deepEqual({ x: after.x, y: after.y }, { x: before.x, y: before.y });
    await input.close();
  },
});
