/**
 * The before/after sample of a Windows app for an action's verdict: each visible window of the
 * process and each of its controls, fingerprinted by the state the control itself answers to its
 * own messages (its text, check, selection, current item, drop-down state, scroll position, the
 * tab or tree item selected, a console's screen buffer), plus the states (and a UI Automation element's value) of the items,
 * menu items and UI Automation elements aimed at. Focus is not
 * sampled: a click that only moved the focus (or redrew a focus rectangle) proves nothing about
 * the intended change, and the back end confirms only from this state (`confirmsFromStateOnly`).
 *
 * @module
 */
import { CONTROL_MSG, user32, WS, WS_SCROLL } from "../../../../ffi/windows/user32.ts";
import type { AppStateSample, ElementState } from "../../../ports/accessibility.ts";
import {
  className,
  controlText,
  descendantWindows,
  hwnd,
  sendMessage,
  style,
  topLevelWindows,
  windowOwner,
} from "../win32/hwnd.ts";
import { isConsoleWindow, readConsole } from "../win32/console.ts";
import type { WindowsRef } from "./refs.ts";
import { scrollInfo } from "./scroll_bars.ts";

const TVGN_FIRSTVISIBLE = 5, TVGN_CARET = 9, LVNI_SELECTED = 2;
/** Longest text kept of one control in a fingerprint (the rest is summarized by its length). */
const TEXT_CAP = 4096;

type Send = (windowId: number, message: number, wParam: number, lParam: number) => string;

/** The messages that read a control's own state, by window class. */
function classState(cls: string, windowId: number, send: Send): string[] {
  if (/^Button$/i.test(cls)) return [send(windowId, CONTROL_MSG.BM_GETCHECK, 0, 0)];
  if (/^(Edit|RichEdit)/i.test(cls)) {
    return [
      send(windowId, CONTROL_MSG.EM_GETSEL, 0, 0),
      send(windowId, CONTROL_MSG.EM_GETFIRSTVISIBLELINE, 0, 0),
    ];
  }
  if (/^ComboBox/i.test(cls)) {
    return [
      send(windowId, CONTROL_MSG.CB_GETCURSEL, 0, 0),
      send(windowId, CONTROL_MSG.CB_GETDROPPEDSTATE, 0, 0),
    ];
  }
  if (/^(ListBox|ComboLBox)$/i.test(cls)) {
    return [send(windowId, CONTROL_MSG.LB_GETCURSEL, 0, 0), send(windowId, CONTROL_MSG.LB_GETTOPINDEX, 0, 0)];
  }
  if (/^SysTreeView32$/i.test(cls)) {
    return [
      send(windowId, CONTROL_MSG.TVM_GETNEXTITEM, TVGN_CARET, 0),
      send(windowId, CONTROL_MSG.TVM_GETNEXTITEM, TVGN_FIRSTVISIBLE, 0),
      send(windowId, CONTROL_MSG.TVM_GETCOUNT, 0, 0),
    ];
  }
  if (/^SysListView32$/i.test(cls)) {
    return [
      send(windowId, CONTROL_MSG.LVM_GETITEMCOUNT, 0, 0),
      send(windowId, CONTROL_MSG.LVM_GETNEXTITEM, -1, LVNI_SELECTED),
      send(windowId, CONTROL_MSG.LVM_GETTOPINDEX, 0, 0),
    ];
  }
  if (/^SysTabControl32$/i.test(cls)) return [send(windowId, CONTROL_MSG.TCM_GETCURSEL, 0, 0)];
  if (/^msctls_trackbar32$/i.test(cls)) return [send(windowId, CONTROL_MSG.TBM_GETPOS, 0, 0)];
  return [];
}

/** One window's fingerprint: class, visibility, enabled, text, its own state and scroll positions. */
export function windowFingerprint(windowId: number, send: Send = sendText): string {
  const cls = className(windowId);
  const text = controlText(windowId);
  const s = style(windowId);
  const scroll = [
    s & WS_SCROLL.V || /^(Edit|RichEdit)/i.test(cls) ? scrollInfo(windowId, 1)?.pos : undefined,
    s & WS_SCROLL.H ? scrollInfo(windowId, 0)?.pos : undefined,
  ];
  // A console's state is its screen buffer.
  const screen = isConsoleWindow(windowId) ? readConsole(windowId)?.text ?? null : undefined;
  return JSON.stringify([
    cls,
    ...(screen === undefined ? [] : [screen]),
    (s & WS.VISIBLE) !== 0,
    (s & WS.DISABLED) === 0,
    text === null ? null : text.length > TEXT_CAP ? `${text.slice(0, TEXT_CAP)}…${text.length}` : text,
    ...classState(cls, windowId, send),
    ...scroll,
  ]);
}

function sendText(windowId: number, message: number, wParam: number, lParam: number): string {
  const result = sendMessage(windowId, message, BigInt.asUintN(64, BigInt(wParam)), BigInt(lParam));
  return result === null ? "?" : String(result);
}

function visible(windowId: number): boolean {
  return user32.symbols.IsWindowVisible(hwnd(windowId)) !== 0;
}

/** Words for a window in summaries: its class and its text. */
function describeWindow(windowId: number): string {
  const text = (controlText(windowId) ?? "").split(/\r?\n/)[0].slice(0, 40);
  return `${className(windowId)} ${JSON.stringify(text)}`;
}

/**
 * Samples the visible windows of `pid` and their controls, and the states of `refs` that are
 * items or menu items (a control's own state is in its window's fingerprint).
 *
 * @param stateOf Reads an item's or a menu item's state (the element operations).
 */
export function sampleProcess(
  pid: number,
  refs: readonly WindowsRef[],
  stateOf: (ref: WindowsRef) => ElementState,
  textOf: (ref: WindowsRef) => string,
): AppStateSample | null {
  const tops = topLevelWindows().filter((w) => visible(w) && windowOwner(w).pid === pid);
  if (tops.length === 0) return null;
  const objects = new Map<string, string>();
  for (const top of tops) {
    // Hidden controls (the other pages of a property sheet) show nothing: one that appears counts as new.
    for (const w of [top, ...descendantWindows(top).filter(visible)]) {
      objects.set(`w${w}`, windowFingerprint(w));
    }
  }
  const details = new Map<string, string>();
  refs.forEach((ref, i) => {
    if (ref.kind !== "item" && ref.kind !== "menu" && ref.kind !== "uia") return;
    try {
      const state = stateOf(ref);
      const names = state.names.filter((name) => !/focus/i.test(name));
      details.set(`r${i}#states`, JSON.stringify([state.selected, state.checked, names]));
      if (ref.kind === "uia") details.set(`r${i}#text`, textOf(ref));
    } catch {
      details.set(`r${i}#states`, "gone");
    }
  });
  const names = new Map(refs.map((ref, i) => [`r${i}`, `${ref.role.replaceAll("_", " ")}`]));
  return {
    objects,
    focus: null,
    details,
    describe: (key) => {
      const object = key.split("#")[0];
      if (object.startsWith("w")) return describeWindow(Number(object.slice(1)));
      return names.get(object) ?? "an element";
    },
  };
}
