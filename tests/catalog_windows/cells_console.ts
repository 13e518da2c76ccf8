/**
 * Console cells: text (ASCII and other scripts) and keys into a console window running cmd, in
 * the background and in the foreground, each judged by the console's screen buffer, which the
 * test reads itself (ReadConsoleOutputCharacterW from inside the console); and launch_app of a
 * console program, which must give it a console window whose buffer shows its prompt.
 *
 * @module
 */
import {
  isConsoleWindow,
  readConsole,
  textKeys,
  writeConsoleKeys,
} from "../../src/backends/windows/win32/console.ts";
import { hwnd, isAppWindow, topLevelWindows } from "../../src/backends/windows/win32/hwnd.ts";
import { SWP, user32 } from "../../ffi/windows/user32.ts";
import { waitFor } from "../windows/_win_apps.ts";
import type { WinCell } from "./cell.ts";
import { reading } from "./oracles.ts";
import type { WinWorld } from "./world.ts";

const MIXED = "echo Grüße мир 世界 𝄞 ok";
const consoleTarget = (w: WinWorld) => ({ pid: w.console.pid, window_id: w.console.windowId });

/** The prompt row of the console: its last non-empty row. */
function promptRow(w: WinWorld): string {
  const text = readConsole(w.console.windowId)?.text ?? "";
  return text.split("\n").at(-1) ?? "";
}

/**
 * Clears the console (test-owned: Enter runs whatever a cell left on the input line, an echo,
 * then `cls` empties the screen) and waits for the bare prompt.
 */
async function clearConsole(w: WinWorld): Promise<void> {
  // On top of the other apps (not activated), so that what it draws is seen: the pixels change as
  // the typed text shows, which must still not stand for the text the console got.
  user32.symbols.SetWindowPos(
    hwnd(w.console.windowId),
    null,
    0,
    0,
    0,
    0,
    SWP.NOMOVE | SWP.NOSIZE | SWP.NOACTIVATE,
  );
  const written = writeConsoleKeys(w.console.windowId, textKeys("\ncls\n"));
  let text: string | undefined = "";
  await waitFor("the console to show a bare prompt", () => {
    text = readConsole(w.console.windowId)?.text;
    return text !== undefined && !text.trim().includes("\n") && />$/.test(text);
  }).catch((error) => {
    throw new Error(`${error.message} (${written} keys written; it shows ${JSON.stringify(text)})`);
  });
}

/**
 * Typing at the window (no element, no point): the console's text node is its focus, and no
 * focusing click is needed.
 */
function typeCell(delivery: "background" | "foreground"): WinCell {
  return {
    id: `type_text.none.${delivery}.console`,
    tool: "type_text",
    addressing: "none",
    delivery,
    prepare: clearConsole,
    calls: (
      w,
    ) => [{ tool: "type_text", args: { ...consoleTarget(w), text: MIXED, delivery_mode: delivery } }],
    oracle: reading(
      `the console's input line ends with ${JSON.stringify(MIXED)} (its screen buffer)`,
      promptRow,
      (_b, a) => a.endsWith(`>${MIXED}`),
    ),
    expect: { kind: "delivered", effect: "confirmed" },
  };
}

function enterCell(delivery: "background" | "foreground"): WinCell {
  return {
    id: `press_key.none.${delivery}.console`,
    tool: "press_key",
    addressing: "none",
    delivery,
    prepare: async (w) => {
      await clearConsole(w);
      writeConsoleKeys(w.console.windowId, textKeys("echo catalog-enter"));
      await waitFor("the typed command", () => promptRow(w).endsWith("echo catalog-enter"));
    },
    calls: (
      w,
    ) => [{ tool: "press_key", args: { ...consoleTarget(w), key: "Return", delivery_mode: delivery } }],
    oracle: reading(
      "cmd runs the command: a row reads catalog-enter (its screen buffer)",
      (w) => (readConsole(w.console.windowId)?.text ?? "").split("\n").includes("catalog-enter"),
      (b, a) => !b && a,
    ),
    expect: { kind: "delivered", effect: "confirmed" },
  };
}

/** Console windows on screen now. */
function consoleWindows(): number[] {
  return topLevelWindows().filter((w) => isConsoleWindow(w) && isAppWindow(w));
}

/** The console cells. */
export function consoleCells(): WinCell[] {
  let launched = 0;
  return [
    typeCell("background"),
    typeCell("foreground"),
    enterCell("background"),
    enterCell("foreground"),
    {
      id: "launch_app.name.n/a.cmd",
      tool: "launch_app",
      addressing: "none",
      delivery: "n/a",
      calls: () => [{ tool: "launch_app", args: { name: "cmd" } }],
      oracle: reading(
        "a new console window shows cmd's prompt (its screen buffer)",
        () => consoleWindows().filter((w) => />$/.test(readConsole(w)?.text ?? "")),
        (b, a) => {
          const fresh = a.filter((w) => !b.includes(w));
          if (fresh.length === 1) launched = fresh[0];
          return fresh.length === 1;
        },
      ),
      expect: { kind: "delivered" },
      cleanup: async () => {
        if (!launched) return;
        // `exit` ends cmd, and its console window closes with it.
        writeConsoleKeys(launched, textKeys("exit\n"));
        await waitFor("the launched console to close", () => !consoleWindows().includes(launched));
      },
    },
  ];
}
