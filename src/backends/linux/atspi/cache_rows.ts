/**
 * Decodes a `Cache.GetItems` reply straight into {@linkcode RawNode}s, in place of the
 * generic D-Bus codec: no array per row and per struct, the bus names (which the tree
 * does not use) stepped over, and the values that repeat across rows and snapshots read
 * once: object paths by their numeric id, interface lists and state sets by their bytes.
 * A 5,000-object window is then mostly one object and one name string per row.
 * `fromCacheItem` (raw_node.ts) gives the same nodes from the generic decoding.
 *
 * @module
 */
import { type BodyReader, readArrayEnd, type Reader } from "../../../lib/dbus/mod.ts";
import { CACHE_ITEM_SIGNATURE, parentPathOf, type RawNode } from "./raw_node.ts";
import type { StateSet } from "./states.ts";

/** The nodes of one reply, as {@linkcode cacheRowsReader} returns them (its only value). */
export class CacheRows {
  constructor(readonly nodes: RawNode[]) {}
}

/** Reads a `Cache.GetItems` reply body, `a((so)(so)(so)iiassusau)`, into one {@linkcode CacheRows}. */
export const cacheRowsReader: BodyReader = {
  signature: `a${CACHE_ITEM_SIGNATURE}`,
  read: (r) => [new CacheRows(readRows(r))],
};

/** Entries each table holds before it starts over (paths of big apps, lists, sets). */
const MAX_PATHS = 200_000;
const MAX_LISTS = 512;
/** The path prefix of toolkits' objects (GTK, Qt, Gecko): `/org/a11y/atspi/accessible/<id>`. */
const PREFIX = new TextEncoder().encode("/org/a11y/atspi/accessible/");
/** Digits of the longest id read by number (larger ones are decoded as text). */
const MAX_ID_DIGITS = 15;

/** Paths by numeric id: the same few thousand strings every snapshot of an app. */
const pathsById = new Map<number, string>();
/** Interface lists and state sets by a hash of their marshalled bytes. */
const listsByHash = new Map<number, { bytes: Uint8Array; value: readonly string[] }[]>();
const statesByKey = new Map<number, StateSet>();

function readRows(r: Reader): RawNode[] {
  const end = readArrayEnd(r, 8);
  const nodes: RawNode[] = [];
  while (r.pos < end) {
    r.align(8); // row
    r.align(8); // (so) object
    r.skipString();
    const path = readPath(r);
    r.align(8); // (so) application
    r.skipString();
    r.skipString();
    r.align(8); // (so) parent
    r.skipString();
    const parent = readPath(r);
    const index = r.int32();
    const childCount = r.int32();
    const interfaces = readInterfaces(r);
    const name = r.string();
    const role = r.uint32();
    const description = r.string();
    const states = readStates(r);
    nodes.push({
      path,
      parent: parentPathOf(parent, path),
      index,
      childCount,
      interfaces,
      name,
      role,
      description,
      states,
    });
  }
  return nodes;
}

/** An object path; `/org/a11y/atspi/accessible/<id>` is decoded once per id. */
function readPath(r: Reader): string {
  const length = r.uint32();
  const at = r.pos;
  const id = accessibleId(r.bytes, at, length, r.end);
  if (id < 0) {
    r.pos = at - 4;
    return r.string();
  }
  let path = pathsById.get(id);
  if (path === undefined) {
    r.pos = at - 4;
    path = r.string();
    if (pathsById.size >= MAX_PATHS) pathsById.clear();
    pathsById.set(id, path);
  } else {
    r.pos = at + length + 1;
  }
  return path;
}

/** The `<id>` of `/org/a11y/atspi/accessible/<id>` at `bytes[at..]`; -1 for any other path. */
function accessibleId(bytes: Uint8Array, at: number, length: number, end: number): number {
  const digits = length - PREFIX.length;
  if (digits < 1 || digits > MAX_ID_DIGITS || at + length + 1 > end) return -1;
  for (let i = 0; i < PREFIX.length; i++) {
    if (bytes[at + i] !== PREFIX[i]) return -1;
  }
  const first = at + PREFIX.length;
  if (bytes[first] === 0x30 && digits > 1) return -1; // "007" is not "7"
  let id = 0;
  for (let i = first; i < at + length; i++) {
    const digit = bytes[i] - 0x30;
    if (digit < 0 || digit > 9) return -1;
    id = id * 10 + digit;
  }
  return id;
}

/** An `as` of interface names; each distinct list is decoded once and shared (frozen). */
function readInterfaces(r: Reader): readonly string[] {
  const end = readArrayEnd(r, 4);
  const start = r.pos;
  const bytes = r.bytes;
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  const bucket = listsByHash.get(hash);
  if (bucket !== undefined) {
    for (const entry of bucket) {
      if (sameBytes(entry.bytes, bytes, start, end)) {
        r.pos = end;
        return entry.value;
      }
    }
  }
  const list: string[] = [];
  while (r.pos < end) list.push(r.string());
  const value = Object.freeze(list);
  if (listsByHash.size >= MAX_LISTS) listsByHash.clear();
  const entry = { bytes: bytes.slice(start, end), value };
  if (bucket !== undefined && listsByHash.has(hash)) bucket.push(entry);
  else listsByHash.set(hash, [entry]);
  return value;
}

function sameBytes(kept: Uint8Array, bytes: Uint8Array, start: number, end: number): boolean {
  if (kept.length !== end - start) return false;
  for (let i = 0; i < kept.length; i++) {
    if (kept[i] !== bytes[start + i]) return false;
  }
  return true;
}

/** An `au` state set; the usual two words are shared per distinct set (frozen). */
function readStates(r: Reader): StateSet {
  const end = readArrayEnd(r, 4);
  if (end - r.pos === 8) {
    const low = r.uint32();
    const high = r.uint32();
    // Words past bit 51 cannot share one exact number key; they are rare (no such states).
    if (high < 0x100000) {
      const key = high * 0x100000000 + low;
      let states = statesByKey.get(key);
      if (states === undefined) {
        if (statesByKey.size >= MAX_LISTS) statesByKey.clear();
        statesByKey.set(key, states = Object.freeze([low, high]));
      }
      return states;
    }
    return [low, high];
  }
  const states: number[] = [];
  while (r.pos < end) states.push(r.uint32());
  return states;
}
