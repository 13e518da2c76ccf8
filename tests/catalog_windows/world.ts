/**
 * The Windows catalog's desktop under Wine: notepad (the target) with its Find dialog,
 * regedit and winecfg (stock apps whose tree view, list view and tab control draw their
 * own items), and a second notepad as the sentinel, which holds the foreground during
 * background cells so that any keystroke or click that leaks shows up in its own text.
 * Every reading here goes through Win32 from the test process, never through the driver.
 *
 * @module
 */
import { CONTROL_MSG, SWP, user32, WM } from "../../ffi/windows/user32.ts";
import { bringToForeground, foregroundWindow } from "../../src/backends/windows/input/foreground.ts";
import { InputSettler, SendInputKeyboard } from "../../src/backends/windows/input/global_input.ts";
import {
  className,
  descendantWindows,
  hwnd,
  isAppWindow,
  sendMessage,
  sendMessageBuffer,
  setControlText,
  topLevelWindows,
  windowOwner,
  windowRect,
  windowTitle,
} from "../../src/backends/windows/win32/hwnd.ts";
import type { TestDriver } from "../_helpers/in_process_driver.ts";
import { findOnPath, shellOpen } from "../../src/backends/windows/launch.ts";
import {
  isConsoleWindow,
  readConsole,
  textKeys,
  writeConsoleKeys,
} from "../../src/backends/windows/win32/console.ts";
import { checkOf, StockApp, textOf, waitFor, windowsOf } from "../windows/_win_apps.ts";

/** EM_GETFIRSTVISIBLELINE and EM_SCROLLCARET. */
const EM_GETFIRSTVISIBLELINE = 0x00ce;
const EM_SCROLLCARET = 0x00b7;
/** Where the target and the sentinel sit (the screen is 1280x1024). */
export const NOTEPAD_FRAME = { x: 40, y: 40, width: 640, height: 480 };
export const SENTINEL_FRAME = { x: 760, y: 560, width: 480, height: 400 };
export const SENTINEL_TEXT = "sentinel: nothing may type here";
export const REGEDIT_FRAME = { x: 40, y: 560, width: 680, height: 420 };
export const WINECFG_AT = { x: 730, y: 230, width: 0, height: 0 };
export const CONSOLE_AT = { x: 60, y: 620, width: 0, height: 0 };
export const WINFORMS_AT = { x: 730, y: 230, width: 0, height: 0 };
/** Messages the test sends itself (value-only parameters, no cross-process memory). */
const TVM_EXPAND = 0x1102,
  TVE_COLLAPSE = 1,
  TVE_EXPAND = 2,
  TVM_GETNEXTITEM = 0x110a,
  TVM_SELECTITEM = 0x110b;
const TVGN_ROOT = 0, TVGN_NEXT = 1, TVGN_CHILD = 4, TVGN_NEXTVISIBLE = 6, TVGN_CARET = 9;
const LVM_GETITEMCOUNT = 0x1004, TCM_GETCURSEL = 0x130b, PSM_SETCURSEL = 0x0465;

/** What the desktop looks like to the user, read independently. */
export interface DesktopReading {
  foreground: number;
  cursor: { x: number; y: number };
  sentinelText: string;
}

/** The catalog's apps and Win32 readers. */
export class WinWorld implements AsyncDisposable {
  constructor(
    readonly driver: TestDriver,
    readonly notepad: StockApp,
    readonly sentinel: StockApp,
    readonly regedit: StockApp,
    readonly winecfgApp: StockApp | null,
    readonly console: ConsoleApp,
    readonly winforms: StockApp | null,
  ) {}

  /** winecfg (Wine only). */
  get winecfg(): StockApp {
    if (!this.winecfgApp) throw new Error("this desktop has no winecfg");
    return this.winecfgApp;
  }

  /** True when the app a cell needs runs here (winecfg under Wine, the WinForms fixture where it was built). */
  has(app: "winecfg" | "winforms"): boolean {
    return app === "winecfg" ? this.winecfgApp !== null : this.winforms !== null;
  }

  /** Starts both notepads, places them, and opens the Find dialog. */
  static async start(driver: TestDriver): Promise<WinWorld> {
    const notepad = await StockApp.start("notepad.exe", [], "Notepad");
    const sentinel = await StockApp.start("notepad.exe", [], "Notepad");
    const regedit = await StockApp.start("regedit.exe", [], "RegEdit_RegEdit");
    // winecfg exists only under Wine; the WinForms fixture only where the workflow built it.
    const winecfg = findOnPath("winecfg.exe") ? await StockApp.start("winecfg.exe", [], "#32770") : null;
    const fixture = Deno.env.get("CUA_WINFORMS_FIXTURE");
    const winforms = fixture ? await StockApp.start(fixture, []) : null;
    const console = await ConsoleApp.start();
    const world = new WinWorld(driver, notepad, sentinel, regedit, winecfg, console, winforms);
    place(console.windowId, CONSOLE_AT, true);
    if (winforms) place(winforms.windowId, WINFORMS_AT, true);
    place(regedit.windowId, REGEDIT_FRAME);
    if (winecfg) place(winecfg.windowId, WINECFG_AT, true);
    place(notepad.windowId, NOTEPAD_FRAME);
    place(sentinel.windowId, SENTINEL_FRAME);
    setControlText(world.sentinelEdit, SENTINEL_TEXT);
    await world.openFind();
    return world;
  }

  get edit(): number {
    return this.notepad.control("Edit");
  }
  get sentinelEdit(): number {
    return this.sentinel.control("Edit");
  }

  /** The Find dialog (opened by openFind). */
  find = 0;

  /** Opens notepad's Find dialog with Ctrl+F typed into notepad (SendInput, test-owned). */
  async openFind(): Promise<number> {
    const dialog = () => windowsOf(this.notepad.pid).find((w) => className(w) === "#32770" && isAppWindow(w));
    const existing = dialog();
    if (existing) return this.find = existing;
    await bringToForeground(this.notepad.windowId);
    const settler = new InputSettler();
    await new SendInputKeyboard(settler).press("f", ["ctrl"]);
    await settler.settle();
    this.find = await waitFor("the Find dialog", dialog);
    place(this.find, { x: 700, y: 60, width: 0, height: 0 }, true);
    return this.find;
  }

  /** Closes the Find dialog and waits until it is gone. */
  async closeFind(): Promise<void> {
    const find = this.find;
    sendMessage(find, WM.CLOSE, 0, 0);
    await waitFor("the Find dialog to close", () => !user32.symbols.IsWindow(hwnd(find)));
  }

  /** A Find-dialog control by class and caption. */
  findControl(cls: string, text?: RegExp): number {
    return this.notepad.control(cls, text, this.find);
  }

  /** regedit's status bar (WM_GETTEXT), which shows the selected key's path. */
  regeditStatus(): string {
    return textOf(this.regedit.control("msctls_statusbar32"));
  }

  /** regedit's tree items in expanded branches, counted with TVGN_NEXTVISIBLE. */
  regeditVisibleKeys(): number {
    const tree = this.regedit.control("SysTreeView32");
    let count = 0;
    for (
      let item = sendMessage(tree, TVM_GETNEXTITEM, TVGN_ROOT, 0) ?? 0n;
      item !== 0n;
      item = sendMessage(tree, TVM_GETNEXTITEM, TVGN_NEXTVISIBLE, item) ?? 0n
    ) count++;
    return count;
  }

  /** Expands or collapses one of regedit's top-level keys by name's position under the root (test-owned). */
  regeditExpand(position: number, expand: boolean): void {
    const tree = this.regedit.control("SysTreeView32");
    let key = sendMessage(
      tree,
      TVM_GETNEXTITEM,
      TVGN_CHILD,
      sendMessage(tree, TVM_GETNEXTITEM, TVGN_ROOT, 0) ?? 0n,
    );
    for (let i = 0; i < position && key; i++) key = sendMessage(tree, TVM_GETNEXTITEM, TVGN_NEXT, key ?? 0n);
    sendMessage(tree, TVM_EXPAND, expand ? TVE_EXPAND : TVE_COLLAPSE, key ?? 0n);
  }

  /** The rows of regedit's value list (LVM_GETITEMCOUNT). */
  regeditValueRows(): number {
    return Number(sendMessage(this.regedit.control("SysListView32"), LVM_GETITEMCOUNT, 0, 0) ?? -1n);
  }

  /** winecfg's selected tab (TCM_GETCURSEL) and the texts of its visible page's controls. */
  winecfgPage(): { tab: number; texts: string[] } {
    const tabs = this.winecfg.control("SysTabControl32");
    const page = descendantWindows(this.winecfg.windowId).find((w) =>
      className(w) === "#32770" && user32.symbols.IsWindowVisible(hwnd(w)) !== 0
    );
    return {
      tab: Number(sendMessage(tabs, TCM_GETCURSEL, 0, 0) ?? -1n),
      texts: page ? descendantWindows(page).map((w) => windowTitle(w)).filter((t) => t) : [],
    };
  }

  /** winecfg's Windows-version combo box (the one combo of its Applications page). */
  get winecfgCombo(): number {
    const combo = descendantWindows(this.winecfg.windowId).find((w) =>
      className(w) === "ComboBox" && user32.symbols.IsWindowVisible(hwnd(w)) !== 0
    );
    if (!combo) throw new Error("winecfg shows no combo box");
    return combo;
  }

  /** The combo's own answers: its options (CB_GETLBTEXT), the chosen one (CB_GETCURSEL), whether it is open. */
  combo(): { options: string[]; selected: number; dropped: boolean } {
    const combo = this.winecfgCombo;
    const count = Number(sendMessage(combo, CONTROL_MSG.CB_GETCOUNT, 0, 0) ?? 0n);
    const options: string[] = [];
    for (let i = 0; i < count; i++) {
      const length = Number(sendMessage(combo, CONTROL_MSG.CB_GETLBTEXTLEN, i, 0) ?? 0n);
      const buffer = new Uint16Array(length + 1);
      sendMessageBuffer(combo, CONTROL_MSG.CB_GETLBTEXT, i, buffer);
      options.push(String.fromCharCode(...buffer.subarray(0, length)));
    }
    return {
      options,
      selected: Number(BigInt.asIntN(32, sendMessage(combo, CONTROL_MSG.CB_GETCURSEL, 0, 0) ?? -1n)),
      dropped: (sendMessage(combo, CONTROL_MSG.CB_GETDROPPEDSTATE, 0, 0) ?? 0n) !== 0n,
    };
  }

  /** The option a choosing cell picks: the first one other than the chosen one. */
  otherOption(): string {
    const { options, selected } = this.combo();
    return options.find((_, i) => i !== selected && i !== this.#comboStart) ?? options[0];
  }

  /** The combo's choice when the catalog started (restored after a choosing cell). */
  #comboStart = -2;

  /** Closes the combo's list (test-owned, CB_SHOWDROPDOWN). */
  closeCombo(): void {
    if (this.combo().dropped) sendMessage(this.winecfgCombo, CONTROL_MSG.CB_SHOWDROPDOWN, 0, 0);
  }

  /** Puts the combo back on its first choice (test-owned CB_SETCURSEL; winecfg applies nothing until Apply). */
  restoreCombo(): void {
    this.closeCombo();
    if (this.#comboStart >= -1) sendMessage(this.winecfgCombo, CONTROL_MSG.CB_SETCURSEL, this.#comboStart, 0);
  }

  /** Makes the sentinel the foreground window (the user's own window in background cells). */
  async frontSentinel(): Promise<void> {
    if (foregroundWindow() !== this.sentinel.windowId) await bringToForeground(this.sentinel.windowId);
  }

  /** Puts the target back to a known state: empty edit, check boxes off, "Down" selected. */
  async reset(): Promise<void> {
    place(this.notepad.windowId, NOTEPAD_FRAME);
    place(this.sentinel.windowId, SENTINEL_FRAME);
    setControlText(this.edit, "");
    setControlText(this.sentinelEdit, SENTINEL_TEXT);
    if (!user32.symbols.IsWindow(hwnd(this.find))) await this.openFind();
    const box = this.findControl("Button", /case/i);
    if (checkOf(box) !== 0) sendMessage(box, CONTROL_MSG.BM_SETCHECK, 0, 0);
    sendMessage(this.findControl("Button", /^&?Up$/i), CONTROL_MSG.BM_SETCHECK, 0, 0);
    sendMessage(this.findControl("Button", /^&?Down$/i), CONTROL_MSG.BM_SETCHECK, 1, 0);
    setControlText(this.findControl("Edit"), "");
    place(this.regedit.windowId, REGEDIT_FRAME);
    // regedit's root item selected and its keys collapsed, winecfg on its first page (test-owned).
    const tree = this.regedit.control("SysTreeView32");
    const root = sendMessage(tree, TVM_GETNEXTITEM, TVGN_ROOT, 0) ?? 0n;
    sendMessage(tree, TVM_SELECTITEM, TVGN_CARET, root);
    for (
      let key = sendMessage(tree, TVM_GETNEXTITEM, TVGN_CHILD, root) ?? 0n;
      key !== 0n;
      key = sendMessage(tree, TVM_GETNEXTITEM, TVGN_NEXT, key) ?? 0n
    ) sendMessage(tree, TVM_EXPAND, TVE_COLLAPSE, key);
    sendMessage(this.winecfg.windowId, PSM_SETCURSEL, 0, 0);
    if (this.#comboStart === -2) this.#comboStart = this.combo().selected;
    // The console sits at the bottom of the z-order, under the apps whose pixels other cells click.
    user32.symbols.SetWindowPos(
      hwnd(this.console.windowId),
      Deno.UnsafePointer.create(1n), // HWND_BOTTOM
      0,
      0,
      0,
      0,
      SWP.NOMOVE | SWP.NOSIZE | SWP.NOACTIVATE,
    );
    this.closeCombo();
    await this.frontSentinel();
  }

  /** The independent desktop reading. */
  readDesktop(): DesktopReading {
    const point = new Int32Array(2);
    user32.symbols.GetCursorPos(point);
    return {
      foreground: foregroundWindow(),
      cursor: { x: point[0], y: point[1] },
      sentinelText: textOf(this.sentinelEdit),
    };
  }

  /** notepad's first visible line (EM_GETFIRSTVISIBLELINE). */
  firstVisibleLine(): number {
    return Number(sendMessage(this.edit, EM_GETFIRSTVISIBLELINE, 0, 0) ?? -1n);
  }

  /** The selection of notepad's edit (EM_GETSEL), as [start, end]. */
  selection(): [number, number] {
    const packed = Number(sendMessage(this.edit, CONTROL_MSG.EM_GETSEL, 0, 0) ?? 0n);
    return [packed & 0xffff, (packed >>> 16) & 0xffff];
  }

  /** Sets notepad's text and puts the caret at its end, scrolled into view when asked (test-owned preparation). */
  setText(text: string, scroll = false): void {
    setControlText(this.edit, text);
    sendMessage(this.edit, CONTROL_MSG.EM_SETSEL, text.length, text.length);
    if (scroll) sendMessage(this.edit, EM_SCROLLCARET, 0, 0);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (this.find && user32.symbols.IsWindow(hwnd(this.find))) sendMessage(this.find, WM.CLOSE, 0, 0);
    await this.notepad[Symbol.asyncDispose]();
    await this.sentinel[Symbol.asyncDispose]();
    await this.regedit[Symbol.asyncDispose]();
    await this.winecfgApp?.[Symbol.asyncDispose]();
    await this.winforms?.[Symbol.asyncDispose]();
    await this.console[Symbol.asyncDispose]();
  }
}

/**
 * A console window running cmd, started through the shell (so it gets a console of its own) by
 * the test. `pid` owns the window (conhost under Wine, cmd on Windows); `cmd` is cmd's process.
 */
export class ConsoleApp implements AsyncDisposable {
  constructor(readonly cmd: number, readonly windowId: number, readonly pid: number) {}

  static async start(): Promise<ConsoleApp> {
    const before = new Set(topLevelWindows());
    const cmd = shellOpen(`${Deno.env.get("SystemRoot") ?? "C:\\windows"}\\system32\\cmd.exe`);
    if (cmd === null) throw new Error("the shell started no cmd process");
    const windowId = await waitFor(
      "cmd's console window",
      () => topLevelWindows().find((w) => !before.has(w) && isConsoleWindow(w) && isAppWindow(w)),
    );
    await waitFor("cmd's prompt", () => />$/.test(readConsole(windowId)?.text ?? ""));
    return new ConsoleApp(cmd, windowId, windowOwner(windowId).pid);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    writeConsoleKeys(this.windowId, textKeys("exit\n"));
    await waitFor("the console to close", () => !user32.symbols.IsWindow(hwnd(this.windowId))).catch(
      () => {},
    );
  }
}

/** SetWindowPos; a zero size keeps the size. */
export function place(
  windowId: number,
  frame: { x: number; y: number; width: number; height: number },
  keepSize = false,
): void {
  user32.symbols.SetWindowPos(
    hwnd(windowId),
    null,
    frame.x,
    frame.y,
    frame.width,
    frame.height,
    SWP.NOZORDER | SWP.NOACTIVATE | (keepSize ? SWP.NOSIZE : 0),
  );
}

/** The window's rectangle as the test reads it. */
export function rectOf(windowId: number) {
  return windowRect(windowId);
}
