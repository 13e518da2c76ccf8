/**
 * Text cells: line ends as the control stores them (a line break typed into notepad's edit is
 * CR LF there, so that the file it saves has them), and WordPad started by launch_app, its rich
 * edit typed into (it answers WM_GETTEXT with CR LF) and the app closed again by kill_app.
 *
 * @module
 */
import { className, descendantWindows, hwnd, isAppWindow } from "../../src/backends/windows/win32/hwnd.ts";
import { processSnapshot } from "../../src/backends/windows/processes.ts";
import { user32 } from "../../ffi/windows/user32.ts";
import { textOf, windowsOf } from "../windows/_win_apps.ts";
import type { WinCell } from "./cell.ts";
import { reading, text } from "./oracles.ts";
import { is, notepadTarget, observe } from "./views.ts";

const LINES = "first line\nsecond ü line";
const STORED = "first line\r\nsecond ü line";

/** WordPad's process and main window once launch_app started it. */
let wordpad: { pid: number; windowId: number } | null = null;

/** WordPad processes that show a window. */
function wordpads(): { pid: number; windowId: number }[] {
  return processSnapshot().filter((p) => /^wordpad\.exe$/i.test(p.exeFile)).flatMap((p) => {
    const windowId = windowsOf(p.pid).find(isAppWindow);
    return windowId ? [{ pid: p.pid, windowId }] : [];
  });
}

/** WordPad's rich edit control. */
function richEdit(windowId: number): number {
  const found = descendantWindows(windowId).find((w) =>
    /^RichEdit/i.test(className(w)) && user32.symbols.IsWindowVisible(hwnd(w)) !== 0
  );
  if (!found) throw new Error("WordPad shows no rich edit control");
  return found;
}

function lineCell(delivery: "background" | "foreground"): WinCell {
  return {
    id: `type_text.element.${delivery}.notepad_lines`,
    tool: "type_text",
    addressing: "element",
    delivery,
    calls: async (w) => {
      const view = await observe(w, w.notepad.pid, w.notepad.windowId);
      return [{
        tool: "type_text",
        args: {
          ...notepadTarget(w),
          element_token: view.token(is.edit),
          text: LINES,
          delivery_mode: delivery,
        },
      }];
    },
    oracle: text(`edit text = ${JSON.stringify(STORED)} (CR LF)`, (w) => w.edit, (_b, a) => a === STORED),
    expect: { kind: "delivered", effect: "confirmed" },
  };
}

/** The text cells. */
export function textCells(): WinCell[] {
  return [
    lineCell("background"),
    lineCell("foreground"),
    {
      id: "launch_app.name.n/a.wordpad",
      tool: "launch_app",
      addressing: "none",
      delivery: "n/a",
      calls: () => [{ tool: "launch_app", args: { name: "wordpad" } }],
      oracle: reading("a WordPad process owns a window", () => wordpads(), (b, a) => {
        const fresh = a.filter((p) => !b.some((q) => q.pid === p.pid));
        if (fresh.length === 1) wordpad = fresh[0];
        return fresh.length === 1;
      }),
      expect: { kind: "delivered" },
    },
    {
      id: "type_text.element.background.wordpad",
      tool: "type_text",
      addressing: "element",
      delivery: "background",
      calls: async (w) => {
        if (!wordpad) throw new Error("launch_app started no WordPad");
        const view = await observe(w, wordpad.pid, wordpad.windowId);
        const token = view.token((e) => e.role === "Edit");
        return [{
          tool: "type_text",
          args: { pid: wordpad.pid, window_id: wordpad.windowId, element_token: token, text: LINES },
        }];
      },
      oracle: reading(
        `WordPad's rich edit reads ${JSON.stringify(STORED)} (WM_GETTEXT)`,
        () => wordpad ? textOf(richEdit(wordpad.windowId)) : "",
        (_b, a) => a === STORED,
      ),
      expect: { kind: "delivered", effect: "confirmed" },
    },
    {
      id: "kill_app.pid.n/a.wordpad",
      tool: "kill_app",
      addressing: "none",
      delivery: "n/a",
      calls: () => [{ tool: "kill_app", args: { pid: wordpad?.pid ?? 0 } }],
      oracle: reading(
        "WordPad is gone from the process table",
        () => processSnapshot().some((p) => p.pid === wordpad?.pid),
        (b, a) => b && !a,
      ),
      expect: { kind: "delivered" },
    },
  ];
}
