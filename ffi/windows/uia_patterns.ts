/**
 * UI Automation control patterns the driver acts through: Invoke, Value, Toggle,
 * RangeValue, ExpandCollapse, SelectionItem, Scroll, Text and LegacyIAccessible.
 * Each is fetched with `GetCurrentPatternAs(patternId, iid)`; slots count IUnknown first.
 *
 * @module
 */
import { Bstr, ComObject, guid } from "./com.ts";
import { PatternId, type UiaElement } from "./uia.ts";
import { wstr } from "../_c.ts";

/** IID of each pattern interface the driver uses. */
export const PatternIid = {
  Invoke: guid("fb377fbe-8ea6-46d5-9c73-6499642d3059"),
  Value: guid("a94cd8b1-0844-4cd6-9d2d-640537ab39e9"),
  Toggle: guid("94cf8058-9b8d-4ab9-8bfd-4cd0a33c8c70"),
  RangeValue: guid("59213f4f-7346-49e5-b120-80555987a148"),
  ExpandCollapse: guid("619be086-1f4e-4ee4-bafa-210128738730"),
  SelectionItem: guid("a8efa66a-0fda-421a-9194-38021f3578ea"),
  Scroll: guid("88f4d42a-e881-459d-a77c-73bbbb7e02dc"),
  Text: guid("32eba289-3583-42c9-9c59-3b6d9a1e9b6a"),
  LegacyIAccessible: guid("828055ad-355b-4435-86d5-3b51c14a9b1b"),
} as const;

/** ToggleState values. */
export const ToggleState = { Off: 0, On: 1, Indeterminate: 2 } as const;
/** ExpandCollapseState values. */
export const ExpandCollapseState = { Collapsed: 0, Expanded: 1, PartiallyExpanded: 2, LeafNode: 3 } as const;
/** ScrollAmount values. */
export const ScrollAmount = {
  LargeDecrement: 0,
  SmallDecrement: 1,
  NoAmount: 2,
  LargeIncrement: 3,
  SmallIncrement: 4,
} as const;

/** IUIAutomationInvokePattern. */
export class InvokePattern extends ComObject {
  /** Invoke (slot 3). */
  invoke(): void {
    this.hr("Invoke", 3);
  }
}

/** IUIAutomationValuePattern. */
export class ValuePattern extends ComObject {
  /** SetValue (slot 3). */
  setValue(text: string): void {
    using value = new Bstr(text);
    this.hr("SetValue", 3, ["pointer"], [value.pointer]);
  }
  /** get_CurrentValue (slot 4). */
  value(): string {
    return this.outBstr("get_CurrentValue", 4);
  }
  /** get_CurrentIsReadOnly (slot 5). */
  isReadOnly(): boolean {
    return this.outI32("get_CurrentIsReadOnly", 5) !== 0;
  }
}

/** IUIAutomationTogglePattern. */
export class TogglePattern extends ComObject {
  /** Toggle (slot 3). */
  toggle(): void {
    this.hr("Toggle", 3);
  }
  /** get_CurrentToggleState (slot 4). */
  state(): number {
    return this.outI32("get_CurrentToggleState", 4);
  }
}

/** IUIAutomationRangeValuePattern. */
export class RangeValuePattern extends ComObject {
  /** SetValue (slot 3). */
  setValue(value: number): void {
    this.hr("SetValue", 3, ["f64"], [value]);
  }
  /** get_CurrentValue (slot 4). */
  value(): number {
    return this.outF64("get_CurrentValue", 4);
  }
  /** get_CurrentMaximum (slot 6). */
  maximum(): number {
    return this.outF64("get_CurrentMaximum", 6);
  }
  /** get_CurrentMinimum (slot 7). */
  minimum(): number {
    return this.outF64("get_CurrentMinimum", 7);
  }
  /** get_CurrentSmallChange (slot 9). */
  smallChange(): number {
    return this.outF64("get_CurrentSmallChange", 9);
  }
}

/** IUIAutomationExpandCollapsePattern. */
export class ExpandCollapsePattern extends ComObject {
  /** Expand (slot 3). */
  expand(): void {
    this.hr("Expand", 3);
  }
  /** Collapse (slot 4). */
  collapse(): void {
    this.hr("Collapse", 4);
  }
  /** get_CurrentExpandCollapseState (slot 5). */
  state(): number {
    return this.outI32("get_CurrentExpandCollapseState", 5);
  }
}

/** IUIAutomationSelectionItemPattern. */
export class SelectionItemPattern extends ComObject {
  /** Select (slot 3). */
  select(): void {
    this.hr("Select", 3);
  }
  /** get_CurrentIsSelected (slot 6). */
  isSelected(): boolean {
    return this.outI32("get_CurrentIsSelected", 6) !== 0;
  }
}

/** IUIAutomationScrollPattern. */
export class ScrollPattern extends ComObject {
  /** Scroll (slot 3). */
  scroll(horizontal: number, vertical: number): void {
    this.hr("Scroll", 3, ["i32", "i32"], [horizontal, vertical]);
  }
}

/** IUIAutomationTextRange (only what reading text needs). */
export class TextRange extends ComObject {
  /** GetText (slot 12); -1 reads everything. */
  text(maxLength = -1): string {
    return this.outBstr("GetText", 12, ["i32"], [maxLength]);
  }
}

/** IUIAutomationTextPattern. */
export class TextPattern extends ComObject {
  /** get_DocumentRange (slot 7). */
  documentRange(): TextRange {
    const pointer = this.outPointer("get_DocumentRange", 7);
    if (!pointer) throw new TypeError("get_DocumentRange returned no range");
    return new TextRange(pointer);
  }
}

/** IUIAutomationLegacyIAccessiblePattern: MSAA through UIA. */
export class LegacyIAccessiblePattern extends ComObject {
  /** DoDefaultAction (slot 4). */
  doDefaultAction(): void {
    this.hr("DoDefaultAction", 4);
  }
  /** SetValue (slot 5; LPCWSTR). */
  setValue(text: string): void {
    this.hr("SetValue", 5, ["buffer"], [wstr(text)]);
  }
  /** get_CurrentRole (slot 10). */
  role(): number {
    return this.outI32("get_CurrentRole", 10);
  }
  /** get_CurrentState (slot 11). */
  state(): number {
    return this.outI32("get_CurrentState", 11);
  }
  /** get_CurrentDefaultAction (slot 15). */
  defaultAction(): string {
    return this.outBstr("get_CurrentDefaultAction", 15);
  }
}

/** Pattern classes by name, with their ids and IIDs. */
const PATTERNS = {
  Invoke: InvokePattern,
  Value: ValuePattern,
  Toggle: TogglePattern,
  RangeValue: RangeValuePattern,
  ExpandCollapse: ExpandCollapsePattern,
  SelectionItem: SelectionItemPattern,
  Scroll: ScrollPattern,
  Text: TextPattern,
  LegacyIAccessible: LegacyIAccessiblePattern,
} as const;

/** A pattern's name. */
export type PatternName = keyof typeof PATTERNS;

/**
 * The element's `name` pattern, or null when it does not support it.
 *
 * @returns a +1 reference the caller disposes
 * @throws {NativeError} when UIA fails (E_NOTIMPL under Wine)
 */
export function currentPattern<N extends PatternName>(
  element: UiaElement,
  name: N,
): InstanceType<(typeof PATTERNS)[N]> | null {
  const pointer = element.currentPatternAs(PatternId[name], PatternIid[name]);
  if (!pointer) return null;
  return new PATTERNS[name](pointer) as InstanceType<(typeof PATTERNS)[N]>;
}
