/**
 * Operations on one element: actions, state, geometry, text and values, for each kind
 * of handle (window controls, menu items, scroll bars, items a common control draws,
 * UI Automation elements).
 *
 * Window controls are driven by their own messages, which need neither focus nor the
 * foreground: a click is WM_LBUTTONDOWN/UP posted at the control's centre, text is
 * WM_GETTEXT/WM_SETTEXT and EM_SETSEL/EM_REPLACESEL, a slider is TBM_GETPOS/TBM_SETPOS.
 * UI Automation elements go through their patterns (real Windows only).
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";
import { wstr } from "../../../../ffi/_c.ts";
import { makeLParam } from "../../../../ffi/windows/_win.ts";
import { kernel32 } from "../../../../ffi/windows/kernel32.ts";
import type { UiaElement } from "../../../../ffi/windows/uia.ts";
import { currentPattern } from "../../../../ffi/windows/uia_patterns.ts";
import { accessibleFromWindow, OBJID, STATE_SYSTEM } from "../../../../ffi/windows/oleacc.ts";
import { CONTROL_MSG, MK, SB, user32, WM } from "../../../../ffi/windows/user32.ts";
import { handle } from "../../../../ffi/windows/_win.ts";
import { AxRole, type ElementState, type ValueRange } from "../../../ports/accessibility.ts";
import { type Rect } from "../../../ports/geometry.ts";
import { focusedControl } from "../input/posted_keyboard.ts";
import type { PostedQueue } from "../input/post.ts";
import {
  clientRect,
  controlText,
  hwnd,
  isWindow,
  rootOf,
  sendMessage,
  sendMessageBuffer,
  setControlText,
  windowOwner,
  windowRect,
} from "../win32/hwnd.ts";
import { isConsoleWindow, readConsole } from "../win32/console.ts";
import { chooseOption, comboDropped, optionNow, toggleDropDown } from "./combo_options.ts";
import { itemNow } from "./control_items.ts";
import { msaaFacts, rangeOf } from "./hwnd_tree.ts";
import { invokeMenuCommand, menuItemState } from "./menu.ts";
import {
  type HwndRef,
  type ItemRef,
  type MenuRef,
  type OptionRef,
  type ScrollRef,
  staleElement,
  type UiaRef,
  type WindowsRef,
} from "./refs.ts";
import { scrollBarNodes, scrollInfo } from "./scroll_bars.ts";
import { CLICKABLE_ROLES, TEXT_ROLES, TOGGLE_ROLES } from "./roles.ts";
import { elementState } from "./states.ts";
import { codePointOffset, utf16Index } from "./text.ts";

/** Finds the live UI Automation element of a ref, or null when its snapshot was replaced. */
export type UiaLookup = (ref: UiaRef) => UiaElement | null;

/** Element operations over window messages, menus and UIA patterns. */
export class ElementOps {
  constructor(readonly queue: PostedQueue, readonly uia: UiaLookup) {}

  #live(ref: WindowsRef): void {
    if (!isWindow(ref.hwnd)) throw staleElement(ref);
  }

  #uiaElement(ref: UiaRef): UiaElement {
    this.#live(ref);
    const element = this.uia(ref);
    if (!element) throw staleElement(ref);
    return element;
  }

  actionNames(ref: WindowsRef): string[] {
    this.#live(ref);
    if (ref.kind === "menu") return ref.command ? ["click"] : [];
    if (ref.kind === "scroll") return [];
    if (ref.kind === "hwnd") {
      return CLICKABLE_ROLES.has(ref.role) || ref.role === AxRole.ComboBox ? ["click"] : [];
    }
    if (ref.kind === "item") return this.#item(ref) ? ["click"] : [];
    if (ref.kind === "option") return this.#option(ref) ? ["click"] : [];
    const element = this.#uiaElement(ref);
    const names: string[] = [];
    for (
      const [pattern, action] of [["Invoke", "invoke"], ["Toggle", "toggle"], ["SelectionItem", "select"], [
        "ExpandCollapse",
        "expand",
      ]] as const
    ) {
      const found = tryPattern(element, pattern);
      if (found) {
        names.push(action);
        found.release();
      }
    }
    return names;
  }

  async doAction(ref: WindowsRef, action: string): Promise<boolean> {
    this.#live(ref);
    if (ref.kind === "menu") return action === "click" && invokeMenuCommand(ref);
    if (ref.kind === "scroll") return false;
    if (ref.kind === "item") {
      return action === "click" && await this.#postItemClick(ref);
    }
    if (ref.kind === "option") return action === "click" && !!this.#option(ref) && chooseOption(ref);
    if (ref.kind === "hwnd") {
      if (action !== "click" && action !== "dodefault") return false;
      if (action === "dodefault") return msaaDefaultAction(ref);
      // A combo box opens its list on its own message: a posted button press needs its focus first.
      if (ref.role === AxRole.ComboBox) return toggleDropDown(ref.hwnd);
      await this.#postClick(ref);
      return true;
    }
    const element = this.#uiaElement(ref);
    const run = (name: "Invoke" | "Toggle" | "SelectionItem" | "ExpandCollapse", act: (p: never) => void) => {
      using pattern = tryPattern(element, name);
      if (!pattern) return false;
      act(pattern as never);
      return true;
    };
    switch (action) {
      case "invoke":
        return run("Invoke", (p: { invoke(): void }) => p.invoke());
      case "toggle":
        return run("Toggle", (p: { toggle(): void }) => p.toggle());
      case "select":
        return run("SelectionItem", (p: { select(): void }) => p.select());
      case "expand":
        return run("ExpandCollapse", (p: { expand(): void }) => p.expand());
      case "collapse":
        return run("ExpandCollapse", (p: { collapse(): void }) => p.collapse());
      default:
        return false;
    }
  }

  /** A left click posted at the control's centre, waited on until the app handled it. */
  async #postClick(ref: HwndRef): Promise<void> {
    const client = clientRect(ref.hwnd);
    if (!client) throw staleElement(ref);
    const lParam = makeLParam(Math.floor(client.width / 2), Math.floor(client.height / 2));
    this.queue.post(ref.hwnd, WM.MOUSEMOVE, 0, lParam);
    this.queue.post(ref.hwnd, WM.LBUTTONDOWN, MK.LBUTTON, lParam);
    this.queue.post(ref.hwnd, WM.LBUTTONUP, 0, lParam);
    await this.queue.flush(ref.hwnd);
  }

  /** The item as it is now; a stale token when it is gone or renamed. */
  #item(ref: ItemRef): NonNullable<ReturnType<typeof itemNow>> {
    const now = itemNow(ref);
    if (!now) {
      throw new DriverError(
        "stale_element_token",
        `The ${ref.role.replaceAll("_", " ")} "${ref.name}" is no longer shown ` +
          `(deleted, renamed, or inside a collapsed branch)`,
        { hint: "call get_window_state to refresh element tokens" },
      );
    }
    return now;
  }

  /**
   * A left click posted at the item's centre (what selects a tree item, a row or a tab);
   * false, sending nothing, when the item is scrolled out of view or in a collapsed branch.
   */
  async #postItemClick(ref: ItemRef): Promise<boolean> {
    const { center } = this.#item(ref);
    if (!center) return false;
    const lParam = makeLParam(center.x, center.y);
    this.queue.post(ref.hwnd, WM.MOUSEMOVE, 0, lParam);
    this.queue.post(ref.hwnd, WM.LBUTTONDOWN, MK.LBUTTON, lParam);
    this.queue.post(ref.hwnd, WM.LBUTTONUP, 0, lParam);
    await this.queue.flush(ref.hwnd);
    return true;
  }

  /** The option as it is now; a stale token when it is gone or renamed. */
  #option(ref: OptionRef): { selected: boolean } {
    const now = optionNow(ref);
    if (!now) {
      throw new DriverError(
        "stale_element_token",
        `The combo box option "${ref.name}" is no longer at position ${ref.index}`,
        { hint: "call get_window_state to refresh element tokens" },
      );
    }
    return now;
  }

  state(ref: WindowsRef): ElementState {
    this.#live(ref);
    if (ref.kind === "item") return this.#item(ref).state;
    if (ref.kind === "option") {
      const { selected } = this.#option(ref);
      return elementState({
        role: ref.role,
        bits: selected ? STATE_SYSTEM.SELECTED : 0,
        windowEnabled: true,
        windowVisible: comboDropped(ref.hwnd),
      });
    }
    if (ref.kind === "scroll") {
      const info = scrollInfo(ref.hwnd, ref.bar);
      if (!info) throw staleElement(ref);
      return elementState({
        role: ref.role,
        bits: 0,
        windowEnabled: info.max > info.min,
        windowVisible: true,
      });
    }
    if (ref.kind === "menu") {
      const item = menuItemState(ref);
      if (!item.exists) throw staleElement(ref);
      return elementState({
        role: ref.role,
        bits: item.checked ? 0x10 : 0,
        windowEnabled: item.enabled,
        windowVisible: true,
      });
    }
    if (ref.kind === "hwnd") {
      const facts = msaaFacts(ref.hwnd);
      const toggle = TOGGLE_ROLES.has(ref.role);
      return elementState({
        role: ref.role,
        bits: facts.state,
        windowEnabled: user32.symbols.IsWindowEnabled(hwnd(ref.hwnd)) !== 0,
        windowVisible: user32.symbols.IsWindowVisible(hwnd(ref.hwnd)) !== 0,
        check: toggle ? Number(sendMessage(ref.hwnd, CONTROL_MSG.BM_GETCHECK, 0, 0) ?? 0n) : undefined,
        hasFocus: focusedControl(rootOf(ref.hwnd)) === ref.hwnd,
      });
    }
    const element = this.#uiaElement(ref);
    using toggle = tryPattern(element, "Toggle");
    const bits = (element.currentIsEnabled() ? 0 : 0x1) | (element.currentHasKeyboardFocus() ? 0x4 : 0) |
      (element.currentIsOffscreen() ? 0x10000 : 0) | (element.currentIsKeyboardFocusable() ? 0x100000 : 0);
    return elementState({ role: ref.role, bits, check: toggle ? toggle.state() : undefined });
  }

  frame(ref: WindowsRef): Rect | null {
    this.#live(ref);
    if (ref.kind === "item") return this.#item(ref).frame;
    if (ref.kind === "hwnd") {
      return user32.symbols.IsWindowVisible(hwnd(ref.hwnd)) ? windowRect(ref.hwnd) : null;
    }
    if (ref.kind === "menu" || ref.kind === "option") return null;
    if (ref.kind === "scroll") {
      return scrollBarNodes(ref.hwnd, 0, -1).find((n) => (n.ref as ScrollRef).bar === ref.bar)?.frame ?? null;
    }
    const r = this.#uiaElement(ref).currentBoundingRectangle();
    return r.right > r.left
      ? { x: r.left, y: r.top, width: r.right - r.left, height: r.bottom - r.top }
      : null;
  }

  text(ref: WindowsRef): string {
    this.#live(ref);
    if (ref.kind === "hwnd" && ref.role === AxRole.Terminal && isConsoleWindow(ref.hwnd)) {
      const screen = readConsole(ref.hwnd);
      if (screen === null) throw hung(ref);
      return screen.text;
    }
    if (ref.kind === "hwnd") {
      const text = controlText(ref.hwnd);
      if (text === null) throw hung(ref);
      return text;
    }
    if (ref.kind === "menu" || ref.kind === "scroll") return "";
    if (ref.kind === "item") return this.#item(ref) && ref.name;
    if (ref.kind === "option") return this.#option(ref) && ref.name;
    const element = this.#uiaElement(ref);
    using value = tryPattern(element, "Value");
    if (value) return value.value();
    using textPattern = tryPattern(element, "Text");
    if (textPattern) {
      using range = textPattern.documentRange();
      return range.text();
    }
    return element.currentName();
  }

  caretOffset(ref: WindowsRef): number {
    this.#live(ref);
    if (ref.kind !== "hwnd" || !TEXT_ROLES.has(ref.role)) return -1;
    const selection = sendMessage(ref.hwnd, CONTROL_MSG.EM_GETSEL, 0, 0);
    const text = controlText(ref.hwnd);
    if (selection === null || text === null || text.length > 0xffff) return -1;
    return codePointOffset(text, Number(selection & 0xffffn));
  }

  insertText(ref: WindowsRef, offset: number, text: string): boolean {
    this.#live(ref);
    if (ref.kind !== "hwnd" || !TEXT_ROLES.has(ref.role)) return false;
    const current = controlText(ref.hwnd);
    if (current === null) throw hung(ref);
    const at = utf16Index(current, offset);
    if (sendMessage(ref.hwnd, CONTROL_MSG.EM_SETSEL, at, at) === null) throw hung(ref);
    return sendMessageBuffer(ref.hwnd, CONTROL_MSG.EM_REPLACESEL, 1, wstr(controlLineEnds(text))) !== null;
  }

  setText(ref: WindowsRef, text: string): boolean {
    this.#live(ref);
    if (ref.kind === "hwnd") {
      return TEXT_ROLES.has(ref.role) && setControlText(ref.hwnd, controlLineEnds(text));
    }
    if (ref.kind === "menu" || ref.kind === "scroll" || ref.kind === "item" || ref.kind === "option") {
      return false;
    }
    using value = tryPattern(this.#uiaElement(ref), "Value");
    if (!value) return false;
    value.setValue(text);
    return true;
  }

  value(ref: WindowsRef): ValueRange {
    this.#live(ref);
    if (ref.kind === "hwnd") {
      const range = rangeOf(ref.hwnd, ref.role);
      if (!range) throw noValue(ref);
      return { ...range, step: 1 };
    }
    if (ref.kind === "scroll") {
      const info = scrollInfo(ref.hwnd, ref.bar);
      if (!info) throw staleElement(ref);
      return {
        current: info.pos,
        min: info.min,
        max: Math.max(info.min, info.max - Math.max(info.page, 1) + 1),
        step: 1,
      };
    }
    if (ref.kind === "menu" || ref.kind === "item" || ref.kind === "option") throw noValue(ref);
    using range = tryPattern(this.#uiaElement(ref), "RangeValue");
    if (!range) throw noValue(ref);
    return { current: range.value(), min: range.minimum(), max: range.maximum(), step: range.smallChange() };
  }

  setValue(ref: WindowsRef, value: number): void {
    this.#live(ref);
    if (ref.kind === "hwnd" && ref.role === AxRole.Slider) {
      sendMessage(ref.hwnd, CONTROL_MSG.TBM_SETPOS, 1, Math.round(value));
      // Tell the owner the thumb moved, as dragging it would (TB_THUMBPOSITION, then TB_ENDTRACK).
      const parent = user32.symbols.GetParent(hwnd(ref.hwnd));
      const vertical = (Number(user32.symbols.GetWindowLongPtrW(hwnd(ref.hwnd), -16)) & 0x2) !== 0;
      const message = vertical ? WM.VSCROLL : WM.HSCROLL;
      if (parent) {
        const id = Number(Deno.UnsafePointer.value(parent));
        sendMessage(id, message, (Math.round(value) << 16) | 4, BigInt(ref.hwnd));
        sendMessage(id, message, 8, BigInt(ref.hwnd));
      }
      return;
    }
    if (ref.kind === "scroll") {
      // What dragging the thumb there sends: SB_THUMBPOSITION with the position, then SB_ENDSCROLL.
      const message = ref.bar === SB.VERT ? WM.VSCROLL : WM.HSCROLL;
      sendMessage(ref.hwnd, message, ((Math.round(value) & 0xffff) << 16) | SB.THUMBPOSITION, 0);
      sendMessage(ref.hwnd, message, SB.ENDSCROLL, 0);
      return;
    }
    if (ref.kind !== "uia") throw noValue(ref);
    using range = tryPattern(this.#uiaElement(ref), "RangeValue");
    if (!range) throw noValue(ref);
    range.setValue(value);
  }

  grabFocus(ref: WindowsRef): boolean {
    this.#live(ref);
    if (ref.kind === "menu" || ref.kind === "scroll" || ref.kind === "item" || ref.kind === "option") {
      return false;
    }
    if (ref.kind === "uia") {
      this.#uiaElement(ref).setFocus();
      return true;
    }
    // SetFocus works on another thread's window only while our input is attached to it.
    const ours = kernel32.symbols.GetCurrentThreadId();
    const theirs = windowOwner(ref.hwnd).threadId;
    if (!theirs || !user32.symbols.AttachThreadInput(ours, theirs, 1)) return false;
    try {
      user32.symbols.SetFocus(hwnd(ref.hwnd));
    } finally {
      user32.symbols.AttachThreadInput(ours, theirs, 0);
    }
    return focusedControl(rootOf(ref.hwnd)) === ref.hwnd;
  }
}

function tryPattern<
  N extends "Invoke" | "Toggle" | "SelectionItem" | "ExpandCollapse" | "Value" | "Text" | "RangeValue",
>(
  element: UiaElement,
  name: N,
): ReturnType<typeof currentPattern<N>> {
  try {
    return currentPattern(element, name);
  } catch {
    return null;
  }
}

/**
 * Text with its line ends as edit controls take them (CR LF: a lone LF would stay in the text
 * as a character and be saved so; a rich edit turns CR LF into its paragraph mark).
 */
export function controlLineEnds(text: string): string {
  return text.replace(/\r\n|\r|\n/g, "\r\n");
}

function msaaDefaultAction(ref: HwndRef): boolean {
  try {
    using accessible = accessibleFromWindow(handle(ref.hwnd), OBJID.CLIENT);
    accessible.doDefaultAction();
    return true;
  } catch {
    return false;
  }
}

function hung(ref: WindowsRef): DriverError {
  return new DriverError(
    "timeout",
    `Window ${ref.hwnd} did not answer within 2 s (the app is busy or hung)`,
    {
      hint: "wait for the app, then retry",
    },
  );
}

function noValue(ref: WindowsRef): DriverError {
  return new DriverError("invalid_arguments", `The ${ref.role.replaceAll("_", " ")} has no numeric value`, {
    field: "value",
    hint: "set_value takes a number only for sliders, spin buttons and progress bars",
  });
}

export type { MenuRef };
