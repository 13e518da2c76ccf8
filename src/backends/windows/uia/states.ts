/**
 * Element states from MSAA state bits (STATE_SYSTEM_*) and a control's own answers
 * (BM_GETCHECK), in the shape {@linkcode ElementState} has on every platform.
 *
 * @module
 */
import { STATE_SYSTEM } from "../../../../ffi/windows/oleacc.ts";
import { AxRole, type ElementState } from "../../../ports/accessibility.ts";
import { TEXT_ROLES, TOGGLE_ROLES } from "./roles.ts";

const NAMES: [number, string][] = [
  [STATE_SYSTEM.SELECTED, "selected"],
  [STATE_SYSTEM.FOCUSED, "focused"],
  [STATE_SYSTEM.PRESSED, "pressed"],
  [STATE_SYSTEM.CHECKED, "checked"],
  [STATE_SYSTEM.MIXED, "indeterminate"],
  [STATE_SYSTEM.READONLY, "read only"],
  [STATE_SYSTEM.DEFAULT, "default"],
  [STATE_SYSTEM.EXPANDED, "expanded"],
  [STATE_SYSTEM.COLLAPSED, "collapsed"],
  [STATE_SYSTEM.BUSY, "busy"],
  [STATE_SYSTEM.INVISIBLE, "invisible"],
  [STATE_SYSTEM.OFFSCREEN, "offscreen"],
  [STATE_SYSTEM.FOCUSABLE, "focusable"],
  [STATE_SYSTEM.SELECTABLE, "selectable"],
  [STATE_SYSTEM.LINKED, "linked"],
  [STATE_SYSTEM.MULTISELECTABLE, "multiselectable"],
  [STATE_SYSTEM.PROTECTED, "protected"],
  [STATE_SYSTEM.HASPOPUP, "has popup"],
];

/** What the state bits and the control say about one element. */
export interface StateFacts {
  role: AxRole;
  /** STATE_SYSTEM bits (0 when MSAA did not answer). */
  bits: number;
  /** The window is enabled (IsWindowEnabled), when it is a window. */
  windowEnabled?: boolean;
  /** The window is visible (IsWindowVisible). */
  windowVisible?: boolean;
  /** BM_GETCHECK for buttons: 0, 1, 2 (indeterminate); undefined otherwise. */
  check?: number;
  /** The window has the keyboard focus of its thread. */
  hasFocus?: boolean;
}

/** Builds the element state. */
export function elementState(facts: StateFacts): ElementState {
  const { bits, role } = facts;
  const names = NAMES.filter(([bit]) => (bits & bit) !== 0).map(([, name]) => name);
  const enabled = facts.windowEnabled ?? (bits & STATE_SYSTEM.UNAVAILABLE) === 0;
  const visible = facts.windowVisible ?? (bits & STATE_SYSTEM.INVISIBLE) === 0;
  const showing = visible && (bits & STATE_SYSTEM.OFFSCREEN) === 0;
  const toggleable = TOGGLE_ROLES.has(role);
  const checked = facts.check !== undefined ? facts.check === 1 : (bits & STATE_SYSTEM.CHECKED) !== 0;
  const focused = facts.hasFocus ?? (bits & STATE_SYSTEM.FOCUSED) !== 0;
  const editable = TEXT_ROLES.has(role) && (bits & STATE_SYSTEM.READONLY) === 0;
  const focusable = (bits & STATE_SYSTEM.FOCUSABLE) !== 0 || editable || toggleable;
  const extra = [
    enabled ? "enabled" : "disabled",
    ...(enabled ? ["sensitive"] : []),
    ...(visible ? ["visible"] : []),
    ...(showing ? ["showing"] : []),
    ...(editable ? ["editable"] : []),
    ...(toggleable ? ["checkable"] : []),
    ...(checked && !names.includes("checked") ? ["checked"] : []),
    ...(focused && !names.includes("focused") ? ["focused"] : []),
  ];
  return {
    enabled,
    focused,
    focusable,
    showing,
    visible,
    editable,
    checked,
    checkable: toggleable && role !== AxRole.RadioButton,
    selected: (bits & STATE_SYSTEM.SELECTED) !== 0 || (toggleable && checked),
    toggleable,
    names: [...new Set([...names, ...extra])],
  };
}
