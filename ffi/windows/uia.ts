/**
 * UI Automation client interfaces (UIAutomationClient.h) over the COM base: the
 * automation object, elements, element arrays, conditions and cache requests. Slot
 * numbers count IUnknown's three methods first; they were checked against Wine's
 * `include/uiautomationclient.idl`.
 *
 * @module
 */
import { pointByValue, type Win32Rect } from "./_win.ts";
import { ComObject, guid, pointerFrom, unwrapHRESULT, variantI4, type VariantValue } from "./com.ts";
import { CLSCTX, ole32 } from "./ole32.ts";

/** CLSID_CUIAutomation. */
export const CLSID_CUIAutomation = guid("FF48DBA4-60EF-4201-AA87-54103EEF594E");
/** IID_IUIAutomation. */
export const IID_IUIAutomation = guid("30CBE57D-D9D0-452A-AB13-7AC5AC4825EE");

/** TreeScope values. */
export const TreeScope = {
  Element: 1,
  Children: 2,
  Descendants: 4,
  Subtree: 7,
  Parent: 8,
  Ancestors: 16,
} as const;
/** AutomationElementMode values. */
export const AutomationElementMode = { None: 0, Full: 1 } as const;

/** Property ids (UIA_*PropertyId). */
export const PropertyId = {
  RuntimeId: 30000,
  BoundingRectangle: 30001,
  ProcessId: 30002,
  ControlType: 30003,
  LocalizedControlType: 30004,
  Name: 30005,
  AcceleratorKey: 30006,
  AccessKey: 30007,
  HasKeyboardFocus: 30008,
  IsKeyboardFocusable: 30009,
  IsEnabled: 30010,
  AutomationId: 30011,
  ClassName: 30012,
  HelpText: 30013,
  IsPassword: 30019,
  NativeWindowHandle: 30020,
  IsOffscreen: 30022,
  FrameworkId: 30024,
  IsExpandCollapsePatternAvailable: 30028,
  IsInvokePatternAvailable: 30031,
  IsRangeValuePatternAvailable: 30033,
  IsScrollPatternAvailable: 30034,
  IsSelectionItemPatternAvailable: 30036,
  IsTextPatternAvailable: 30040,
  IsTogglePatternAvailable: 30041,
  IsValuePatternAvailable: 30043,
  ValueValue: 30045,
  ValueIsReadOnly: 30046,
  RangeValueValue: 30047,
  RangeValueMinimum: 30049,
  RangeValueMaximum: 30050,
  RangeValueSmallChange: 30052,
  ExpandCollapseState: 30070,
  SelectionItemIsSelected: 30079,
  ToggleState: 30086,
  IsLegacyIAccessiblePatternAvailable: 30090,
  LegacyIAccessibleRole: 30095,
  LegacyIAccessibleState: 30096,
  LegacyIAccessibleDefaultAction: 30100,
} as const;

/** Pattern ids (UIA_*PatternId). */
export const PatternId = {
  Invoke: 10000,
  Selection: 10001,
  Value: 10002,
  RangeValue: 10003,
  Scroll: 10004,
  ExpandCollapse: 10005,
  Window: 10009,
  SelectionItem: 10010,
  Text: 10014,
  Toggle: 10015,
  ScrollItem: 10017,
  LegacyIAccessible: 10018,
} as const;

/** Control type ids (UIA_*ControlTypeId). */
export const ControlType = {
  Button: 50000,
  Calendar: 50001,
  CheckBox: 50002,
  ComboBox: 50003,
  Edit: 50004,
  Hyperlink: 50005,
  Image: 50006,
  ListItem: 50007,
  List: 50008,
  Menu: 50009,
  MenuBar: 50010,
  MenuItem: 50011,
  ProgressBar: 50012,
  RadioButton: 50013,
  ScrollBar: 50014,
  Slider: 50015,
  Spinner: 50016,
  StatusBar: 50017,
  Tab: 50018,
  TabItem: 50019,
  Text: 50020,
  ToolBar: 50021,
  ToolTip: 50022,
  Tree: 50023,
  TreeItem: 50024,
  Custom: 50025,
  Group: 50026,
  Thumb: 50027,
  DataGrid: 50028,
  DataItem: 50029,
  Document: 50030,
  SplitButton: 50031,
  Window: 50032,
  Pane: 50033,
  Header: 50034,
  HeaderItem: 50035,
  Table: 50036,
  TitleBar: 50037,
  Separator: 50038,
  SemanticZoom: 50039,
  AppBar: 50040,
} as const;

/** An IUIAutomationCondition (no methods of its own that the driver calls). */
export class UiaCondition extends ComObject {}

/** IUIAutomationCacheRequest. */
export class UiaCacheRequest extends ComObject {
  /** AddProperty (slot 3). */
  addProperty(propertyId: number): void {
    this.hr("AddProperty", 3, ["i32"], [propertyId]);
  }
  /** AddPattern (slot 4). */
  addPattern(patternId: number): void {
    this.hr("AddPattern", 4, ["i32"], [patternId]);
  }
  /** put_TreeScope (slot 7). */
  setTreeScope(scope: number): void {
    this.hr("put_TreeScope", 7, ["i32"], [scope]);
  }
  /** put_TreeFilter (slot 9). */
  setTreeFilter(condition: UiaCondition): void {
    this.hr("put_TreeFilter", 9, ["pointer"], [condition.pointer]);
  }
  /** put_AutomationElementMode (slot 11). */
  setElementMode(mode: number): void {
    this.hr("put_AutomationElementMode", 11, ["i32"], [mode]);
  }
}

/** IUIAutomationElementArray. */
export class UiaElementArray extends ComObject {
  /** get_Length (slot 3). */
  get length(): number {
    return this.outI32("get_Length", 3);
  }
  /** GetElement (slot 4): a +1 reference. */
  element(index: number): UiaElement {
    const pointer = this.outPointer("GetElement", 4, ["i32"], [index]);
    if (!pointer) throw new TypeError(`IUIAutomationElementArray has no element ${index}`);
    return new UiaElement(pointer);
  }
  /** Every element, each a +1 reference the caller disposes. */
  elements(): UiaElement[] {
    const out: UiaElement[] = [];
    const length = this.length;
    for (let i = 0; i < length; i++) out.push(this.element(i));
    return out;
  }
}

/** IUIAutomationElement. Current* read the live element; Cached* read what a cache request fetched. */
export class UiaElement extends ComObject {
  /** SetFocus (slot 3). */
  setFocus(): void {
    this.hr("SetFocus", 3);
  }
  /** FindAll (slot 6). */
  findAll(scope: number, condition: UiaCondition): UiaElementArray | null {
    const pointer = this.outPointer("FindAll", 6, ["i32", "pointer"], [scope, condition.pointer]);
    return pointer ? new UiaElementArray(pointer) : null;
  }
  /** FindAllBuildCache (slot 8): one cross-process call for every match and its cached properties. */
  findAllBuildCache(
    scope: number,
    condition: UiaCondition,
    request: UiaCacheRequest,
  ): UiaElementArray | null {
    const pointer = this.outPointer("FindAllBuildCache", 8, ["i32", "pointer", "pointer"], [
      scope,
      condition.pointer,
      request.pointer,
    ]);
    return pointer ? new UiaElementArray(pointer) : null;
  }
  /** BuildUpdatedCache (slot 9). */
  buildUpdatedCache(request: UiaCacheRequest): UiaElement | null {
    const pointer = this.outPointer("BuildUpdatedCache", 9, ["pointer"], [request.pointer]);
    return pointer ? new UiaElement(pointer) : null;
  }
  /** GetCurrentPropertyValue (slot 10). */
  currentProperty(propertyId: number): VariantValue {
    return this.outVariant("GetCurrentPropertyValue", 10, ["i32"], [propertyId]);
  }
  /** GetCachedPropertyValue (slot 12). */
  cachedProperty(propertyId: number): VariantValue {
    return this.outVariant("GetCachedPropertyValue", 12, ["i32"], [propertyId]);
  }
  /** GetCurrentPatternAs (slot 14): a +1 pattern reference, or null when unsupported. */
  currentPatternAs(patternId: number, iid: Uint8Array<ArrayBuffer>): Deno.PointerObject | null {
    return this.outPointer("GetCurrentPatternAs", 14, ["i32", "buffer"], [patternId, iid]);
  }
  /** GetCachedParent (slot 18). */
  cachedParent(): UiaElement | null {
    const pointer = this.outPointer("GetCachedParent", 18);
    return pointer ? new UiaElement(pointer) : null;
  }
  /** GetCachedChildren (slot 19): null when the element has no cached children. */
  cachedChildren(): UiaElementArray | null {
    const pointer = this.outPointer("GetCachedChildren", 19);
    return pointer ? new UiaElementArray(pointer) : null;
  }
  /** get_CurrentProcessId (slot 20). */
  currentProcessId(): number {
    return this.outI32("get_CurrentProcessId", 20);
  }
  /** get_CurrentControlType (slot 21). */
  currentControlType(): number {
    return this.outI32("get_CurrentControlType", 21);
  }
  /** get_CurrentName (slot 23). */
  currentName(): string {
    return this.outBstr("get_CurrentName", 23);
  }
  /** get_CurrentHasKeyboardFocus (slot 26). */
  currentHasKeyboardFocus(): boolean {
    return this.outI32("get_CurrentHasKeyboardFocus", 26) !== 0;
  }
  /** get_CurrentIsKeyboardFocusable (slot 27). */
  currentIsKeyboardFocusable(): boolean {
    return this.outI32("get_CurrentIsKeyboardFocusable", 27) !== 0;
  }
  /** get_CurrentIsEnabled (slot 28). */
  currentIsEnabled(): boolean {
    return this.outI32("get_CurrentIsEnabled", 28) !== 0;
  }
  /** get_CurrentAutomationId (slot 29). */
  currentAutomationId(): string {
    return this.outBstr("get_CurrentAutomationId", 29);
  }
  /** get_CurrentClassName (slot 30). */
  currentClassName(): string {
    return this.outBstr("get_CurrentClassName", 30);
  }
  /** get_CurrentNativeWindowHandle (slot 36). */
  currentNativeWindowHandle(): number {
    const cell = new BigUint64Array(1);
    this.hr("get_CurrentNativeWindowHandle", 36, ["buffer"], [cell]);
    return Number(cell[0]);
  }
  /** get_CurrentIsOffscreen (slot 38). */
  currentIsOffscreen(): boolean {
    return this.outI32("get_CurrentIsOffscreen", 38) !== 0;
  }
  /** get_CurrentFrameworkId (slot 40). */
  currentFrameworkId(): string {
    return this.outBstr("get_CurrentFrameworkId", 40);
  }
  /** get_CurrentBoundingRectangle (slot 43), screen pixels. */
  currentBoundingRectangle(): Win32Rect {
    const rect = new Int32Array(4);
    this.hr("get_CurrentBoundingRectangle", 43, ["buffer"], [rect]);
    return { left: rect[0], top: rect[1], right: rect[2], bottom: rect[3] };
  }
  /** get_CachedControlType (slot 53). */
  cachedControlType(): number {
    return this.outI32("get_CachedControlType", 53);
  }
  /** get_CachedName (slot 55). */
  cachedName(): string {
    return this.outBstr("get_CachedName", 55);
  }
  /** get_CachedBoundingRectangle (slot 75). */
  cachedBoundingRectangle(): Win32Rect {
    const rect = new Int32Array(4);
    this.hr("get_CachedBoundingRectangle", 75, ["buffer"], [rect]);
    return { left: rect[0], top: rect[1], right: rect[2], bottom: rect[3] };
  }
  /** GetClickablePoint (slot 84): null when the element has none. */
  clickablePoint(): { x: number; y: number } | null {
    const point = new Int32Array(2);
    const got = new Int32Array(1);
    this.hr("GetClickablePoint", 84, ["buffer", "buffer"], [point, got]);
    return got[0] ? { x: point[0], y: point[1] } : null;
  }
}

/** IUIAutomation, the client's entry point. */
export class UiAutomation extends ComObject {
  /**
   * CoCreateInstance(CLSID_CUIAutomation). COM must be initialized on this thread.
   *
   * @throws {NativeError} when UI Automation is not registered
   */
  static create(): UiAutomation {
    const cell = new BigUint64Array(1);
    unwrapHRESULT(
      "CoCreateInstance(CUIAutomation)",
      ole32.symbols.CoCreateInstance(
        CLSID_CUIAutomation,
        null,
        CLSCTX.INPROC_SERVER,
        IID_IUIAutomation,
        cell,
      ),
    );
    const pointer = pointerFrom(cell);
    if (!pointer) throw new TypeError("CoCreateInstance(CUIAutomation) returned no object");
    return new UiAutomation(pointer);
  }
  /** CompareElements (slot 3). */
  compareElements(a: UiaElement, b: UiaElement): boolean {
    return this.outI32("CompareElements", 3, ["pointer", "pointer"], [a.pointer, b.pointer]) !== 0;
  }
  /** GetRootElement (slot 5). */
  rootElement(): UiaElement | null {
    const pointer = this.outPointer("GetRootElement", 5);
    return pointer ? new UiaElement(pointer) : null;
  }
  /** ElementFromHandle (slot 6). */
  elementFromHandle(hwnd: Deno.PointerValue): UiaElement | null {
    const pointer = this.outPointer("ElementFromHandle", 6, ["pointer"], [hwnd]);
    return pointer ? new UiaElement(pointer) : null;
  }
  /** ElementFromPoint (slot 7; POINT by value in one register). */
  elementFromPoint(x: number, y: number): UiaElement | null {
    const pointer = this.outPointer("ElementFromPoint", 7, ["u64"], [pointByValue(x, y)]);
    return pointer ? new UiaElement(pointer) : null;
  }
  /** GetFocusedElement (slot 8). */
  focusedElement(): UiaElement | null {
    const pointer = this.outPointer("GetFocusedElement", 8);
    return pointer ? new UiaElement(pointer) : null;
  }
  /** ElementFromHandleBuildCache (slot 10). */
  elementFromHandleBuildCache(hwnd: Deno.PointerValue, request: UiaCacheRequest): UiaElement | null {
    const pointer = this.outPointer("ElementFromHandleBuildCache", 10, ["pointer", "pointer"], [
      hwnd,
      request.pointer,
    ]);
    return pointer ? new UiaElement(pointer) : null;
  }
  /** get_ControlViewCondition (slot 18). */
  controlViewCondition(): UiaCondition {
    return new UiaCondition(this.#required("get_ControlViewCondition", 18));
  }
  /** CreateCacheRequest (slot 20). */
  createCacheRequest(): UiaCacheRequest {
    return new UiaCacheRequest(this.#required("CreateCacheRequest", 20));
  }
  /** CreateTrueCondition (slot 21). */
  createTrueCondition(): UiaCondition {
    return new UiaCondition(this.#required("CreateTrueCondition", 21));
  }
  /** CreatePropertyCondition (slot 23) for an integer-valued property. */
  createPropertyConditionI4(propertyId: number, value: number): UiaCondition {
    const cell = new BigUint64Array(1);
    this.hr("CreatePropertyCondition", 23, ["i32", "buffer", "buffer"], [propertyId, variantI4(value), cell]);
    const pointer = pointerFrom(cell);
    if (!pointer) throw new TypeError("CreatePropertyCondition returned no object");
    return new UiaCondition(pointer);
  }

  #required(api: string, slot: number): Deno.PointerObject {
    const pointer = this.outPointer(api, slot);
    if (!pointer) throw new TypeError(`${api} returned no object`);
    return pointer;
  }
}
