/**
 * The Windows benchmarks (run by scripts/bench.ts on Windows, or under Wine with
 * `sh scripts/wine.sh run scripts/bench.ts`). Each figure has a baseline measured in the
 * same run: the raw Win32 calls the driver's tool is built on.
 *
 * 1. get_window_state of notepad (tree + screenshot) vs the bare child-window walk.
 * 2. A 1024x768 capture encoded to PNG vs the bare BitBlt + GetDIBits.
 * 3. A background click (element token, then pixel) on the Find dialog's check box,
 *    each confirmed by BM_GETCHECK, vs posting WM_LBUTTONDOWN/UP by hand.
 * 4. get_window_state of regedit, tree only: its tree-view and list-view items are read
 *    through the controls' messages in regedit's memory, vs walking the tree's handles
 *    with TVGN_NEXTVISIBLE alone.
 *
 * Writes bench/results_windows.md and bench/results_windows.json. Wine is not Windows:
 * these are numbers for the record.
 *
 * @module
 */
import { encodePng } from "../../src/lib/image/png.ts";
import { startRuntime } from "../../src/runtime.ts";
import { CONTROL_MSG, MK, user32, WM } from "../../ffi/windows/user32.ts";
import { makeLParam } from "../../ffi/windows/_win.ts";
import { captureScreenRect } from "../../src/backends/windows/win32/capture.ts";
import {
  className,
  clientRect,
  controlText,
  descendantWindows,
  hwnd,
  sendMessage,
} from "../../src/backends/windows/win32/hwnd.ts";
import { systemDescription } from "../../src/backends/windows/system_info.ts";
import { checkOf, StockApp, waitFor, windowsOf } from "../../tests/windows/_win_apps.ts";
import { isAppWindow } from "../../src/backends/windows/win32/hwnd.ts";
import { bringToForeground } from "../../src/backends/windows/input/foreground.ts";
import { InputSettler, SendInputKeyboard } from "../../src/backends/windows/input/global_input.ts";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function sample(runs: number, fn: () => unknown | Promise<unknown>): Promise<number[]> {
  await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    out.push(performance.now() - started);
  }
  return out;
}

/** Runs the benchmarks and writes the results. */
export async function windowsBench(runs: number): Promise<void> {
  const root = new URL("../../", import.meta.url);
  const runtime = await startRuntime({ desktop: "system", permissionMode: "standard" });
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await runtime.registry.call(name, args, { lease: "bench", transport: "cli" });
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
    return result;
  };
  await using notepad = await StockApp.start("notepad.exe", [], "Notepad");
  try {
    user32.symbols.SetWindowPos(hwnd(notepad.windowId), null, 0, 0, 1024, 768, 0x4 | 0x10);
    const target = { pid: notepad.pid, window_id: notepad.windowId };

    // 1. get_window_state vs the bare child-window walk.
    let elements = 0, nodes = 0, pngBytes = 0;
    const stateMs = await sample(runs, async () => {
      const result = await call("get_window_state", target);
      elements = result.structuredContent?.element_count as number;
      nodes = result.structuredContent?.total_element_count as number;
      const image = result.content.find((p) => p.type === "image");
      pngBytes = image && image.type === "image" ? Math.floor(image.data.length * 3 / 4) : 0;
    });
    const treeOnlyMs = await sample(
      runs,
      () => call("get_window_state", { ...target, include_screenshot: false }),
    );
    const walkMs = await sample(runs, () => {
      for (const child of descendantWindows(notepad.windowId)) {
        [className(child), controlText(child), clientRect(child)];
      }
    });

    // 2. 1024x768 capture to PNG vs BitBlt + GetDIBits alone.
    const rect = { x: 0, y: 0, width: 1024, height: 768 };
    let capturePng = 0;
    const pngMs = await sample(runs, async () => {
      capturePng = (await encodePng(captureScreenRect(rect)!)).length;
    });
    const blitMs = await sample(runs, () => captureScreenRect(rect));

    // 3. Background clicks on the Find dialog's Match case, each confirmed by BM_GETCHECK.
    await bringToForeground(notepad.windowId);
    const settler = new InputSettler();
    await new SendInputKeyboard(settler).press("f", ["ctrl"]);
    await settler.settle();
    const find = await waitFor(
      "the Find dialog",
      () => windowsOf(notepad.pid).find((w) => className(w) === "#32770" && isAppWindow(w)),
    );
    const box = notepad.control("Button", /case/i, find);
    const findTarget = { pid: notepad.pid, window_id: find };
    const state = await call("get_window_state", findTarget);
    const elementsOf = (state.structuredContent?.elements ?? []) as {
      label: string;
      element_token: string;
      frame: { x: number; y: number; w: number; h: number };
    }[];
    const match = elementsOf.find((e) => /match case/i.test(e.label))!;
    const bounds = state.structuredContent?.bounds as { x: number; y: number };
    const confirmedClick = async (args: Record<string, unknown>) => {
      const before = checkOf(box);
      const result = await call("click", { ...findTarget, ...args });
      if (checkOf(box) === before) {
        throw new Error(`the click did not land: ${JSON.stringify(result.structuredContent)}`);
      }
    };
    const elementClickMs = await sample(runs, () => confirmedClick({ element_token: match.element_token }));
    const pixel = {
      x: Math.round(match.frame.x + 6 - bounds.x),
      y: Math.round(match.frame.y + match.frame.h / 2 - bounds.y),
    };
    const pixelClickMs = await sample(runs, async () => {
      // A fresh screenshot for each pixel click, as an agent works.
      await call("get_window_state", { ...findTarget, include_screenshot: true });
      await confirmedClick(pixel);
    });
    const rawClickMs = await sample(runs, () => {
      const before = checkOf(box);
      const client = clientRect(box)!;
      const lParam = makeLParam(6, Math.floor(client.height / 2));
      user32.symbols.PostMessageW(hwnd(box), WM.LBUTTONDOWN, BigInt(MK.LBUTTON), lParam);
      user32.symbols.PostMessageW(hwnd(box), WM.LBUTTONUP, 0n, lParam);
      while (checkOf(box) === before) sendMessage(box, CONTROL_MSG.BM_GETCHECK, 0, 0);
    });

    // 4. regedit's tree items through the control's messages vs the bare handle walk.
    await using regedit = await StockApp.start("regedit.exe", [], "RegEdit_RegEdit");
    const tree = regedit.control("SysTreeView32");
    let regeditNodes = 0;
    const regeditMs = await sample(runs, async () => {
      const result = await call("get_window_state", {
        pid: regedit.pid,
        window_id: regedit.windowId,
        include_screenshot: false,
      });
      regeditNodes = result.structuredContent?.total_element_count as number;
    });
    const handleWalkMs = await sample(runs, () => {
      // TVM_GETNEXTITEM: TVGN_ROOT, then TVGN_NEXTVISIBLE.
      for (let item = sendMessage(tree, 0x110a, 0, 0) ?? 0n; item !== 0n;) {
        item = sendMessage(tree, 0x110a, 6, item) ?? 0n;
      }
    });

    const results = {
      date: new Date().toISOString(),
      deno: Deno.version.deno,
      system: systemDescription(),
      runs,
      window_state: {
        app: "notepad (1024x768)",
        nodes,
        elements,
        get_window_state_median_ms: median(stateMs),
        png_bytes: pngBytes,
        tree_only_median_ms: median(treeOnlyMs),
        bare_child_walk_median_ms: median(walkMs),
      },
      capture_png: {
        size: "1024x768",
        capture_and_png_median_ms: median(pngMs),
        png_bytes: capturePng,
        bitblt_getdibits_median_ms: median(blitMs),
      },
      items: {
        regedit_nodes: regeditNodes,
        regedit_tree_only_median_ms: median(regeditMs),
        tree_handle_walk_median_ms: median(handleWalkMs),
      },
      background_click: {
        element_click_median_ms: median(elementClickMs),
        pixel_click_with_fresh_screenshot_median_ms: median(pixelClickMs),
        raw_postmessage_click_median_ms: median(rawClickMs),
      },
    };
    await Deno.mkdir(new URL("bench/", root), { recursive: true });
    await Deno.writeTextFile(
      new URL("bench/results_windows.json", root),
      JSON.stringify(results, null, 2) + "\n",
    );
    await Deno.writeTextFile(new URL("bench/results_windows.md", root), markdown(results));
    console.log(markdown(results));
  } finally {
    await runtime.close();
  }
}

function markdown(r: {
  date: string;
  deno: string;
  system: string;
  runs: number;
  window_state: Record<string, number | string>;
  capture_png: Record<string, number | string>;
  items: Record<string, number>;
  background_click: Record<string, number>;
}): string {
  const f = (n: number | string) =>
    typeof n === "number" ? (Number.isInteger(n) ? String(n) : n.toFixed(1)) : n;
  const w = r.window_state, c = r.capture_png, b = r.background_click, i = r.items;
  return `# Windows benchmark results (under Wine)

Measured ${r.date} with deno.exe ${r.deno} on ${r.system}, ${r.runs} runs per median, in the harness of
\`scripts/wine.sh\` (Xvfb 1280x1024x24, no window manager). Produced by \`sh scripts/wine.sh run scripts/bench.ts\`.
Wine is not Windows: these are numbers for the record; baselines are the bare Win32 calls in the same run.

| Benchmark | cua-driver (median) | Baseline (median) |
| --- | --- | --- |
| get_window_state of notepad (${w.app}), tree + screenshot | ${f(w.get_window_state_median_ms)} ms (${
    f(w.nodes)
  } nodes, ${f(w.elements)} elements, ${
    f(w.png_bytes)
  } B PNG) | bare child-window walk (class, WM_GETTEXT, rect): ${f(w.bare_child_walk_median_ms)} ms |
| get_window_state of notepad, tree only | ${f(w.tree_only_median_ms)} ms | |
| ${c.size} screen capture to PNG | ${f(c.capture_and_png_median_ms)} ms (${
    f(c.png_bytes)
  } B) | BitBlt + GetDIBits alone: ${f(c.bitblt_getdibits_median_ms)} ms |
| Background click by element token on the Find dialog's check box (confirmed by BM_GETCHECK) | ${
    f(b.element_click_median_ms)
  } ms | PostMessage WM_LBUTTONDOWN/UP by hand until BM_GETCHECK changes: ${
    f(b.raw_postmessage_click_median_ms)
  } ms |
| Background click by pixel, with a fresh get_window_state screenshot before each | ${
    f(b.pixel_click_with_fresh_screenshot_median_ms)
  } ms | |
| get_window_state of regedit, tree only (tree-view and list-view items read in its memory) | ${
    f(i.regedit_tree_only_median_ms)
  } ms (${f(i.regedit_nodes)} nodes) | TVGN_NEXTVISIBLE handle walk alone: ${
    f(i.tree_handle_walk_median_ms)
  } ms |
`;
}
