/**
 * One accessible object as fetched from an application, before it is shaped into
 * an `AxNode`, and the decoding of `Cache.GetItems` rows into it.
 *
 * @module
 */
import type { StateSet } from "./states.ts";

/** An accessible object of one application (all paths are on that application's bus name). */
export interface RawNode {
  path: string;
  /** Parent object path, or null for the application root. */
  parent: string | null;
  /** Index in the parent as the toolkit reports it; -1 when unknown. */
  index: number;
  /** Number of children; -1 when the toolkit does not say (descendant-managing containers). */
  childCount: number;
  /** Full D-Bus interface names. */
  interfaces: readonly string[];
  name: string;
  /** `AtspiRole` value. */
  role: number;
  description: string;
  states: StateSet;
  /** Child paths in `GetChildren` order, when they were fetched; otherwise derived from `index`. */
  children?: string[];
}

/** The `Cache.GetItems` row signature this module decodes. */
export const CACHE_ITEM_SIGNATURE = "((so)(so)(so)iiassusau)";

const NULL_PATH = "/org/a11y/atspi/null";

/**
 * Decodes one `Cache.GetItems` row: `((so)(so)(so)iiassusau)` = object, application,
 * parent, index in parent, child count, interfaces, name, role, description, states.
 *
 * @returns The node, or null when the row does not have that shape (old at-spi2 versions
 *   sent a children list instead of index and count).
 */
export function fromCacheItem(item: unknown): RawNode | null {
  if (!Array.isArray(item) || item.length !== 10) return null;
  const [object, , parent, index, childCount, interfaces, name, role, description, states] = item as [
    [string, string],
    unknown,
    [string, string],
    number,
    number,
    string[],
    string,
    number,
    string,
    number[],
  ];
  if (typeof index !== "number" || typeof childCount !== "number" || !Array.isArray(states)) return null;
  const parentPath = parent[1];
  return {
    path: object[1],
    parent: parentPathOf(parentPath, object[1]),
    index,
    childCount,
    interfaces,
    name,
    role,
    description,
    states,
  };
}

/** A cache row's parent path, or null for none (the null path, empty, or the object itself). */
export function parentPathOf(parent: string, path: string): string | null {
  return parent === NULL_PATH || parent === "" || parent === path ? null : parent;
}
