/**
 * The accessibility tree of a window from UI Automation in one cross-process call: a
 * cache request for every property the snapshot shows, with TreeScope_Subtree over the
 * control view, answered by ElementFromHandleBuildCache; the builder then walks the
 * cached children without going back to the app.
 *
 * The builder reads through {@linkcode CachedElement}, so it is unit-tested against
 * recorded COM results; it runs for real only on Windows (Wine answers cache requests
 * with E_NOTIMPL, and the back end then builds the tree from child windows instead).
 *
 * @module
 */
import type { VariantValue } from "../../../../ffi/windows/com.ts";
import { PropertyId } from "../../../../ffi/windows/uia.ts";
import {
  AxInterface,
  type AxNode,
  type AxSnapshotOptions,
  type AxTree,
} from "../../../ports/accessibility.ts";
import { type Rect } from "../../../ports/geometry.ts";
import type { UiaRef } from "./refs.ts";
import { TOGGLE_ROLES, uiaRole } from "./roles.ts";

/** Every property the snapshot reads, fetched by the one cache request. */
export const SNAPSHOT_PROPERTIES = [
  PropertyId.Name,
  PropertyId.ControlType,
  PropertyId.BoundingRectangle,
  PropertyId.IsEnabled,
  PropertyId.HasKeyboardFocus,
  PropertyId.IsKeyboardFocusable,
  PropertyId.IsOffscreen,
  PropertyId.NativeWindowHandle,
  PropertyId.HelpText,
  PropertyId.ValueValue,
  PropertyId.ValueIsReadOnly,
  PropertyId.ToggleState,
  PropertyId.SelectionItemIsSelected,
  PropertyId.ExpandCollapseState,
  PropertyId.RangeValueValue,
  PropertyId.IsInvokePatternAvailable,
  PropertyId.IsValuePatternAvailable,
  PropertyId.IsTogglePatternAvailable,
  PropertyId.IsRangeValuePatternAvailable,
  PropertyId.IsExpandCollapsePatternAvailable,
  PropertyId.IsSelectionItemPatternAvailable,
  PropertyId.IsTextPatternAvailable,
  PropertyId.IsScrollPatternAvailable,
] as const;

/** One element as the cache request returned it. */
export interface CachedElement {
  /** A cached property value ({vt: "empty"} when the element does not have it). */
  property(id: number): VariantValue;
  /** The cached children in the control view. */
  children(): CachedElement[];
}

function text(value: VariantValue): string {
  return value.vt === "string" ? value.value : "";
}
function number(value: VariantValue): number | null {
  return value.vt === "number" ? value.value : null;
}
function bool(value: VariantValue): boolean | null {
  return value.vt === "bool" ? value.value : null;
}

/** BoundingRectangle comes as [left, top, width, height] doubles; empty for offscreen elements. */
function rect(value: VariantValue): Rect | null {
  if (value.vt !== "array" || value.value.length !== 4) return null;
  const [x, y, width, height] = value.value.map(Math.round);
  return width > 0 || height > 0 ? { x, y, width, height } : null;
}

/**
 * Builds the AxTree of a cached subtree, registering each element under a key (its ref).
 *
 * @param register called once per emitted element with its key; the caller keeps the
 *   element to act on it later
 */
export function buildUiaTree(
  root: CachedElement,
  windowId: number,
  options: AxSnapshotOptions,
  register: (key: string, element: CachedElement) => void,
): AxTree {
  const nodes: AxNode[] = [];
  let truncated = false;
  const visit = (element: CachedElement, depth: number, parent: number) => {
    if (nodes.length >= options.maxNodes || depth > options.maxDepth) {
      truncated = true;
      return;
    }
    const index = nodes.length;
    nodes.push(describe(element, depth, parent, windowId, index, register));
    for (const child of element.children()) {
      visit(child, depth + 1, index);
      if (nodes.length >= options.maxNodes) {
        truncated = true;
        return;
      }
    }
  };
  visit(root, 0, -1);
  return { nodes, truncated, error: null };
}

function describe(
  element: CachedElement,
  depth: number,
  parent: number,
  windowId: number,
  index: number,
  register: (key: string, element: CachedElement) => void,
): AxNode {
  const p = (id: number) => element.property(id);
  const { role, platformRole } = uiaRole(number(p(PropertyId.ControlType)) ?? 0);
  const has = (id: number) => bool(p(id)) === true;
  const actions: string[] = [];
  if (has(PropertyId.IsInvokePatternAvailable)) actions.push("invoke");
  if (has(PropertyId.IsTogglePatternAvailable)) actions.push("toggle");
  if (has(PropertyId.IsSelectionItemPatternAvailable)) actions.push("select");
  if (has(PropertyId.IsExpandCollapsePatternAvailable)) {
    const state = number(p(PropertyId.ExpandCollapseState));
    if (state !== 3) actions.push(state === 1 ? "collapse" : "expand");
  }
  const interfaces: AxInterface[] = [AxInterface.Component];
  const valuePattern = has(PropertyId.IsValuePatternAvailable);
  const readOnly = bool(p(PropertyId.ValueIsReadOnly)) !== false;
  const editable = valuePattern && !readOnly;
  if (valuePattern || has(PropertyId.IsTextPatternAvailable)) interfaces.push(AxInterface.Text);
  if (editable) interfaces.push(AxInterface.EditableText);
  if (has(PropertyId.IsRangeValuePatternAvailable)) interfaces.push(AxInterface.Value);
  if (actions.length) interfaces.push(AxInterface.Action);
  const toggle = number(p(PropertyId.ToggleState));
  const selected = bool(p(PropertyId.SelectionItemIsSelected));
  const range = number(p(PropertyId.RangeValueValue));
  const value = valuePattern ? text(p(PropertyId.ValueValue)) : range !== null ? String(range) : null;
  const key = `${windowId}:${index}`;
  register(key, element);
  const ref: UiaRef = { kind: "uia", hwnd: windowId, key, role };
  return {
    role,
    platformRole,
    name: text(p(PropertyId.Name)),
    description: text(p(PropertyId.HelpText)),
    value,
    depth,
    parent,
    enabled: bool(p(PropertyId.IsEnabled)) !== false,
    focused: bool(p(PropertyId.HasKeyboardFocus)) === true,
    // Check boxes answer through Toggle, radio buttons and items through SelectionItem.
    selected: toggle !== null ? toggle === 1 : selected ?? (TOGGLE_ROLES.has(role) ? false : null),
    showing: bool(p(PropertyId.IsOffscreen)) !== true,
    editable,
    focusable: bool(p(PropertyId.IsKeyboardFocusable)) === true,
    actions,
    interfaces,
    frame: rect(p(PropertyId.BoundingRectangle)),
    ref,
  };
}
