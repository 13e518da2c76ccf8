/**
 * A window's menu bar as accessibility nodes, read with user32's menu functions
 * (they work across processes): top-level items with their on-screen rectangles,
 * and the items of each submenu below them (not showing until opened). A command
 * item is invoked in the background by posting WM_COMMAND with its id, which is what
 * choosing it does.
 *
 * @module
 */
import { fromWide, handle, readRect, rectBuffer, wideBuffer } from "../../../../ffi/windows/_win.ts";
import { MF, user32, WM_COMMAND } from "../../../../ffi/windows/user32.ts";
import { AxInterface, type AxNode, AxRole } from "../../../ports/accessibility.ts";
import { type Rect } from "../../../ports/geometry.ts";
import { hwnd } from "../win32/hwnd.ts";
import type { MenuRef } from "./refs.ts";
import { stripMnemonic } from "./text.ts";

/** The item at `path` of the window's menu bar: its menu and position, or null. */
function resolve(
  windowId: number,
  path: readonly number[],
): { menu: Deno.PointerObject; position: number } | null {
  let menu = user32.symbols.GetMenu(hwnd(windowId));
  for (let i = 0; i < path.length - 1 && menu; i++) menu = user32.symbols.GetSubMenu(menu, path[i]);
  return menu ? { menu, position: path[path.length - 1] } : null;
}

function itemText(menu: Deno.PointerObject, position: number): string {
  const buffer = wideBuffer(256);
  const length = user32.symbols.GetMenuStringW(menu, position, buffer, buffer.length, MF.BYPOSITION);
  return stripMnemonic(fromWide(buffer, length).split("\t")[0]);
}

/**
 * Appends the menu bar of `windowId` (if it has one) to `nodes` under `parent`.
 *
 * @returns how many nodes were appended
 */
export function appendMenuBar(
  windowId: number,
  nodes: AxNode[],
  parent: number,
  depth: number,
  budget: number,
): number {
  const bar = user32.symbols.GetMenu(hwnd(windowId));
  if (!bar || user32.symbols.GetMenuItemCount(bar) <= 0) return 0;
  const start = nodes.length;
  nodes.push(
    menuNode({
      role: AxRole.MenuBar,
      name: "",
      depth,
      parent,
      frame: null,
      showing: true,
      enabled: true,
      actions: [],
      ref: null,
    }),
  );
  const walk = (
    menu: Deno.PointerObject,
    path: number[],
    parentIndex: number,
    level: number,
    showing: boolean,
  ) => {
    const count = user32.symbols.GetMenuItemCount(menu);
    for (let position = 0; position < count && nodes.length - start < budget; position++) {
      const state = user32.symbols.GetMenuState(menu, position, MF.BYPOSITION);
      if (state === 0xffffffff || (state & MF.SEPARATOR)) continue;
      const sub = user32.symbols.GetSubMenu(menu, position);
      const command = sub ? 0 : user32.symbols.GetMenuItemID(menu, position);
      const itemPath = [...path, position];
      const ref: MenuRef = {
        kind: "menu",
        hwnd: windowId,
        path: itemPath,
        command: command === 0xffffffff ? 0 : command,
        role: AxRole.MenuItem,
      };
      let frame: Rect | null = null;
      if (showing) {
        const rect = rectBuffer();
        if (user32.symbols.GetMenuItemRect(hwnd(windowId), menu, position, rect)) {
          const r = readRect(rect);
          frame = { x: r.left, y: r.top, width: r.right - r.left, height: r.bottom - r.top };
        }
      }
      const index = nodes.length;
      nodes.push(menuNode({
        role: sub ? AxRole.Menu : AxRole.MenuItem,
        name: itemText(menu, position),
        depth: level,
        parent: parentIndex,
        frame,
        showing,
        enabled: (state & (MF.GRAYED | MF.DISABLED)) === 0,
        checked: (state & MF.CHECKED) !== 0,
        actions: ref.command ? ["click"] : [],
        ref: { ...ref, role: sub ? AxRole.Menu : AxRole.MenuItem },
      }));
      if (sub) walk(sub, itemPath, index, level + 1, false);
    }
  };
  walk(bar, [], start, depth + 1, true);
  nodes[start] = {
    ...nodes[start],
    ref: { kind: "menu", hwnd: windowId, path: [], command: 0, role: AxRole.MenuBar },
  };
  return nodes.length - start;
}

function menuNode(fields: {
  role: AxRole;
  name: string;
  depth: number;
  parent: number;
  frame: Rect | null;
  showing: boolean;
  enabled: boolean;
  checked?: boolean;
  actions: string[];
  ref: MenuRef | null;
}): AxNode {
  return {
    role: fields.role,
    platformRole: { [AxRole.MenuBar]: "MenuBar", [AxRole.Menu]: "MenuItem" }[fields.role as string] ??
      "MenuItem",
    name: fields.name,
    description: "",
    value: null,
    depth: fields.depth,
    parent: fields.parent,
    enabled: fields.enabled,
    focused: false,
    selected: fields.checked ?? null,
    showing: fields.showing,
    editable: false,
    focusable: false,
    actions: fields.actions,
    interfaces: fields.frame ? [AxInterface.Action, AxInterface.Component] : [AxInterface.Action],
    frame: fields.frame,
    ref: fields.ref,
  };
}

/** The current state of a menu item: enabled, checked, and its rectangle when showing. */
export function menuItemState(ref: MenuRef): { exists: boolean; enabled: boolean; checked: boolean } {
  const found = resolve(ref.hwnd, ref.path);
  if (!found) return { exists: false, enabled: false, checked: false };
  const state = user32.symbols.GetMenuState(found.menu, found.position, MF.BYPOSITION);
  if (state === 0xffffffff) return { exists: false, enabled: false, checked: false };
  return {
    exists: true,
    enabled: (state & (MF.GRAYED | MF.DISABLED)) === 0,
    checked: (state & MF.CHECKED) !== 0,
  };
}

/** Posts WM_COMMAND for a command item, as choosing it in the menu does. */
export function invokeMenuCommand(ref: MenuRef): boolean {
  if (!ref.command) return false;
  return user32.symbols.PostMessageW(handle(ref.hwnd), WM_COMMAND, BigInt(ref.command & 0xffff), 0n) !== 0;
}
