/**
 * oleacc: Microsoft Active Accessibility (MSAA). `AccessibleObjectFromWindow` per HWND
 * and the `IAccessible` interface: the tree source where UI Automation's tree walk is
 * unavailable (legacy apps, Wine).
 *
 * @module
 */
import { openLibrary } from "../_open.ts";
import { fromWide, wideBuffer } from "./_win.ts";
import { ComObject, guid, pointerFrom, unwrapHRESULT, variantI4, type VariantValue } from "./com.ts";

/** oleacc symbols used by the driver. */
export const OLEACC_SYMBOLS = {
  // HRESULT AccessibleObjectFromWindow(HWND hwnd, DWORD dwId, REFIID riid, void **ppvObject)
  AccessibleObjectFromWindow: { parameters: ["pointer", "u32", "buffer", "buffer"], result: "i32" },
  // HRESULT AccessibleChildren(IAccessible *paccContainer, LONG iChildStart, LONG cChildren,
  //   VARIANT *rgvarChildren, LONG *pcObtained)
  AccessibleChildren: { parameters: ["pointer", "i32", "i32", "buffer", "buffer"], result: "i32" },
  // UINT GetRoleTextW(DWORD lRole, LPWSTR lpszRole, UINT cchRoleMax)
  GetRoleTextW: { parameters: ["u32", "buffer", "u32"], result: "u32" },
  // HRESULT WindowFromAccessibleObject(IAccessible *unnamedParam1, HWND *phwnd)
  WindowFromAccessibleObject: { parameters: ["pointer", "buffer"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** oleacc.dll, opened on first use. */
export const oleacc = openLibrary("oleacc", ["oleacc.dll"], OLEACC_SYMBOLS);

/** IID_IAccessible. */
export const IID_IAccessible = guid("618736E0-3C3D-11CF-810C-00AA00389B71");
/** Object ids for AccessibleObjectFromWindow. */
export const OBJID = { WINDOW: 0, CLIENT: -4 >>> 0 } as const;
/** CHILDID_SELF. */
export const CHILDID_SELF = 0;

/** MSAA roles (ROLE_SYSTEM_*). */
export const ROLE_SYSTEM = {
  TITLEBAR: 1,
  MENUBAR: 2,
  SCROLLBAR: 3,
  GRIP: 4,
  SOUND: 5,
  CURSOR: 6,
  CARET: 7,
  ALERT: 8,
  WINDOW: 9,
  CLIENT: 10,
  MENUPOPUP: 11,
  MENUITEM: 12,
  TOOLTIP: 13,
  APPLICATION: 14,
  DOCUMENT: 15,
  PANE: 16,
  CHART: 17,
  DIALOG: 18,
  BORDER: 19,
  GROUPING: 20,
  SEPARATOR: 21,
  TOOLBAR: 22,
  STATUSBAR: 23,
  TABLE: 24,
  COLUMNHEADER: 25,
  ROWHEADER: 26,
  COLUMN: 27,
  ROW: 28,
  CELL: 29,
  LINK: 30,
  HELPBALLOON: 31,
  CHARACTER: 32,
  LIST: 33,
  LISTITEM: 34,
  OUTLINE: 35,
  OUTLINEITEM: 36,
  PAGETAB: 37,
  PROPERTYPAGE: 38,
  INDICATOR: 39,
  GRAPHIC: 40,
  STATICTEXT: 41,
  TEXT: 42,
  PUSHBUTTON: 43,
  CHECKBUTTON: 44,
  RADIOBUTTON: 45,
  COMBOBOX: 46,
  DROPLIST: 47,
  PROGRESSBAR: 48,
  DIAL: 49,
  HOTKEYFIELD: 50,
  SLIDER: 51,
  SPINBUTTON: 52,
  DIAGRAM: 53,
  ANIMATION: 54,
  EQUATION: 55,
  BUTTONDROPDOWN: 56,
  BUTTONMENU: 57,
  BUTTONDROPDOWNGRID: 58,
  WHITESPACE: 59,
  PAGETABLIST: 60,
  CLOCK: 61,
  SPLITBUTTON: 62,
  IPADDRESS: 63,
  OUTLINEBUTTON: 64,
} as const;

/** MSAA state bits (STATE_SYSTEM_*). */
export const STATE_SYSTEM = {
  UNAVAILABLE: 0x1,
  SELECTED: 0x2,
  FOCUSED: 0x4,
  PRESSED: 0x8,
  CHECKED: 0x10,
  MIXED: 0x20,
  READONLY: 0x40,
  HOTTRACKED: 0x80,
  DEFAULT: 0x100,
  EXPANDED: 0x200,
  COLLAPSED: 0x400,
  BUSY: 0x800,
  FLOATING: 0x1000,
  MARQUEED: 0x2000,
  ANIMATED: 0x4000,
  INVISIBLE: 0x8000,
  OFFSCREEN: 0x10000,
  SIZEABLE: 0x20000,
  MOVEABLE: 0x40000,
  SELFVOICING: 0x80000,
  FOCUSABLE: 0x100000,
  SELECTABLE: 0x200000,
  LINKED: 0x400000,
  TRAVERSED: 0x800000,
  MULTISELECTABLE: 0x1000000,
  EXTSELECTABLE: 0x2000000,
  PROTECTED: 0x20000000,
  HASPOPUP: 0x40000000,
} as const;

/**
 * IAccessible (IDispatch slots 3–6 first). Every property takes a child VARIANT;
 * `child` 0 is the object itself.
 */
export class Accessible extends ComObject {
  /** get_accChildCount (slot 8). */
  childCount(): number {
    return this.outI32("get_accChildCount", 8);
  }
  /** get_accName (slot 10). */
  name(child = CHILDID_SELF): string {
    return this.outBstr("get_accName", 10, ["buffer"], [variantI4(child)]);
  }
  /** get_accValue (slot 11). */
  value(child = CHILDID_SELF): string {
    return this.outBstr("get_accValue", 11, ["buffer"], [variantI4(child)]);
  }
  /** get_accDescription (slot 12). */
  description(child = CHILDID_SELF): string {
    return this.outBstr("get_accDescription", 12, ["buffer"], [variantI4(child)]);
  }
  /** get_accRole (slot 13): a ROLE_SYSTEM number, or a custom role string. */
  role(child = CHILDID_SELF): VariantValue {
    return this.outVariant("get_accRole", 13, ["buffer"], [variantI4(child)]);
  }
  /** get_accState (slot 14): STATE_SYSTEM bits. */
  state(child = CHILDID_SELF): number {
    const value = this.outVariant("get_accState", 14, ["buffer"], [variantI4(child)]);
    return value.vt === "number" ? value.value : 0;
  }
  /** get_accKeyboardShortcut (slot 17). */
  keyboardShortcut(child = CHILDID_SELF): string {
    return this.outBstr("get_accKeyboardShortcut", 17, ["buffer"], [variantI4(child)]);
  }
  /** get_accDefaultAction (slot 20). */
  defaultAction(child = CHILDID_SELF): string {
    return this.outBstr("get_accDefaultAction", 20, ["buffer"], [variantI4(child)]);
  }
  /** accSelect (slot 21). */
  select(flags: number, child = CHILDID_SELF): void {
    this.hr("accSelect", 21, ["i32", "buffer"], [flags, variantI4(child)]);
  }
  /** accLocation (slot 22): screen left, top, width, height. */
  location(child = CHILDID_SELF): { x: number; y: number; width: number; height: number } {
    const cells = new Int32Array(4);
    this.hr("accLocation", 22, ["buffer", "buffer", "buffer", "buffer", "buffer"], [
      cells.subarray(0, 1),
      cells.subarray(1, 2),
      cells.subarray(2, 3),
      cells.subarray(3, 4),
      variantI4(child),
    ]);
    return { x: cells[0], y: cells[1], width: cells[2], height: cells[3] };
  }
  /** accDoDefaultAction (slot 25). */
  doDefaultAction(child = CHILDID_SELF): void {
    this.hr("accDoDefaultAction", 25, ["buffer"], [variantI4(child)]);
  }
  /** put_accValue (slot 27). */
  setValue(bstr: Deno.PointerValue, child = CHILDID_SELF): void {
    this.hr("put_accValue", 27, ["buffer", "pointer"], [variantI4(child), bstr]);
  }
}

/**
 * The IAccessible of a window's object (`OBJID.CLIENT` for its contents).
 *
 * @returns a +1 reference the caller disposes
 * @throws {NativeError} when the window has no accessible object
 */
export function accessibleFromWindow(hwnd: Deno.PointerValue, objectId: number): Accessible {
  const cell = new BigUint64Array(1);
  unwrapHRESULT(
    "AccessibleObjectFromWindow",
    oleacc.symbols.AccessibleObjectFromWindow(hwnd, objectId >>> 0, IID_IAccessible, cell),
  );
  const pointer = pointerFrom(cell);
  if (!pointer) throw new TypeError("AccessibleObjectFromWindow returned no object");
  return new Accessible(pointer);
}

/** The localized text of an MSAA role ("push button"). */
export function roleText(role: number): string {
  const buffer = wideBuffer(128);
  const length = oleacc.symbols.GetRoleTextW(role, buffer, buffer.length);
  return fromWide(buffer, length);
}
