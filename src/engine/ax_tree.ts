/**
 * Turns a platform accessibility tree into what get_window_state returns:
 * indexed elements, the markdown outline and its projections (query, depth, node
 * budget, and hidden subtrees folded into one line each).
 *
 * An observation is paid for in an agent's context, so the outline carries what an agent
 * acts on and nothing twice: an element line has its index, role, label, value, state and
 * its actions only when there is more than one; a subtree that is not on screen (a closed
 * menu's items, the other pages of a notebook) is one summary line naming its first items
 * and the group id that `expand` takes. Every element keeps its index whether it is shown
 * or folded, so tokens are the same either way.
 *
 * @module
 */
import { AxInterface, type AxNode, AxRole } from "../ports/accessibility.ts";
import {
  BUTTON_ROLES,
  CLICKABLE_ROLES,
  PASSIVE_ROLES,
  SELECTABLE_ROLES,
  TOGGLE_ROLES,
} from "../ports/ax_roles.ts";

/**
 * Toggles whose unchecked state the outline says too; a toggle button, an item or a tab is
 * unselected unless it says so (structured rows give every toggle's state).
 */
const UNCHECKED_SAID: ReadonlySet<AxRole> = new Set<AxRole>(
  [...TOGGLE_ROLES].filter((role) => role !== AxRole.ToggleButton),
);

/** How many item names a folded group's summary line quotes. */
const SUMMARY_NAMES = 4;

/** One element row of get_window_state. */
export interface ElementRow {
  /** `<snapshot_id>:<element index>`. */
  element_token: string;
  role: string;
  label: string;
  value?: string;
  selected?: boolean;
  focused?: boolean;
  /** Present when the element has more than one action (one action is what a click does). */
  actions?: string[];
  /** Screen points. */
  frame?: { x: number; y: number; w: number; h: number };
  /** The frame's centre as [x, y] in pixels of the screenshot returned with it (set by the caller). */
  center?: [number, number];
}

/** A subtree that is not on screen, folded into one line. */
export interface HiddenGroup {
  /** What `expand` takes: `h1`, `h2`, ... in tree order. */
  id: string;
  /** Nodes in the group. */
  nodes: number;
  /** Element indices inside it. */
  elements: number[];
}

/** The shaped tree. */
export interface ShapedTree {
  /** Every indexable node within the budget, in pre-order (folded or not); the position is the index. */
  elements: ElementRow[];
  /** Node index (into the input list) of each element. */
  elementNodes: number[];
  /** The elements the outline shows (after query and folding), for structured output. */
  shown: ElementRow[];
  markdown: string;
  /**
   * Action lists shared by every multi-action element of a role (at least three of them),
   * said once here instead of on each element.
   */
  roleActions: Record<string, string[]>;
  hiddenGroups: HiddenGroup[];
  /** Nodes in the input. */
  nodeCount: number;
  /** Nodes emitted after max_elements/max_depth. */
  emittedNodeCount: number;
  truncated: boolean;
}

/** Options for {@linkcode shapeTree}. */
export interface ShapeOptions {
  snapshotId: string;
  maxElements: number;
  maxDepth: number;
  /** Case-insensitive filter: matching lines (folded ones too) and their ancestors. */
  query?: string;
  /** Hidden groups to unfold (`h1`, ...), or `"all"`. */
  expand?: readonly string[] | "all";
}

/** True when an agent can act on the node, so it gets an element index. */
export function isIndexable(node: AxNode): boolean {
  if (!node.enabled) return false;
  if (PASSIVE_ROLES.has(node.role)) return false;
  return node.actions.length > 0 || node.editable || node.interfaces.includes(AxInterface.Value) ||
    node.interfaces.includes(AxInterface.EditableText) ||
    (BUTTON_ROLES.has(node.role) && node.interfaces.includes(AxInterface.Component)) ||
    (CLICKABLE_ROLES.has(node.role) && node.frame !== null);
}

/** Off screen with no geometry: its subtree cannot be seen or pointed at right now. */
function isHidden(node: AxNode): boolean {
  return !node.showing && (node.frame === null || node.frame.width <= 0 || node.frame.height <= 0);
}

/** A node's label with the padding some toolkits add (menu accelerators) removed. */
export function nodeLabel(node: AxNode): string {
  return (node.name || node.value || node.description || "").trim();
}

interface Line {
  text: string;
  node: number;
  matches: boolean;
  /** Group the line is folded into, or null. */
  group: number | null;
}

/**
 * Indexes and renders a tree. Element indices are assigned in pre-order among
 * indexable nodes within the emitted budget; the query and folding only filter rendering.
 */
export function shapeTree(nodes: readonly AxNode[], options: ShapeOptions): ShapedTree {
  const elements: ElementRow[] = [];
  const elementNodes: number[] = [];
  const indexOfNode = new Map<number, number>();
  const lines: Line[] = [];
  const groupOfNode = new Map<number, number>();
  const groups: FoldGroup[] = [];
  const query = options.query?.trim().toLowerCase() || undefined;
  let emitted = 0;
  let truncated = false;
  const skipped = new Set<number>();
  const roleActions = sharedActions(nodes);
  // Outline level: ancestors that have a line of their own (unnamed containers add no indent).
  const level = new Int32Array(nodes.length);
  const hasLine = new Uint8Array(nodes.length);

  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    if (node.parent >= 0 && skipped.has(node.parent)) {
      skipped.add(i);
      continue;
    }
    if (node.depth > options.maxDepth || emitted >= options.maxElements) {
      skipped.add(i);
      truncated = true;
      continue;
    }
    emitted++;
    level[i] = node.parent < 0 ? 0 : level[node.parent] + hasLine[node.parent];
    const group = groupFor(nodes, i, groupOfNode, groups, level[i]);
    const label = nodeLabel(node);
    const indent = "  ".repeat(level[i]);
    let text: string | null = null;
    if (isIndexable(node)) {
      const index = elements.length;
      indexOfNode.set(i, index);
      elementNodes.push(i);
      elements.push(elementRow(node, index, label, options.snapshotId, roleActions));
      if (group !== null) groups[group].elements.push(index);
      const value = node.value && node.value.trim() !== label ? ` value=${quoted(node.value)}` : "";
      const actions = node.actions.length > 1 && !roleActions[node.platformRole]
        ? ` actions=[${node.actions.join(",")}]`
        : "";
      text = `${indent}- [${index}] ${node.platformRole}${label ? ` ${quoted(label)}` : ""}${value}` +
        `${stateSuffix(node)}${actions}`;
    } else if (label) {
      text = `${indent}- ${node.platformRole} = ${quoted(label)}`;
    } else if (node.depth === 0) {
      text = `${indent}- ${node.platformRole}`;
    }
    if (group !== null && label && groups[group].names.length < SUMMARY_NAMES) {
      groups[group].names.push(label);
    }
    if (text !== null) {
      hasLine[i] = 1;
      const matches = query === undefined || text.toLowerCase().includes(query);
      lines.push({ text, node: i, matches, group });
    }
  }

  const unfolded = new Set(
    options.expand === "all" ? groups.map((g) => g.id) : (options.expand ?? []).map((id) => id.trim()),
  );
  const shownLines = query === undefined
    ? fold(lines, groups, unfolded)
    : filter(nodes, lines).map((l) => ({ text: l.text, node: l.node }));
  const shown = shownLines.flatMap((l) => {
    const index = indexOfNode.get(l.node);
    return index === undefined ? [] : [elements[index]];
  });
  const legend = Object.entries(roleActions).map(([role, list]) =>
    `- (every ${role}: actions=[${list.join(",")}])`
  );
  return {
    elements,
    elementNodes,
    shown,
    markdown: [...legend, ...shownLines.map((l) => l.text)].join("\n"),
    roleActions,
    hiddenGroups: groups.map(({ id, nodes, elements }) => ({ id, nodes, elements })),
    nodeCount: nodes.length,
    emittedNodeCount: emitted,
    truncated,
  };
}

/** A hidden group while shaping: where it hangs, its outline level and the names it quotes. */
type FoldGroup = HiddenGroup & { parent: number; level: number; names: string[] };

/** The hidden group node `i` belongs to (opening one when it starts a hidden subtree), or null. */
function groupFor(
  nodes: readonly AxNode[],
  i: number,
  groupOfNode: Map<number, number>,
  groups: FoldGroup[],
  level: number,
): number | null {
  const node = nodes[i];
  if (node.parent < 0) return null;
  const inherited = groupOfNode.get(node.parent);
  let group: number | null = inherited ?? null;
  if (group === null && isHidden(node)) {
    // Hidden siblings under one parent share a group, so a closed menu is one line.
    const last = groups.at(-1);
    if (last && last.parent === node.parent) group = groups.length - 1;
    else {
      groups.push({
        id: `h${groups.length + 1}`,
        parent: node.parent,
        level,
        nodes: 0,
        elements: [],
        names: [],
      });
      group = groups.length - 1;
    }
  }
  if (group !== null) {
    groupOfNode.set(i, group);
    groups[group].nodes++;
  }
  return group;
}

/** Lines with folded groups replaced by their summary line (at the first line of the group). */
function fold(
  lines: Line[],
  groups: FoldGroup[],
  unfolded: ReadonlySet<string>,
): { text: string; node: number }[] {
  const out: { text: string; node: number }[] = [];
  const summarized = new Set<number>();
  for (const line of lines) {
    if (line.group === null || unfolded.has(groups[line.group].id)) {
      out.push(line);
      continue;
    }
    if (summarized.has(line.group)) continue;
    summarized.add(line.group);
    const group = groups[line.group];
    const indent = "  ".repeat(group.level);
    const names = group.names.map((n) => JSON.stringify(n)).join(", ");
    const more = group.nodes > group.names.length ? ", ..." : "";
    const actionable = group.elements.length
      ? `${group.elements.length} element${group.elements.length === 1 ? "" : "s"} [${group.elements[0]}` +
        `${group.elements.length > 1 ? `-${group.elements.at(-1)}` : ""}]`
      : "no elements";
    out.push({
      text:
        `${indent}- (not on screen: ${group.nodes} nodes, ${actionable}${
          names ? `: ${names}${more}` : ""
        }; ` +
        `expand "${group.id}")`,
      node: -1,
    });
  }
  return out;
}

/** Matching lines plus the chain of ancestors that have a line. */
function filter(nodes: readonly AxNode[], lines: Line[]): Line[] {
  const keep = new Set<number>();
  const lineOfNode = new Map(lines.map((l) => [l.node, l]));
  for (const line of lines) {
    if (!line.matches) continue;
    for (let n = line.node; n >= 0; n = nodes[n].parent) {
      if (lineOfNode.has(n)) keep.add(n);
    }
  }
  return lines.filter((l) => keep.has(l.node));
}

/** Roles whose multi-action elements (three or more) all share one action list. */
function sharedActions(nodes: readonly AxNode[]): Record<string, string[]> {
  const lists = new Map<string, { key: string | null; actions: string[]; count: number }>();
  for (const node of nodes) {
    if (node.actions.length < 2 || !isIndexable(node)) continue;
    const key = node.actions.join("\u0000");
    const seen = lists.get(node.platformRole);
    if (!seen) lists.set(node.platformRole, { key, actions: node.actions, count: 1 });
    else if (seen.key === key) seen.count++;
    else seen.key = null;
  }
  const shared: Record<string, string[]> = {};
  for (const [role, { key, actions, count }] of lists) {
    if (key !== null && count >= 3) shared[role] = [...actions];
  }
  return shared;
}

function elementRow(
  node: AxNode,
  index: number,
  label: string,
  snapshotId: string,
  roleActions: Record<string, string[]>,
): ElementRow {
  const row: ElementRow = {
    element_token: `${snapshotId}:${index}`,
    role: node.platformRole,
    label,
  };
  // The value is its own field even when the label fell back to it: programs read values here.
  if (node.value) row.value = node.value;
  if (node.selected !== null && SELECTABLE_ROLES.has(node.role)) {
    if (node.selected || TOGGLE_ROLES.has(node.role)) row.selected = node.selected;
  }
  if (node.focused) row.focused = true;
  if (node.actions.length > 1 && !roleActions[node.platformRole]) row.actions = [...node.actions];
  if (node.frame) {
    row.frame = { x: node.frame.x, y: node.frame.y, w: node.frame.width, h: node.frame.height };
  }
  return row;
}

/** Long text is cut in the outline (the element's structured row has all of it). */
const OUTLINE_TEXT = 200;

function quoted(text: string): string {
  if (text.length <= OUTLINE_TEXT + 40) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, OUTLINE_TEXT))}...(+${text.length - OUTLINE_TEXT} chars)`;
}

function stateSuffix(node: AxNode): string {
  const parts: string[] = [];
  if (node.selected !== null && SELECTABLE_ROLES.has(node.role)) {
    if (node.selected) parts.push(TOGGLE_ROLES.has(node.role) ? "checked" : "selected");
    else if (UNCHECKED_SAID.has(node.role)) parts.push("unchecked");
  }
  if (node.focused) parts.push("focused");
  return parts.length ? ` (${parts.join(", ")})` : "";
}
