/**
 * Stock-app cells: regedit's tree view and value list, and winecfg's tab control, whose
 * items are drawn by the control itself (no child window, no MSAA child under Wine).
 * Each is judged by what the app shows on its own: regedit's status bar (the selected
 * key's path), the tree's and list's own item counts (a double-click expands a key),
 * winecfg's selected tab and the controls of the page it shows.
 *
 * @module
 */
import { windowRect } from "../../src/backends/windows/win32/hwnd.ts";
import type { Structured } from "../_helpers/in_process_driver.ts";
import type { WinCell } from "./cell.ts";
import { agrees, reading } from "./oracles.ts";
import { observe } from "./views.ts";
import type { WinWorld } from "./world.ts";

const regeditTarget = (w: WinWorld) => ({ pid: w.regedit.pid, window_id: w.regedit.windowId });
const winecfgTarget = (w: WinWorld) => ({ pid: w.winecfg.pid, window_id: w.winecfg.windowId });
const key = (name: string) => (e: Structured) => e.role === "TreeItem" && e.label === name;

function inside(
  frame: { x: number; y: number; w: number; h: number },
  rect: { x: number; y: number; width: number; height: number },
) {
  return frame.x >= rect.x && frame.y >= rect.y && frame.x + frame.w <= rect.x + rect.width &&
    frame.y + frame.h <= rect.y + rect.height;
}

function keyCell(
  name: string,
  addressing: "element" | "pixel",
  delivery: "background" | "foreground",
): WinCell {
  return {
    id: `click.${addressing}.${delivery}.regedit_key`,
    tool: "click",
    addressing,
    delivery,
    calls: async (w) => {
      const view = await observe(w, w.regedit.pid, w.regedit.windowId);
      const where = addressing === "element"
        ? { element_token: view.token(key(name)) }
        : view.pixel(key(name));
      return [{ tool: "click", args: { ...regeditTarget(w), ...where, delivery_mode: delivery } }];
    },
    oracle: reading(
      `regedit's status bar shows ...\\${name}`,
      (w) => w.regeditStatus(),
      (_b, a) => a.endsWith(`\\${name}`),
    ),
    expect: { kind: "delivered" },
  };
}

/** The stock-app cells. */
export function stockAppCells(): WinCell[] {
  return [
    {
      id: "get_window_state.none.n/a.regedit",
      tool: "get_window_state",
      addressing: "none",
      delivery: "n/a",
      calls: (w) => [{ tool: "get_window_state", args: regeditTarget(w) }],
      oracle: agrees(
        "one TreeItem per key the tree shows (TVGN_NEXTVISIBLE), inside the tree; one ListItem per value row",
        (w) => ({
          keys: w.regeditVisibleKeys(),
          rows: w.regeditValueRows(),
          tree: windowRect(w.regedit.control("SysTreeView32"))!,
        }),
        (result, state) => {
          const s = state as {
            keys: number;
            rows: number;
            tree: { x: number; y: number; width: number; height: number };
          };
          const elements = result.elements as Structured[];
          const keys = elements.filter((e) => e.role === "TreeItem");
          const rows = elements.filter((e) => e.role === "ListItem");
          if (keys.length !== s.keys) return `${keys.length} TreeItems, the tree shows ${s.keys}`;
          if (rows.length !== s.rows) return `${rows.length} ListItems, the list has ${s.rows}`;
          for (const name of ["HKEY_CURRENT_USER", "HKEY_LOCAL_MACHINE"]) {
            if (!keys.some((e) => e.label === name)) return `no TreeItem ${name}`;
          }
          const outside = keys.find((e) => !e.frame || !inside(e.frame, s.tree));
          return outside
            ? `${outside.label} at ${JSON.stringify(outside.frame)} is outside the tree ${
              JSON.stringify(s.tree)
            }`
            : null;
        },
      ),
      expect: { kind: "observed", status: "ok" },
    },
    keyCell("HKEY_LOCAL_MACHINE", "element", "background"),
    keyCell("HKEY_CURRENT_USER", "pixel", "background"),
    keyCell("HKEY_USERS", "element", "foreground"),
    {
      id: "double_click.element.background.regedit_expand",
      tool: "double_click",
      addressing: "element",
      delivery: "background",
      calls: async (w) => {
        const view = await observe(w, w.regedit.pid, w.regedit.windowId);
        const token = view.token(key("HKEY_CURRENT_USER"));
        return [{
          tool: "double_click",
          args: { ...regeditTarget(w), element_token: token, delivery_mode: "background" },
        }];
      },
      oracle: reading(
        "HKEY_CURRENT_USER expands: the tree shows more keys (TVGN_NEXTVISIBLE)",
        (w) => w.regeditVisibleKeys(),
        (b, a) => a > b,
      ),
      expect: { kind: "delivered" },
    },
    {
      id: "click.element.background.regedit_hidden_key",
      tool: "click",
      addressing: "element",
      delivery: "background",
      // HKEY_CURRENT_USER (second under the root) open, so that its subkey AppEvents is shown.
      prepare: (w) => w.regeditExpand(1, true),
      calls: async (w) => {
        const view = await observe(w, w.regedit.pid, w.regedit.windowId);
        const token = view.token(key("AppEvents"));
        // The branch closes after the observation: the token names an item no longer shown.
        w.regeditExpand(1, false);
        return [{
          tool: "click",
          args: { ...regeditTarget(w), element_token: token, delivery_mode: "background" },
        }];
      },
      oracle: reading("regedit's status bar unchanged", (w) => w.regeditStatus(), (b, a) => a === b),
      expect: { kind: "refused", code: "stale_element_token" },
    },
    {
      id: "click.element.background.winecfg_tab",
      needs: ["winecfg"],
      tool: "click",
      addressing: "element",
      delivery: "background",
      calls: async (w) => {
        const view = await observe(w, w.winecfg.pid, w.winecfg.windowId);
        const tab = view.token((e) => e.role === "TabItem" && e.label === "Libraries");
        return [{
          tool: "click",
          args: { ...winecfgTarget(w), element_token: tab, delivery_mode: "background" },
        }];
      },
      oracle: reading(
        "winecfg shows its Libraries page (TCM_GETCURSEL 0 -> 1, the page's DLL override controls)",
        (w) => w.winecfgPage(),
        (b, a) => b.tab === 0 && a.tab === 1 && a.texts.some((t) => /override/i.test(t)),
      ),
      expect: { kind: "delivered" },
    },
  ];
}
