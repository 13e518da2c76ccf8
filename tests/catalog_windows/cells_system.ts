/**
 * Window, screen, clipboard and app cells, and the refusals (stale token, vanished
 * window, covered point). Observation cells compare the tool's answer with what Win32
 * says on its own: window rectangles, GetPixel, the clipboard's own formats, the
 * process table.
 *
 * @module
 */
import { decodePng, encodePng } from "../../src/lib/image/png.ts";
import { fromBase64 } from "../../src/kernel/result.ts";
import { processSnapshot } from "../../src/backends/windows/processes.ts";
import { windowRect, windowTitle } from "../../src/backends/windows/win32/hwnd.ts";
import type { Structured } from "../_helpers/in_process_driver.ts";
import {
  clipboardDib,
  clipboardFileList,
  clipboardText,
  screenPixel,
  setClipboardText,
  textOf,
  windowsOf,
} from "../windows/_win_apps.ts";
import type { WinCell } from "./cell.ts";
import { agrees, check, reading, text } from "./oracles.ts";
import { findTarget, is, notepadTarget, observe } from "./views.ts";
import { NOTEPAD_FRAME, place, type WinWorld } from "./world.ts";

const CLIP_TEXT = "clip → 剪贴板 ✓";
const FRAME = { x: 90, y: 70, width: 600, height: 420 };

/** Screen pixels of a decoded screenshot that differ from GetPixel at the same screen points. */
function pixelMismatches(png: Uint8Array, origin: { x: number; y: number }, scale: number): string | null {
  const image = decodePng(png);
  const misses: string[] = [];
  for (let i = 1; i <= 24; i++) {
    const px = Math.floor((image.width * (i % 6 + 0.5)) / 6),
      py = Math.floor((image.height * (Math.floor(i / 6) + 0.5)) / 5);
    const o = (py * image.width + px) * 4;
    const seen = [image.data[o], image.data[o + 1], image.data[o + 2]];
    const truth = screenPixel(Math.round(origin.x + px / scale), Math.round(origin.y + py / scale));
    if (seen.some((c, k) => Math.abs(c - truth[k]) > 8)) misses.push(`(${px},${py}) ${seen} vs ${truth}`);
  }
  return misses.length > 2
    ? `${misses.length}/24 pixels differ from GetPixel: ${misses.slice(0, 3).join("; ")}`
    : null;
}

function imagePart(result: Structured): Uint8Array | null {
  const content = (result as { __content?: { type: string; data?: string }[] }).__content ?? [];
  const image = content.find((c) => c.type === "image");
  return image?.data ? fromBase64(image.data) : null;
}

async function samplePng(): Promise<{ path: string; rgba: Uint8Array; width: number; height: number }> {
  const width = 12, height = 8;
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rgba.set([x * 20, y * 30, 200 - x * 10, 255], (y * width + x) * 4);
  }
  const path = await Deno.makeTempFile({ suffix: ".png" });
  await Deno.writeFile(path, await encodePng({ width, height, data: rgba }));
  return { path, rgba, width, height };
}

let launched = 0;
let clipFile = "";

/** The system cells. */
export function systemCells(): WinCell[] {
  return [
    {
      id: "list_windows.none.n/a.desktop",
      tool: "list_windows",
      addressing: "none",
      delivery: "n/a",
      calls: () => [{ tool: "list_windows", args: {} }],
      oracle: agrees(
        "notepad and the sentinel listed with pid, title and GetWindowRect",
        (w) => w,
        (result, state) => {
          const w = state as WinWorld;
          for (const app of [w.notepad, w.sentinel]) {
            const row = (result.windows as Structured[]).find((r) => r.window_id === app.windowId);
            if (!row) return `window ${app.windowId} missing`;
            const rect = windowRect(app.windowId)!;
            if (row.pid !== app.pid || row.title !== windowTitle(app.windowId)) {
              return `row ${JSON.stringify(row)}`;
            }
            const b = row.bounds;
            if (b.x !== rect.x || b.y !== rect.y || b.width !== rect.width || b.height !== rect.height) {
              return `bounds ${JSON.stringify(b)} vs GetWindowRect ${JSON.stringify(rect)}`;
            }
          }
          return null;
        },
      ),
      expect: { kind: "observed", status: "ok" },
    },
    {
      id: "get_window_state.none.n/a.find",
      tool: "get_window_state",
      addressing: "none",
      delivery: "n/a",
      calls: (w) => [{ tool: "get_window_state", args: { ...findTarget(w) } }],
      oracle: agrees(
        "check box and radio states, edit frame and tokens match Win32",
        (w) => w,
        (result, state) => {
          const w = state as WinWorld;
          const elements = result.elements as Structured[];
          const box = elements.find(is.matchCase),
            down = elements.find((e) => e.role === "RadioButton" && /down/i.test(e.label));
          const edit = elements.find(is.edit);
          if (!box || !down || !edit) {
            return `elements ${JSON.stringify(elements.map((e) => [e.role, e.label]))}`;
          }
          if (
            box.selected !== false || down.selected !== true
          ) return `states ${box.selected} ${down.selected}`;
          if (!elements.every((e) => /^s[0-9a-f]{8}:\d+$/.test(e.element_token))) return "tokens malformed";
          const rect = windowRect(w.findControl("Edit"))!;
          const f = edit.frame;
          return f.x === rect.x && f.y === rect.y && f.w === rect.width && f.h === rect.height
            ? null
            : `edit frame ${JSON.stringify(f)} vs GetWindowRect ${JSON.stringify(rect)}`;
        },
      ),
      expect: { kind: "observed", status: "ok" },
    },
    {
      id: "get_window_state.none.n/a.notepad",
      tool: "get_window_state",
      addressing: "none",
      delivery: "n/a",
      prepare: (w) => w.setText("some text"),
      calls: (w) => [{ tool: "get_window_state", args: { ...notepadTarget(w), include_screenshot: false } }],
      oracle: agrees(
        "the edit's value, frame and token, and the status bar, match Win32",
        (w) => w,
        (result, state) => {
          const w = state as WinWorld;
          const edit = (result.elements as Structured[]).find(is.edit);
          if (!edit) return "no edit";
          const rect = windowRect(w.edit)!;
          const f = edit.frame;
          if (edit.value !== textOf(w.edit)) return `value ${JSON.stringify(edit.value)} vs WM_GETTEXT`;
          if (f.x !== rect.x || f.y !== rect.y || f.w !== rect.width || f.h !== rect.height) {
            return `frame ${JSON.stringify(f)}`;
          }
          const status = textOf(w.notepad.control("msctls_statusbar32"));
          // The outline is in the text content (structuredContent carries the element rows).
          const text = ((result.__content ?? []) as { type: string; text?: string }[])
            .filter((part) => part.type === "text").map((part) => part.text).join("\n");
          const markdown = String(result.tree_markdown ?? result.markdown ?? text);
          return markdown.includes(status)
            ? null
            : `the status bar text ${JSON.stringify(status)} is not in the tree`;
        },
      ),
      expect: { kind: "observed", status: "ok" },
    },
    {
      id: "bring_to_front.none.n/a.notepad",
      tool: "bring_to_front",
      addressing: "none",
      delivery: "n/a",
      calls: (w) => [{ tool: "bring_to_front", args: { ...notepadTarget(w) } }],
      oracle: reading(
        "GetForegroundWindow = notepad",
        (w) => w.readDesktop().foreground === w.notepad.windowId,
        (_b, a) => a,
      ),
      expect: { kind: "delivered" },
    },
    {
      id: "get_window_state.screenshot.n/a.notepad",
      tool: "get_window_state",
      addressing: "none",
      delivery: "n/a",
      prepare: (w) => w.setText("screenshot of this text"),
      calls: (w) => [{ tool: "get_window_state", args: { ...notepadTarget(w), include_screenshot: true } }],
      oracle: agrees("window PNG has the window's size and GetPixel's colours", (w) => w, (result, state) => {
        const w = state as WinWorld;
        const png = imagePart(result);
        if (!png) return "no image";
        const rect = windowRect(w.notepad.windowId)!;
        const image = decodePng(png);
        const scale = Number(result.screenshot_scale ?? 1);
        if (Math.round(image.width / scale) !== rect.width) return `width ${image.width} vs ${rect.width}`;
        return pixelMismatches(png, rect, scale);
      }),
      expect: { kind: "observed", status: "ok" },
    },
    {
      id: "get_desktop_state.screenshot.n/a.desktop",
      tool: "get_desktop_state",
      addressing: "none",
      delivery: "n/a",
      calls: () => [{ tool: "get_desktop_state", args: {} }],
      oracle: agrees("desktop PNG matches GetPixel", (w) => w, (result) => {
        const png = imagePart(result);
        if (!png) return "no image";
        return pixelMismatches(png, { x: 0, y: 0 }, Number(result.screenshot_scale ?? 1));
      }),
      expect: { kind: "observed", status: "ok" },
    },
    {
      id: "set_window_frame.none.n/a.notepad",
      tool: "set_window_frame",
      addressing: "none",
      delivery: "n/a",
      calls: (w) => [{ tool: "set_window_frame", args: { ...notepadTarget(w), ...FRAME } }],
      oracle: reading(
        "GetWindowRect = 90,70 600x420",
        (w) => windowRect(w.notepad.windowId),
        (_b, a) =>
          a !== null && a.x === FRAME.x && a.y === FRAME.y && a.width === FRAME.width &&
          a.height === FRAME.height,
      ),
      expect: { kind: "delivered" },
      cleanup: (w) => place(w.notepad.windowId, NOTEPAD_FRAME),
    },
    {
      id: "clipboard_write.text.n/a.clipboard",
      tool: "clipboard_write",
      addressing: "none",
      delivery: "n/a",
      prepare: () => setClipboardText("before"),
      calls: () => [{ tool: "clipboard_write", args: { text: CLIP_TEXT } }],
      oracle: reading("CF_UNICODETEXT = the text", () => clipboardText(), (_b, a) => a === CLIP_TEXT),
      expect: { kind: "delivered" },
    },
    {
      id: "clipboard_read.text.n/a.clipboard",
      tool: "clipboard_read",
      addressing: "none",
      delivery: "n/a",
      prepare: () => setClipboardText("from Win32 ✓ 文字"),
      calls: () => [{ tool: "clipboard_read", args: { include_text: true } }],
      oracle: agrees(
        "clipboard_read returns the CF_UNICODETEXT the test put there",
        () => clipboardText(),
        (result, state) =>
          result.text === state ? null : `read ${JSON.stringify(result.text)} vs ${JSON.stringify(state)}`,
      ),
      expect: { kind: "observed", status: "ok" },
    },
    {
      id: "clipboard_write.image.n/a.clipboard",
      tool: "clipboard_write",
      addressing: "none",
      delivery: "n/a",
      prepare: () => setClipboardText("no image yet"),
      calls: async () => {
        const sample = await samplePng();
        return [{ tool: "clipboard_write", args: { image_path: sample.path } }];
      },
      oracle: reading(
        "CF_DIB holds the PNG's 12x8 pixels",
        () => {
          const dib = clipboardDib();
          return dib
            ? { size: [dib.width, dib.height], corner: dib.pixel(11, 7), origin: dib.pixel(0, 0) }
            : null;
        },
        (_b, a) =>
          a !== null && a.size[0] === 12 && a.size[1] === 8 && a.corner.join() === [220, 210, 90].join() &&
          a.origin.join() === [0, 0, 200].join(),
      ),
      expect: { kind: "delivered" },
    },
    {
      id: "clipboard_read.image.n/a.clipboard",
      tool: "clipboard_read",
      addressing: "none",
      delivery: "n/a",
      calls: () => [{ tool: "clipboard_read", args: { include_image: true } }],
      oracle: agrees("clipboard_read's PNG equals the CF_DIB pixels", () => clipboardDib(), (result) => {
        const png = imagePart(result);
        const dib = clipboardDib();
        if (!png || !dib) {
          return `image ${png ? "" : "missing from the result"} ${dib ? "" : "missing from the clipboard"}`;
        }
        const image = decodePng(png);
        if (image.width !== dib.width || image.height !== dib.height) {
          return `size ${image.width}x${image.height}`;
        }
        const o = ((dib.height - 1) * dib.width + dib.width - 1) * 4;
        const last = [image.data[o], image.data[o + 1], image.data[o + 2]];
        return last.join() === dib.pixel(dib.width - 1, dib.height - 1).join() ? null : `pixel ${last}`;
      }),
      expect: { kind: "observed", status: "ok" },
    },
    {
      id: "clipboard_write.file.n/a.clipboard",
      tool: "clipboard_write",
      addressing: "none",
      delivery: "n/a",
      prepare: () => setClipboardText("no files yet"),
      calls: async () => {
        const path = await Deno.makeTempFile({ suffix: " report ü.txt" });
        clipFile = path;
        return [{ tool: "clipboard_write", args: { file_path: path } }];
      },
      oracle: reading(
        "CF_HDROP lists the file",
        () => clipboardFileList(),
        (_b, a) => a.length === 1 && a[0] === clipFile,
      ),
      expect: { kind: "delivered" },
    },
    {
      id: "launch_app.name.n/a.notepad",
      tool: "launch_app",
      addressing: "none",
      delivery: "n/a",
      calls: () => [{ tool: "launch_app", args: { name: "notepad" } }],
      oracle: reading(
        "a new notepad process owns a window",
        (w) =>
          processSnapshot().filter((p) =>
            /^notepad\.exe$/i.test(p.exeFile) && p.pid !== w.notepad.pid && p.pid !== w.sentinel.pid
          )
            .filter((p) => windowsOf(p.pid).length > 0).map((p) => p.pid),
        (b, a) => {
          const fresh = a.filter((pid) => !b.includes(pid));
          if (fresh.length === 1) launched = fresh[0];
          return fresh.length === 1;
        },
      ),
      expect: { kind: "delivered" },
    },
    {
      id: "kill_app.pid.n/a.notepad",
      tool: "kill_app",
      addressing: "none",
      delivery: "n/a",
      calls: () => [{ tool: "kill_app", args: { pid: launched } }],
      oracle: reading(
        "the launched notepad is gone from the process table",
        () => processSnapshot().some((p) => p.pid === launched),
        (b, a) => b === true && a === false,
      ),
      expect: { kind: "delivered" },
    },
    {
      id: "click.element.background.stale_token",
      tool: "click",
      addressing: "element",
      delivery: "background",
      calls: async (w) => {
        const old = await observe(w, w.notepad.pid, w.find);
        await observe(w, w.notepad.pid, w.find);
        return [{ tool: "click", args: { ...findTarget(w), element_token: old.token(is.matchCase) } }];
      },
      oracle: check("Match case unchanged", (w) => w.findControl("Button", /case/i)),
      expect: { kind: "refused", code: "stale_element_token" },
    },
    {
      id: "type_text.pixel.background.covered_point",
      tool: "type_text",
      addressing: "pixel",
      delivery: "background",
      calls: async (w) => {
        const view = await observe(w, w.notepad.pid, w.notepad.windowId);
        const at = view.pixel(is.edit, 0.5, 0.5);
        const edit = windowRect(w.edit)!;
        // The sentinel moves over the middle of notepad's edit after the observation.
        const [cx, cy] = [Math.round(edit.x + edit.width / 2), Math.round(edit.y + edit.height / 2)];
        place(w.sentinel.windowId, { x: cx - 100, y: cy - 80, width: 240, height: 200 });
        // Reached through the edit under the point (issue 27's covered-point route), not the covering window.
        return [{ tool: "type_text", args: { ...notepadTarget(w), ...at, text: "under the cover" } }];
      },
      oracle: text(
        "notepad's edit holds the text typed at the covered point",
        (w) => w.edit,
        (b, a) => !b.includes("under the cover") && a.includes("under the cover"),
      ),
      expect: { kind: "delivered" },
    },
    {
      id: "click.element.background.vanished_window",
      tool: "click",
      addressing: "element",
      delivery: "background",
      calls: async (w) => {
        const view = await observe(w, w.notepad.pid, w.find);
        const token = view.token(is.matchCase);
        const find = w.find;
        await w.closeFind();
        return [{ tool: "click", args: { pid: w.notepad.pid, window_id: find, element_token: token } }];
      },
      oracle: text("notepad's text unchanged", (w) => w.edit, (b, a) => a === b),
      expect: { kind: "refused", code: "window_target_not_found" },
    },
  ];
}
