/**
 * A Win32 combo box's options, read and chosen through the combo's own messages, as a user's
 * pick would: CB_GETCOUNT and CB_GETLBTEXT list them (the system copies the text across
 * processes), CB_GETCURSEL says which is chosen, CB_GETDROPPEDSTATE whether the list is open;
 * choosing is CB_SETCURSEL followed by the notifications the owner gets when a user picks an
 * item (WM_COMMAND with CBN_SELENDOK and CBN_SELCHANGE), so the app acts on it; opening is
 * CB_SHOWDROPDOWN. None of these needs focus or the foreground.
 *
 * @module
 */
import { fromWide, handleValue, wideBuffer } from "../../../../ffi/windows/_win.ts";
import { CONTROL_MSG, user32, WM_COMMAND } from "../../../../ffi/windows/user32.ts";
import { AxInterface, type AxNode, AxRole } from "../../../ports/accessibility.ts";
import { hwnd, sendMessage, sendMessageBuffer } from "../win32/hwnd.ts";
import type { OptionRef } from "./refs.ts";

/** Most options listed in a snapshot. */
const MAX_OPTIONS = 500;
const CB_ERR = -1;
const CBN_SELCHANGE = 1, CBN_SELENDOK = 9;

const int32 = (value: bigint | null) => value === null ? null : Number(BigInt.asIntN(32, value));

/** The text of each option of `combo`, in order; null when the combo does not answer. */
export function comboOptions(combo: number): string[] | null {
  const count = int32(sendMessage(combo, CONTROL_MSG.CB_GETCOUNT, 0, 0));
  if (count === null || count < 0) return null;
  const out: string[] = [];
  for (let i = 0; i < Math.min(count, MAX_OPTIONS); i++) {
    const length = int32(sendMessage(combo, CONTROL_MSG.CB_GETLBTEXTLEN, i, 0));
    if (length === null || length < 0) return null;
    const buffer = wideBuffer(length + 1);
    const copied = int32(sendMessageBuffer(combo, CONTROL_MSG.CB_GETLBTEXT, i, buffer));
    out.push(copied === null || copied < 0 ? "" : fromWide(buffer, Math.min(copied, length)));
  }
  return out;
}

/** The index of the chosen option, -1 for none; null when the combo does not answer. */
export function comboSelection(combo: number): number | null {
  return int32(sendMessage(combo, CONTROL_MSG.CB_GETCURSEL, 0, 0));
}

/** True while the combo's list is open. */
export function comboDropped(combo: number): boolean {
  return (sendMessage(combo, CONTROL_MSG.CB_GETDROPPEDSTATE, 0, 0) ?? 0n) !== 0n;
}

/** Opens the combo's list, or closes it when it is open; false when the combo does not answer. */
export function toggleDropDown(combo: number): boolean {
  return sendMessage(combo, CONTROL_MSG.CB_SHOWDROPDOWN, comboDropped(combo) ? 0 : 1, 0) !== null;
}

/** The option nodes of `combo` under the node at `parent`: one list item per option. */
export function comboOptionNodes(combo: number, depth: number, parent: number, limit: number): AxNode[] {
  const options = comboOptions(combo);
  if (!options || limit <= 0) return [];
  const chosen = comboSelection(combo);
  const open = comboDropped(combo);
  return options.slice(0, limit).map((name, index) => ({
    role: AxRole.ListItem,
    platformRole: "ComboBoxOption",
    name,
    description: "",
    value: null,
    depth,
    parent,
    enabled: true,
    focused: false,
    selected: index === chosen,
    showing: open,
    editable: false,
    focusable: false,
    actions: ["click"],
    interfaces: [AxInterface.Component, AxInterface.Action],
    frame: null,
    ref: { kind: "option", hwnd: combo, index, name, role: AxRole.ListItem } satisfies OptionRef,
  }));
}

/** The option as it is now: its text still at its index, and whether it is chosen; null when gone. */
export function optionNow(ref: OptionRef): { selected: boolean } | null {
  const options = comboOptions(ref.hwnd);
  if (!options || options[ref.index] !== ref.name) return null;
  return { selected: comboSelection(ref.hwnd) === ref.index };
}

/**
 * Chooses the option as a user's pick does: the selection, then CBN_SELENDOK and CBN_SELCHANGE
 * to the owner, and the list closed. False when the combo refused the index.
 */
export function chooseOption(ref: OptionRef): boolean {
  const set = int32(sendMessage(ref.hwnd, CONTROL_MSG.CB_SETCURSEL, ref.index, 0));
  if (set === null || set === CB_ERR) return false;
  const owner = handleValue(user32.symbols.GetParent(hwnd(ref.hwnd)));
  if (owner !== 0) {
    const id = user32.symbols.GetDlgCtrlID(hwnd(ref.hwnd)) & 0xffff;
    for (const code of [CBN_SELENDOK, CBN_SELCHANGE]) {
      sendMessage(owner, WM_COMMAND, (code << 16) | id, BigInt(ref.hwnd));
    }
  }
  if (comboDropped(ref.hwnd)) sendMessage(ref.hwnd, CONTROL_MSG.CB_SHOWDROPDOWN, 0, 0);
  return true;
}
