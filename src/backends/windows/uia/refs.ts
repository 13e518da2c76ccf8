/**
 * The opaque handles an {@linkcode AxNode} carries on Windows. They are plain data
 * (compared with JSON by the core): a window control by HWND, a menu command by menu
 * position and command id, or a UI Automation element by a key into the owner's
 * element table.
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";
import type { AxRole } from "../../../ports/accessibility.ts";

/** A standard control (its own HWND), acted on with window messages and MSAA. */
export interface HwndRef {
  kind: "hwnd";
  hwnd: number;
  role: AxRole;
}

/** A menu item of a window's menu bar (or one of its submenus). */
export interface MenuRef {
  kind: "menu";
  /** The window that owns the menu bar (WM_COMMAND goes there). */
  hwnd: number;
  /** Positions from the menu bar down to the item. */
  path: number[];
  /** The command id, 0 for an item that opens a submenu. */
  command: number;
  role: AxRole;
}

/** One of the scroll bars a window draws itself (WS_VSCROLL/WS_HSCROLL). */
export interface ScrollRef {
  kind: "scroll";
  hwnd: number;
  /** SB_HORZ (0) or SB_VERT (1). */
  bar: 0 | 1;
  role: AxRole;
}

/**
 * An item a common control draws itself (a tree-view item, a list-view row, a tab),
 * read and acted on through the control's messages (control_items.ts). `name` is the
 * item's text when the snapshot was taken: a token whose item was renamed or replaced
 * is stale.
 */
export interface ItemRef {
  kind: "item";
  hwnd: number;
  control: "tree" | "list" | "tab";
  /** The HTREEITEM of a tree item, else the item's index. */
  item: number;
  name: string;
  role: AxRole;
}

/** An option of a Win32 combo box (combo_options.ts), by index and its text when the snapshot was taken. */
export interface OptionRef {
  kind: "option";
  /** The combo box. */
  hwnd: number;
  index: number;
  name: string;
  role: AxRole;
}

/** A UI Automation element, held by the back end until the next snapshot of its window. */
export interface UiaRef {
  kind: "uia";
  hwnd: number;
  key: string;
  role: AxRole;
}

/** Every kind of element handle. */
export type WindowsRef = HwndRef | MenuRef | ScrollRef | ItemRef | OptionRef | UiaRef;

/**
 * Checks that `ref` is one of ours.
 *
 * @throws {DriverError} `invalid_element_token` otherwise
 */
export function asRef(ref: unknown): WindowsRef {
  const candidate = ref as Partial<WindowsRef> | null;
  if (
    candidate && typeof candidate === "object" && typeof candidate.hwnd === "number" &&
    ["hwnd", "menu", "scroll", "item", "option", "uia"].includes(candidate.kind as string)
  ) {
    return candidate as WindowsRef;
  }
  throw new DriverError(
    "invalid_element_token",
    "The element handle does not belong to the Windows back end",
    {
      hint: "call get_window_state for fresh element tokens",
    },
  );
}

/** The error for an element whose window or object is gone. */
export function staleElement(ref: WindowsRef): DriverError {
  return new DriverError(
    "stale_element_token",
    `The ${ref.role.replaceAll("_", " ")} is gone (window ${ref.hwnd} no longer exists)`,
    {
      hint: "call get_window_state to refresh element tokens",
    },
  );
}
