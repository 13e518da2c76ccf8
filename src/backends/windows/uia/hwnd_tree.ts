/**
 * The accessibility tree of a window built from its child windows: one node per
 * visible control (GetWindow child/sibling order, which is the dialog's tab order),
 * described by MSAA (`AccessibleObjectFromWindow(child, OBJID_CLIENT)`: role, name,
 * state, value) with the control's own messages filling in (WM_GETTEXT, BM_GETCHECK,
 * trackbar positions) and its class where MSAA does not answer, plus the menu bar and
 * the items tree views, list views and tab controls draw themselves (control_items.ts) and
 * the options of combo boxes (combo_options.ts); a console window gets one terminal node
 * holding its screen buffer.
 *
 * This is the tree source where UI Automation's tree walk is unavailable: legacy apps
 * on real Windows, and every app under Wine (whose UIA cache requests and tree walkers
 * return E_NOTIMPL).
 *
 * @module
 */
import { handle, handleValue } from "../../../../ffi/windows/_win.ts";
import { accessibleFromWindow, OBJID } from "../../../../ffi/windows/oleacc.ts";
import { CONTROL_MSG, GW, user32 } from "../../../../ffi/windows/user32.ts";
import {
  AxInterface,
  type AxNode,
  AxRole,
  type AxSnapshotOptions,
  type AxTree,
} from "../../../ports/accessibility.ts";
import { type Rect } from "../../../ports/geometry.ts";
import { focusedControl } from "../input/posted_keyboard.ts";
import {
  className,
  controlText,
  hwnd,
  sendMessage,
  style,
  visibleFrame,
  windowRect,
  windowTitle,
} from "../win32/hwnd.ts";
import { isConsoleWindow, readConsole } from "../win32/console.ts";
import { comboOptionNodes } from "./combo_options.ts";
import { controlItemNodes, itemControlOf } from "./control_items.ts";
import { appendMenuBar } from "./menu.ts";
import { scrollBarNodes } from "./scroll_bars.ts";
import type { HwndRef } from "./refs.ts";
import { classRole, CLICKABLE_ROLES, msaaRole, TEXT_ROLES, TOGGLE_ROLES, type WindowsRole } from "./roles.ts";
import { elementState } from "./states.ts";
import { stripMnemonic } from "./text.ts";

/** Longest value text put in a snapshot (the whole text stays readable through text()). */
const MAX_VALUE = 4_000;

/** What MSAA said about one window's client object; null fields where it did not answer. */
export interface MsaaFacts {
  role: number | null;
  name: string | null;
  value: string | null;
  state: number;
  defaultAction: string | null;
}

/** Reads one window's MSAA client object; every field null when MSAA has none. */
export function msaaFacts(windowId: number): MsaaFacts {
  const facts: MsaaFacts = { role: null, name: null, value: null, state: 0, defaultAction: null };
  let accessible;
  try {
    accessible = accessibleFromWindow(handle(windowId), OBJID.CLIENT);
  } catch {
    return facts;
  }
  try {
    const attempt = <T>(read: () => T): T | null => {
      try {
        return read();
      } catch {
        return null;
      }
    };
    const role = attempt(() => accessible.role());
    facts.role = role?.vt === "number" ? role.value : null;
    facts.name = attempt(() => accessible.name());
    facts.value = attempt(() => accessible.value());
    facts.state = attempt(() => accessible.state()) ?? 0;
    facts.defaultAction = attempt(() => accessible.defaultAction());
    return facts;
  } finally {
    accessible.release();
  }
}

const GENERIC = new Set<AxRole>([AxRole.Group, AxRole.Other, AxRole.Window, AxRole.Pane]);

/** The role of a control: MSAA's when it is specific, else from its class and style, else a pane. */
export function controlRole(windowId: number, msaaRoleNumber: number | null): WindowsRole {
  const fromClass = classRole(className(windowId), style(windowId));
  const fromMsaa = msaaRoleNumber === null ? null : msaaRole(msaaRoleNumber);
  if (fromMsaa && !GENERIC.has(fromMsaa.role)) return fromMsaa;
  return fromClass ?? fromMsaa ?? { role: AxRole.Group, platformRole: "Pane" };
}

/** A slider's or progress bar's position and range, through its messages. */
export function rangeOf(
  windowId: number,
  role: AxRole,
): { current: number; min: number; max: number } | null {
  if (role === AxRole.Slider) {
    const current = sendMessage(windowId, CONTROL_MSG.TBM_GETPOS, 0, 0);
    const min = sendMessage(windowId, CONTROL_MSG.TBM_GETRANGEMIN, 0, 0);
    const max = sendMessage(windowId, CONTROL_MSG.TBM_GETRANGEMAX, 0, 0);
    if (current === null || min === null || max === null) return null;
    return {
      current: Number(BigInt.asIntN(32, current)),
      min: Number(BigInt.asIntN(32, min)),
      max: Number(BigInt.asIntN(32, max)),
    };
  }
  return null;
}

function describeControl(
  windowId: number,
  depth: number,
  parent: number,
  label: string,
  focus: number,
): AxNode {
  const msaa = msaaFacts(windowId);
  const { role, platformRole } = controlRole(windowId, msaa.role);
  const text = TEXT_ROLES.has(role) || role === AxRole.Label || CLICKABLE_ROLES.has(role)
    ? controlText(windowId) ?? ""
    : "";
  const toggle = TOGGLE_ROLES.has(role);
  const check = toggle ? Number(sendMessage(windowId, CONTROL_MSG.BM_GETCHECK, 0, 0) ?? 0n) : undefined;
  const state = elementState({
    role,
    bits: msaa.state,
    windowEnabled: user32.symbols.IsWindowEnabled(hwnd(windowId)) !== 0,
    windowVisible: true,
    check,
    hasFocus: focus === windowId,
  });
  const isText = TEXT_ROLES.has(role);
  const range = rangeOf(windowId, role);
  const name = isText
    ? stripMnemonic(msaa.name || label)
    : stripMnemonic(msaa.name || text || windowTitle(windowId));
  const value = isText ? text.slice(0, MAX_VALUE) : range ? String(range.current) : (msaa.value || null);
  const interfaces: AxInterface[] = [AxInterface.Component];
  if (isText) interfaces.push(AxInterface.Text, ...(state.editable ? [AxInterface.EditableText] : []));
  if (range) interfaces.push(AxInterface.Value);
  // A combo box's click opens (or closes) its list.
  const actions = CLICKABLE_ROLES.has(role) || role === AxRole.ComboBox ? ["click"] : [];
  if (actions.length) interfaces.push(AxInterface.Action);
  const ref: HwndRef = { kind: "hwnd", hwnd: windowId, role };
  return {
    role,
    platformRole,
    name,
    description: "",
    value,
    depth,
    parent,
    enabled: state.enabled,
    focused: state.focused,
    selected: toggle ? state.checked : null,
    showing: state.showing,
    editable: state.editable,
    focusable: state.focusable,
    actions,
    interfaces,
    frame: windowRect(windowId),
    ref,
  };
}

/**
 * The text area of a console window: its screen buffer (the last rows as the value; all of it
 * through text()), focused whenever the window is, since a console's input has nowhere else to go.
 */
function consoleNode(windowId: number, frame: Rect | null): AxNode {
  const screen = readConsole(windowId);
  const ref: HwndRef = { kind: "hwnd", hwnd: windowId, role: AxRole.Terminal };
  return {
    role: AxRole.Terminal,
    platformRole: "Console",
    name: windowTitle(windowId),
    description: "",
    value: screen ? screen.text.slice(-MAX_VALUE) : null,
    depth: 1,
    parent: 0,
    enabled: true,
    focused: true,
    selected: null,
    showing: true,
    editable: true,
    focusable: true,
    actions: [],
    interfaces: [AxInterface.Component, AxInterface.Text],
    frame,
    ref,
  };
}

/** Builds the tree of `windowId` from its child windows and menu bar. */
export function hwndTree(windowId: number, options: AxSnapshotOptions): AxTree {
  const nodes: AxNode[] = [];
  const rootRole = classRole(className(windowId), style(windowId))?.role === AxRole.Dialog
    ? AxRole.Dialog
    : AxRole.Window;
  const frame: Rect | null = visibleFrame(windowId);
  nodes.push({
    role: rootRole,
    platformRole: "Window",
    name: windowTitle(windowId),
    description: "",
    value: null,
    depth: 0,
    parent: -1,
    enabled: user32.symbols.IsWindowEnabled(hwnd(windowId)) !== 0,
    focused: false,
    selected: null,
    showing: true,
    editable: false,
    focusable: true,
    actions: [],
    interfaces: [AxInterface.Component],
    frame,
    ref: { kind: "hwnd", hwnd: windowId, role: rootRole } satisfies HwndRef,
  });
  let truncated = false;
  if (options.maxDepth >= 1) {
    appendMenuBar(windowId, nodes, 0, 1, Math.max(0, options.maxNodes - nodes.length));
  }
  if (options.maxDepth >= 1 && isConsoleWindow(windowId)) nodes.push(consoleNode(windowId, frame));
  const focus = focusedControl(windowId);
  const walk = (parentWindow: number, parentIndex: number, depth: number) => {
    let label = "";
    for (
      let child = handleValue(user32.symbols.GetWindow(hwnd(parentWindow), GW.CHILD));
      child !== 0;
      child = handleValue(user32.symbols.GetWindow(hwnd(child), GW.HWNDNEXT))
    ) {
      if (!user32.symbols.IsWindowVisible(hwnd(child))) continue;
      if (nodes.length >= options.maxNodes || depth > options.maxDepth) {
        truncated = true;
        return;
      }
      const index = nodes.length;
      const node = describeControl(child, depth, parentIndex, label, focus);
      nodes.push(node);
      if (depth + 1 <= options.maxDepth) {
        nodes.push(...scrollBarNodes(child, depth + 1, index));
        if (node.role === AxRole.ComboBox) {
          nodes.push(...comboOptionNodes(child, depth + 1, index, options.maxNodes - nodes.length));
        }
        const items = itemControlOf(child);
        if (items) {
          const found = controlItemNodes(child, items, {
            depth: depth + 1,
            maxDepth: options.maxDepth,
            parent: index,
            firstIndex: nodes.length,
            limit: options.maxNodes - nodes.length,
          });
          nodes.push(...found.nodes);
          truncated ||= found.truncated;
        }
      }
      label = node.role === AxRole.Label ? node.name : "";
      walk(child, index, depth + 1);
    }
  };
  walk(windowId, 0, 1);
  return { nodes, truncated, error: null };
}
