/**
 * Resolving an application-menu path in one window's accessibility tree: the first
 * segment among the items of the window's menu bar, each later one among the items of
 * the menu the previous segment named. Matching is exact (accessible name equality);
 * a missing, duplicated or disabled segment stops the walk at that level.
 *
 * @module
 */
import { type AxNode, AxRole } from "../../src/ports/accessibility.ts";

/** Roles a path segment may name. */
const ITEM_ROLES: ReadonlySet<AxRole> = new Set<AxRole>([
  AxRole.Menu,
  AxRole.MenuItem,
  AxRole.CheckMenuItem,
  AxRole.RadioMenuItem,
]);

/**
 * Containers some toolkits put between a menu and its items, looked through and never
 * matched: groups and sections, an unnamed menu, and a menu right under an item (Qt and
 * UI Automation: menu item, then its popup menu, then the items).
 */
const TRANSPARENT_ROLES: ReadonlySet<AxRole> = new Set<AxRole>([AxRole.Group, AxRole.Section]);

function transparent(nodes: readonly AxNode[], i: number): boolean {
  const node = nodes[i];
  if (TRANSPARENT_ROLES.has(node.role)) return true;
  if (node.role !== AxRole.Menu) return false;
  const parent = nodes[node.parent];
  return node.name === "" ||
    (parent !== undefined && parent.role !== AxRole.Menu && ITEM_ROLES.has(parent.role));
}

/** Why a segment could not be resolved. */
export type MenuPathProblem =
  | "no_menu_bar" // the window exposes no menu bar
  | "missing" // no item of that name at this level
  | "ambiguous" // several items of that name at this level
  | "disabled"; // the item exists but is insensitive

/** The outcome of resolving segments `0..upTo` of a path. */
export type MenuResolution =
  | { ok: true; chain: number[] }
  | {
    ok: false;
    /** Index of the segment that failed. */
    level: number;
    problem: MenuPathProblem;
    /** Names of the items at that level (what the caller could have asked for). */
    available: string[];
    /** Node indices of the segments resolved before it. */
    chain: number[];
  };

/** Child node indices of every node, from the parent links of a pre-order list. */
export function childIndex(nodes: readonly AxNode[]): number[][] {
  const children: number[][] = nodes.map(() => []);
  nodes.forEach((node, i) => {
    if (node.parent >= 0) children[node.parent].push(i);
  });
  return children;
}

/** The menu items directly under a menu bar or menu, looking through transparent containers. */
export function menuItems(nodes: readonly AxNode[], children: readonly number[][], parent: number): number[] {
  const items: number[] = [];
  const stack = [...children[parent]].reverse();
  while (stack.length > 0) {
    const i = stack.pop()!;
    if (transparent(nodes, i)) stack.push(...[...children[i]].reverse());
    else if (ITEM_ROLES.has(nodes[i].role) && nodes[i].name.trim() !== "") items.push(i);
  }
  return items;
}

/** Decides which menu bars of a tree are the window's own (all by default). */
export type MenuBarFilter = (node: AxNode) => boolean;

/** The items of every menu bar of the window that `isBar` keeps, in tree order. */
export function menuBarItems(
  nodes: readonly AxNode[],
  children: readonly number[][],
  isBar: MenuBarFilter = () => true,
): number[] | null {
  const bars = nodes.flatMap((node, i) => node.role === AxRole.MenuBar && isBar(node) ? [i] : []);
  if (bars.length === 0) return null;
  return bars.flatMap((bar) => menuItems(nodes, children, bar));
}

/** Resolves segments `0..upTo` of `path` in a tree, re-walking the lineage from the menu bar. */
export function resolveMenuPath(
  nodes: readonly AxNode[],
  path: readonly string[],
  upTo: number,
  isBar?: MenuBarFilter,
): MenuResolution {
  const children = childIndex(nodes);
  const chain: number[] = [];
  let candidates = menuBarItems(nodes, children, isBar);
  if (candidates === null) return { ok: false, level: 0, problem: "no_menu_bar", available: [], chain };
  for (let level = 0; level <= upTo; level++) {
    // Toolkits pad item names for their accelerator column ("Save As...      "): compare trimmed.
    const available = candidates.map((i) => nodes[i].name.trim());
    const matches = candidates.filter((i) => nodes[i].name.trim() === path[level].trim());
    const problem: MenuPathProblem | null = matches.length === 0
      ? "missing"
      : matches.length > 1
      ? "ambiguous"
      : nodes[matches[0]].enabled
      ? null
      : "disabled";
    if (problem !== null) return { ok: false, level, problem, available, chain };
    chain.push(matches[0]);
    candidates = menuItems(nodes, children, matches[0]);
  }
  return { ok: true, chain };
}

/** True for items whose checked state is their effect (check and radio menu items). */
export function isToggleItem(role: AxRole): boolean {
  return role === AxRole.CheckMenuItem || role === AxRole.RadioMenuItem;
}
