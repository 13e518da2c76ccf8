/**
 * A window's own scroll bars (WS_VSCROLL / WS_HSCROLL, drawn in its non-client area,
 * not child windows) as accessibility nodes: their frame beside the client area and
 * their position from GetScrollInfo, so a scroll can be read back.
 *
 * @module
 */
import { SB, SCROLLINFO, user32, WS_SCROLL } from "../../../../ffi/windows/user32.ts";
import { AxInterface, type AxNode, AxRole } from "../../../ports/accessibility.ts";
import { type Rect } from "../../../ports/geometry.ts";
import { className, clientRect, hwnd, sendMessage, style } from "../win32/hwnd.ts";
import type { ScrollRef } from "./refs.ts";

/** EM_GETFIRSTVISIBLELINE and EM_GETLINECOUNT of edit controls. */
const EM_GETFIRSTVISIBLELINE = 0x00ce, EM_GETLINECOUNT = 0x00ba;

/**
 * GetScrollInfo of one bar: position, range and page; null when the window has none.
 * Wine answers GetScrollInfo only inside the owning process: there a multiline edit's
 * vertical position comes from its own messages (first visible line of its line count).
 */
export function scrollInfo(
  windowId: number,
  bar: 0 | 1,
): { pos: number; min: number; max: number; page: number } | null {
  const info = new Uint8Array(SCROLLINFO.size);
  const view = new DataView(info.buffer);
  view.setUint32(0, SCROLLINFO.size, true);
  view.setUint32(4, SCROLLINFO.SIF_ALL, true);
  if (user32.symbols.GetScrollInfo(hwnd(windowId), bar, info)) {
    return {
      min: view.getInt32(8, true),
      max: view.getInt32(12, true),
      page: view.getUint32(16, true),
      pos: view.getInt32(20, true),
    };
  }
  if (bar !== SB.VERT || !/^(Edit|RichEdit)/i.test(className(windowId))) return null;
  const first = sendMessage(windowId, EM_GETFIRSTVISIBLELINE, 0, 0);
  const lines = sendMessage(windowId, EM_GETLINECOUNT, 0, 0);
  if (first === null || lines === null) return null;
  return { pos: Number(first), min: 0, max: Math.max(0, Number(lines) - 1), page: 1 };
}

/** The scroll bars `windowId` draws itself, as nodes under `parent`. */
export function scrollBarNodes(windowId: number, depth: number, parent: number): AxNode[] {
  const bits = style(windowId);
  const client = clientRect(windowId);
  if (!client) return [];
  const nodes: AxNode[] = [];
  const thickness = user32.symbols.GetSystemMetrics(2); // SM_CXVSCROLL
  for (const bar of [SB.VERT, SB.HORZ] as const) {
    if (!(bits & (bar === SB.VERT ? WS_SCROLL.V : WS_SCROLL.H))) continue;
    const info = scrollInfo(windowId, bar);
    if (!info) continue;
    const frame: Rect = bar === SB.VERT
      ? { x: client.x + client.width, y: client.y, width: thickness, height: client.height }
      : { x: client.x, y: client.y + client.height, width: client.width, height: thickness };
    const ref: ScrollRef = { kind: "scroll", hwnd: windowId, bar, role: AxRole.ScrollBar };
    nodes.push({
      role: AxRole.ScrollBar,
      platformRole: "ScrollBar",
      name: bar === SB.VERT ? "Vertical" : "Horizontal",
      description: "",
      value: String(info.pos),
      depth,
      parent,
      enabled: info.max > info.min,
      focused: false,
      selected: null,
      showing: true,
      editable: false,
      focusable: false,
      actions: [],
      interfaces: [AxInterface.Component, AxInterface.Value],
      frame,
      ref,
    });
  }
  return nodes;
}
