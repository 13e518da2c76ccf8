/**
 * The items inside the common controls that draw them without child windows: tree-view
 * items (regedit's keys), list-view rows (regedit's values, Explorer-style lists) and
 * tab-control tabs (property sheets such as winecfg). Without them those controls are
 * opaque boxes wherever UI Automation does not answer (legacy apps, and all of Wine,
 * whose MSAA has no proxies for them).
 *
 * Each item is read with the control's own messages (TVM_GETITEMW, LVM_GETITEMTEXTW,
 * TCM_GETITEMW and their rectangle messages). Their structs must live in the control's
 * process (win32/remote_memory.ts); a process the driver may not open, or a 32-bit one,
 * simply shows no items.
 *
 * @module
 */
import { COMMON_CONTROL as CC, CONTROL_MSG, user32 } from "../../../../ffi/windows/user32.ts";
import { STATE_SYSTEM } from "../../../../ffi/windows/oleacc.ts";
import { AxInterface, type AxNode, AxRole, type ElementState } from "../../../ports/accessibility.ts";
import { type Rect } from "../../../ports/geometry.ts";
import { className, clientRect, hwnd, sendMessage, windowOwner } from "../win32/hwnd.ts";
import { RemoteBuffer } from "../win32/remote_memory.ts";
import type { ItemRef } from "./refs.ts";
import { elementState } from "./states.ts";
import { stripMnemonic } from "./text.ts";

/** The kinds of item-drawing control. */
export type ItemControl = ItemRef["control"];

/** Layout of the scratch buffer: the item struct, a RECT, then the text. */
const STRUCT = 0, RECT_AT = 96, TEXT_AT = 128, TEXT_UNITS = 260, BUFFER_SIZE = TEXT_AT + TEXT_UNITS * 2;
/** Items read from one list view at most (a list of thousands is cut, and the tree says so). */
const MAX_LIST_ITEMS = 500;

/** The kind of item control a window class is, or null. */
export function itemControlOf(windowId: number): ItemControl | null {
  const cls = className(windowId);
  if (/^SysTreeView32$/i.test(cls)) return "tree";
  if (/^SysListView32$/i.test(cls)) return "list";
  if (/^SysTabControl32$/i.test(cls)) return "tab";
  return null;
}

/** One item as read from its control. */
interface ItemFacts {
  item: number;
  /** Nesting below the control (tree items), 0 for the top level. */
  level: number;
  name: string;
  value: string | null;
  selected: boolean;
  expanded: boolean | null;
  /** In client coordinates; null when the item is not laid out (inside a collapsed branch). */
  client: { left: number; top: number; right: number; bottom: number } | null;
}

/** Reads item structs out of one control's process. */
class ItemReader implements Disposable {
  constructor(readonly windowId: number, readonly memory: RemoteBuffer) {}

  static open(windowId: number): ItemReader | null {
    const memory = RemoteBuffer.open(windowOwner(windowId).pid, BUFFER_SIZE);
    return memory ? new ItemReader(windowId, memory) : null;
  }

  #send(message: number, wParam: bigint | number, offset: number): bigint | null {
    return sendMessage(this.windowId, message, wParam, this.memory.address + BigInt(offset));
  }

  /** Sends `message` with a RECT whose first 8 bytes are `seed`; the rectangle, or null. */
  rect(message: number, wParam: bigint | number, seed: bigint): ItemFacts["client"] {
    const rect = new Uint8Array(16);
    new DataView(rect.buffer).setBigUint64(0, seed, true);
    if (!this.memory.write(rect, RECT_AT)) return null;
    const ok = this.#send(message, wParam, RECT_AT);
    const out = ok ? this.memory.read(16, RECT_AT) : null;
    if (!out) return null;
    const view = new DataView(out.buffer);
    const r = {
      left: view.getInt32(0, true),
      top: view.getInt32(4, true),
      right: view.getInt32(8, true),
      bottom: view.getInt32(12, true),
    };
    return r.right > r.left && r.bottom > r.top ? r : null;
  }

  /** Writes `struct` (its text pointer at `textField`), sends `message`, and reads the struct and text back. */
  exchange(
    message: number,
    wParam: bigint | number,
    struct: DataView,
    textField: number,
    countField: number,
  ) {
    struct.setBigUint64(textField, this.memory.address + BigInt(TEXT_AT), true);
    struct.setInt32(countField, TEXT_UNITS, true);
    if (!this.memory.write(new Uint8Array([0, 0]), TEXT_AT)) return null;
    if (!this.memory.write(new Uint8Array(struct.buffer as ArrayBuffer), STRUCT)) return null;
    if (this.#send(message, wParam, STRUCT) === null) return null;
    const back = this.memory.read(struct.byteLength, STRUCT);
    const text = this.memory.readWide(TEXT_AT, TEXT_UNITS);
    return back && text !== null ? { struct: new DataView(back.buffer), text } : null;
  }

  [Symbol.dispose](): void {
    this.memory[Symbol.dispose]();
  }
}

// TVITEMW (64-bit): mask@0, hItem@8, state@16, stateMask@20, pszText@24, cchTextMax@32, cChildren@44; 56 bytes.
function treeItem(reader: ItemReader, item: number, level: number): ItemFacts | null {
  const struct = new DataView(new ArrayBuffer(56));
  struct.setUint32(0, CC.TVIF_TEXT | CC.TVIF_STATE | CC.TVIF_CHILDREN, true);
  struct.setBigUint64(8, BigInt(item), true);
  struct.setUint32(20, 0xff, true);
  const got = reader.exchange(CONTROL_MSG.TVM_GETITEMW, 0, struct, 24, 32);
  if (!got) return null;
  const state = got.struct.getUint32(16, true);
  const children = got.struct.getInt32(44, true);
  return {
    item,
    level,
    name: got.text,
    value: null,
    selected: (state & CC.TVIS_SELECTED) !== 0,
    expanded: children !== 0 ? (state & CC.TVIS_EXPANDED) !== 0 : null,
    client: reader.rect(CONTROL_MSG.TVM_GETITEMRECT, 1, BigInt(item)),
  };
}

/** The tree's items in display order, descending only into expanded branches. */
function treeItems(
  reader: ItemReader,
  limit: number,
  maxLevel = Number.MAX_SAFE_INTEGER,
): { items: ItemFacts[]; truncated: boolean } {
  const items: ItemFacts[] = [];
  const next = (item: number, code: number) =>
    Number(sendMessage(reader.windowId, CONTROL_MSG.TVM_GETNEXTITEM, code, item) ?? 0n);
  let truncated = false;
  const visit = (first: number, level: number) => {
    for (let item = first; item !== 0; item = next(item, CC.TVGN_NEXT)) {
      if (items.length >= limit) {
        truncated = true;
        return;
      }
      const facts = treeItem(reader, item, level);
      if (!facts) return;
      items.push(facts);
      if (facts.expanded && level < maxLevel) visit(next(item, CC.TVGN_CHILD), level + 1);
    }
  };
  visit(next(0, CC.TVGN_ROOT), 0);
  return { items, truncated };
}

// LVITEMW (64-bit): mask@0, iItem@4, iSubItem@8, state@12, stateMask@16, pszText@24, cchTextMax@32; 88 bytes.
function listText(reader: ItemReader, index: number, column: number): string | null {
  const struct = new DataView(new ArrayBuffer(88));
  struct.setInt32(4, index, true);
  struct.setInt32(8, column, true);
  return reader.exchange(CONTROL_MSG.LVM_GETITEMTEXTW, index, struct, 24, 32)?.text ?? null;
}

function listColumns(windowId: number): number {
  const header = Number(sendMessage(windowId, CONTROL_MSG.LVM_GETHEADER, 0, 0) ?? 0n);
  return header ? Number(sendMessage(header, CONTROL_MSG.HDM_GETITEMCOUNT, 0, 0) ?? 1n) : 1;
}

/** Row `index` of a list view: its first column as the name, the others as the value. */
function listItem(reader: ItemReader, index: number, columns: number): ItemFacts | null {
  const name = listText(reader, index, 0);
  if (name === null) return null;
  const cells: string[] = [];
  for (let column = 1; column < columns; column++) cells.push(listText(reader, index, column) ?? "");
  const state = Number(
    sendMessage(reader.windowId, CONTROL_MSG.LVM_GETITEMSTATE, index, CC.LVIS_SELECTED) ?? 0n,
  );
  return {
    item: index,
    level: 0,
    name,
    value: cells.some((cell) => cell) ? cells.join(" | ") : null,
    selected: (state & CC.LVIS_SELECTED) !== 0,
    expanded: null,
    client: reader.rect(CONTROL_MSG.LVM_GETITEMRECT, index, BigInt(CC.LVIR_SELECTBOUNDS)),
  };
}

function listItems(reader: ItemReader, limit: number): { items: ItemFacts[]; truncated: boolean } {
  const count = Number(sendMessage(reader.windowId, CONTROL_MSG.LVM_GETITEMCOUNT, 0, 0) ?? 0n);
  const columns = listColumns(reader.windowId);
  const items: ItemFacts[] = [];
  for (let index = 0; index < Math.min(count, limit, MAX_LIST_ITEMS); index++) {
    const facts = listItem(reader, index, columns);
    if (!facts) break;
    items.push(facts);
  }
  return { items, truncated: items.length < count };
}

// TCITEMW (64-bit): mask@0, dwState@4, dwStateMask@8, pszText@16, cchTextMax@24; 40 bytes.
function tabItem(reader: ItemReader, index: number): ItemFacts | null {
  const current = Number(
    BigInt.asIntN(64, sendMessage(reader.windowId, CONTROL_MSG.TCM_GETCURSEL, 0, 0) ?? -1n),
  );
  const struct = new DataView(new ArrayBuffer(40));
  struct.setUint32(0, CC.TCIF_TEXT, true);
  const got = reader.exchange(CONTROL_MSG.TCM_GETITEMW, index, struct, 16, 24);
  if (!got) return null;
  return {
    item: index,
    level: 0,
    name: stripMnemonic(got.text),
    value: null,
    selected: index === current,
    expanded: null,
    client: reader.rect(CONTROL_MSG.TCM_GETITEMRECT, index, 0n),
  };
}

function tabItems(reader: ItemReader, limit: number): { items: ItemFacts[]; truncated: boolean } {
  const count = Number(sendMessage(reader.windowId, CONTROL_MSG.TCM_GETITEMCOUNT, 0, 0) ?? 0n);
  const items: ItemFacts[] = [];
  for (let index = 0; index < Math.min(count, limit); index++) {
    const facts = tabItem(reader, index);
    if (!facts) break;
    items.push(facts);
  }
  return { items, truncated: items.length < count };
}

const ROLES: Record<ItemControl, { role: AxRole; platformRole: string }> = {
  tree: { role: AxRole.TreeItem, platformRole: "TreeItem" },
  list: { role: AxRole.ListItem, platformRole: "ListItem" },
  tab: { role: AxRole.Tab, platformRole: "TabItem" },
};

function readItems(control: ItemControl, reader: ItemReader, limit: number, maxLevel?: number) {
  if (control === "tree") return treeItems(reader, limit, maxLevel);
  if (control === "list") return listItems(reader, limit);
  return tabItems(reader, limit);
}

/** The item's frame in screen pixels and whether it lies inside the control's client area. */
function placed(windowId: number, facts: ItemFacts): { frame: Rect | null; showing: boolean } {
  const client = clientRect(windowId);
  if (!client || !facts.client) return { frame: null, showing: false };
  const r = facts.client;
  const frame = {
    x: client.x + r.left,
    y: client.y + r.top,
    width: r.right - r.left,
    height: r.bottom - r.top,
  };
  const showing = r.bottom > 0 && r.top < client.height && r.right > 0 && r.left < client.width;
  return { frame, showing };
}

function itemState(windowId: number, control: ItemControl, facts: ItemFacts, showing: boolean): ElementState {
  const bits = STATE_SYSTEM.FOCUSABLE | STATE_SYSTEM.SELECTABLE |
    (facts.selected ? STATE_SYSTEM.SELECTED : 0) |
    (facts.expanded === true
      ? STATE_SYSTEM.EXPANDED
      : facts.expanded === false
      ? STATE_SYSTEM.COLLAPSED
      : 0) |
    (showing ? 0 : STATE_SYSTEM.OFFSCREEN);
  return elementState({
    role: ROLES[control].role,
    bits,
    windowEnabled: user32.symbols.IsWindowEnabled(hwnd(windowId)) !== 0,
  });
}

/** Where a control's items go in the tree being built. */
export interface ItemPlacement {
  /** Depth of the top-level items (the control's depth + 1). */
  depth: number;
  /** Deepest depth to include (tree items below it are left out). */
  maxDepth: number;
  /** Index of the control's node. */
  parent: number;
  /** The index the first item will have. */
  firstIndex: number;
  /** How many nodes may still be added. */
  limit: number;
}

/**
 * The items of an item-drawing control as nodes under it (tree items nested by level).
 *
 * @returns no nodes when the control's process cannot be read.
 */
export function controlItemNodes(
  windowId: number,
  control: ItemControl,
  { depth, maxDepth, parent, firstIndex, limit }: ItemPlacement,
): { nodes: AxNode[]; truncated: boolean } {
  using reader = ItemReader.open(windowId);
  if (!reader || limit <= 0) return { nodes: [], truncated: limit <= 0 };
  const { items, truncated } = readItems(control, reader, limit, maxDepth - depth);
  const nodes: AxNode[] = [];
  const parents: number[] = [parent];
  for (const facts of items) {
    parents.length = facts.level + 1;
    const { frame, showing } = placed(windowId, facts);
    const state = itemState(windowId, control, facts, showing);
    const ref: ItemRef = {
      kind: "item",
      hwnd: windowId,
      control,
      item: facts.item,
      name: facts.name,
      role: ROLES[control].role,
    };
    nodes.push({
      ...ROLES[control],
      name: facts.name,
      description: "",
      value: facts.value,
      depth: depth + facts.level,
      parent: parents[facts.level],
      enabled: state.enabled,
      focused: false,
      selected: facts.selected,
      showing,
      editable: false,
      focusable: true,
      actions: ["click"],
      interfaces: [AxInterface.Component, AxInterface.Action],
      frame,
      ref,
    });
    parents[facts.level + 1] = firstIndex + nodes.length - 1;
  }
  return { nodes, truncated };
}

/** The item `ref` names as it is now, or null when it is gone or renamed (the token is stale). */
function currentItem(ref: ItemRef): ItemFacts | null {
  using reader = ItemReader.open(ref.hwnd);
  if (!reader) return null;
  let facts: ItemFacts | null;
  if (ref.control === "tree") {
    // Only a handle the tree itself hands out again is sent back to it (comctl32 does not check handles).
    facts = treeHandleShown(ref.hwnd, ref.item) ? treeItem(reader, ref.item, 0) : null;
  } else if (ref.control === "list") {
    const count = Number(sendMessage(ref.hwnd, CONTROL_MSG.LVM_GETITEMCOUNT, 0, 0) ?? 0n);
    facts = ref.item < count ? listItem(reader, ref.item, listColumns(ref.hwnd)) : null;
  } else {
    const count = Number(sendMessage(ref.hwnd, CONTROL_MSG.TCM_GETITEMCOUNT, 0, 0) ?? 0n);
    facts = ref.item < count ? tabItem(reader, ref.item) : null;
  }
  return facts && facts.name === ref.name ? facts : null;
}

/** Whether `item` is among the tree's items in expanded branches (TVGN_NEXTVISIBLE, handles only). */
function treeHandleShown(windowId: number, item: number): boolean {
  let handle = Number(sendMessage(windowId, CONTROL_MSG.TVM_GETNEXTITEM, CC.TVGN_ROOT, 0) ?? 0n);
  for (let seen = 0; handle !== 0 && seen < 10_000; seen++) {
    if (handle === item) return true;
    handle = Number(sendMessage(windowId, CONTROL_MSG.TVM_GETNEXTITEM, CC.TVGN_NEXTVISIBLE, handle) ?? 0n);
  }
  return false;
}

/** An item's live state, frame and centre (client coordinates), or null when the token is stale. */
export function itemNow(ref: ItemRef): {
  state: ElementState;
  frame: Rect | null;
  center: { x: number; y: number } | null;
} | null {
  const facts = currentItem(ref);
  if (!facts) return null;
  const { frame, showing } = placed(ref.hwnd, facts);
  const r = facts.client;
  return {
    state: itemState(ref.hwnd, ref.control, facts, showing),
    frame,
    center: r && showing
      ? { x: Math.floor((r.left + r.right) / 2), y: Math.floor((r.top + r.bottom) / 2) }
      : null,
  };
}
