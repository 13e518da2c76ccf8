/**
 * AT-SPI state bits (the `AtspiStateType` enum) and the two-word state sets
 * `GetState` and `Cache.GetItems` return.
 *
 * @module
 */
import type { ElementState } from "../../../ports/accessibility.ts";

/** `AtspiStateType` values used here. */
export const State = {
  INVALID: 0,
  ACTIVE: 1,
  ARMED: 2,
  BUSY: 3,
  CHECKED: 4,
  COLLAPSED: 5,
  DEFUNCT: 6,
  EDITABLE: 7,
  ENABLED: 8,
  EXPANDABLE: 9,
  EXPANDED: 10,
  FOCUSABLE: 11,
  FOCUSED: 12,
  HAS_TOOLTIP: 13,
  HORIZONTAL: 14,
  ICONIFIED: 15,
  MODAL: 16,
  MULTI_LINE: 17,
  MULTISELECTABLE: 18,
  OPAQUE: 19,
  PRESSED: 20,
  RESIZABLE: 21,
  SELECTABLE: 22,
  SELECTED: 23,
  SENSITIVE: 24,
  SHOWING: 25,
  SINGLE_LINE: 26,
  STALE: 27,
  TRANSIENT: 28,
  VERTICAL: 29,
  VISIBLE: 30,
  MANAGES_DESCENDANTS: 31,
  INDETERMINATE: 32,
  REQUIRED: 33,
  TRUNCATED: 34,
  ANIMATED: 35,
  INVALID_ENTRY: 36,
  SUPPORTS_AUTOCOMPLETION: 37,
  SELECTABLE_TEXT: 38,
  IS_DEFAULT: 39,
  VISITED: 40,
  CHECKABLE: 41,
  HAS_POPUP: 42,
  READ_ONLY: 43,
} as const;

/** A state set as sent on the wire: two u32 words, bit `n` of the set is bit `n % 32` of word `n >> 5`. */
export type StateSet = readonly number[];

/** True when `states` contains `state`. */
export function hasState(states: StateSet, state: number): boolean {
  const word = states[state >>> 5] ?? 0;
  return ((word >>> (state & 31)) & 1) === 1;
}

const NAMES = Object.fromEntries(Object.entries(State).map(([k, v]) => [v, k.toLowerCase()]));

/** Lowercase names of every state in the set (`["enabled", "focusable", ...]`), for diagnostics. */
export function stateNames(states: StateSet): string[] {
  const out: string[] = [];
  for (let bit = 0; bit < states.length * 32; bit++) {
    if (hasState(states, bit)) out.push(NAMES[bit] ?? `state_${bit}`);
  }
  return out;
}

/** The booleans an accessibility snapshot reports. */
export type NodeStates = Omit<ElementState, "names">;

/** Decodes the booleans of a state set. GTK4 sets only SENSITIVE, so either bit means enabled. */
export function decodeStates(states: StateSet): NodeStates {
  return {
    enabled: hasState(states, State.ENABLED) || hasState(states, State.SENSITIVE),
    focused: hasState(states, State.FOCUSED),
    focusable: hasState(states, State.FOCUSABLE),
    showing: hasState(states, State.SHOWING),
    visible: hasState(states, State.VISIBLE),
    editable: hasState(states, State.EDITABLE),
    checked: hasState(states, State.CHECKED) || hasState(states, State.PRESSED),
    checkable: hasState(states, State.CHECKABLE),
    selected: hasState(states, State.SELECTED),
    toggleable: hasState(states, State.CHECKABLE) || hasState(states, State.SELECTABLE),
  };
}
