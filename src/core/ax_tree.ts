/**
 * Turns a platform accessibility tree into what get_window_state returns:
 * indexed elements, the markdown outline and the query projection.
 *
 * @module
 */
import { AxInterface, type AxNode } from "../platform/types.ts";
import { BUTTON_ROLES, PASSIVE_ROLES, SELECTABLE_ROLES } from "./ax_roles.ts";

/** One element row of get_window_state. */
export interface ElementRow {
  element_index: number;
  element_token: string;
  /** The platform's role name (what agents see). */
  role: string;
  depth: number;
  label: string;
  value?: string;
  enabled?: boolean;
  selected?: boolean;
  focused?: boolean;
  parent_index?: number;
  actions?: string[];
  frame?: { x: number; y: number; w: number; h: number };
}

/** The shaped tree. */
export interface ShapedTree {
  /** Indexable nodes, in pre-order. */
  elements: ElementRow[];
  /** Node index (into the input list) of each element. */
  elementNodes: number[];
  markdown: string;
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
  query?: string;
}

/** True when an agent can act on the node, so it gets an element index. */
export function isIndexable(node: AxNode): boolean {
  if (!node.enabled) return false;
  if (PASSIVE_ROLES.has(node.role)) return false;
  return node.actions.length > 0 || node.editable || node.interfaces.includes(AxInterface.Value) ||
    node.interfaces.includes(AxInterface.EditableText) ||
    (BUTTON_ROLES.has(node.role) && node.interfaces.includes(AxInterface.Component));
}

/**
 * Indexes and renders a tree. Element indices are assigned in pre-order among
 * indexable nodes within the emitted budget; the query only filters rendering.
 */
export function shapeTree(nodes: readonly AxNode[], options: ShapeOptions): ShapedTree {
  const elements: ElementRow[] = [];
  const elementNodes: number[] = [];
  const indexOfNode = new Map<number, number>();
  const lines: { text: string; node: number; matches: boolean }[] = [];
  const query = options.query?.trim().toLowerCase() || undefined;
  let emitted = 0;
  let truncated = false;
  const skipped = new Set<number>();

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
    const label = node.name || node.value || node.description || "";
    const indent = "  ".repeat(node.depth);
    let text: string | null = null;
    if (isIndexable(node)) {
      const index = elements.length;
      indexOfNode.set(i, index);
      elementNodes.push(i);
      elements.push(elementRow(nodes, i, index, label, options.snapshotId, indexOfNode));
      const value = node.value && node.value !== label ? ` value=${JSON.stringify(node.value)}` : "";
      const actions = node.actions.length ? ` actions=[${node.actions.join(",")}]` : "";
      const state = stateSuffix(node);
      text = `${indent}- [${index}] ${node.platformRole} ${JSON.stringify(label)}${value}${state}${actions}`;
    } else if (label) {
      text = `${indent}- ${node.platformRole} = ${JSON.stringify(label)}`;
    } else if (node.depth === 0) {
      text = `${indent}- ${node.platformRole}`;
    }
    if (text !== null) {
      const matches = query === undefined || text.toLowerCase().includes(query);
      lines.push({ text, node: i, matches });
    }
  }

  return {
    elements,
    elementNodes,
    markdown: renderLines(nodes, lines, query !== undefined),
    nodeCount: nodes.length,
    emittedNodeCount: emitted,
    truncated,
  };
}

function elementRow(
  nodes: readonly AxNode[],
  i: number,
  index: number,
  label: string,
  snapshotId: string,
  indexOfNode: Map<number, number>,
): ElementRow {
  const node = nodes[i];
  const row: ElementRow = {
    element_index: index,
    element_token: `${snapshotId}:${index}`,
    role: node.platformRole,
    depth: node.depth,
    label,
  };
  if (node.value) row.value = node.value;
  row.enabled = node.enabled;
  if (node.selected !== null && SELECTABLE_ROLES.has(node.role)) row.selected = node.selected;
  if (node.focused) row.focused = true;
  for (let p = node.parent; p >= 0; p = nodes[p].parent) {
    const parentIndex = indexOfNode.get(p);
    if (parentIndex !== undefined) {
      row.parent_index = parentIndex;
      break;
    }
  }
  if (node.actions.length) row.actions = [...node.actions];
  if (node.frame) {
    row.frame = { x: node.frame.x, y: node.frame.y, w: node.frame.width, h: node.frame.height };
  }
  return row;
}

function stateSuffix(node: AxNode): string {
  const parts: string[] = [];
  if (node.selected !== null && SELECTABLE_ROLES.has(node.role)) {
    parts.push(node.selected ? "checked" : "unchecked");
  }
  if (node.focused) parts.push("focused");
  return parts.length ? ` (${parts.join(", ")})` : "";
}

function renderLines(
  nodes: readonly AxNode[],
  lines: { text: string; node: number; matches: boolean }[],
  filtered: boolean,
): string {
  if (!filtered) return lines.map((l) => l.text).join("\n");
  // Keep matching lines plus the chain of ancestors that have a line.
  const keep = new Set<number>();
  const lineOfNode = new Map(lines.map((l) => [l.node, l]));
  for (const line of lines) {
    if (!line.matches) continue;
    for (let n = line.node; n >= 0; n = nodes[n].parent) {
      if (lineOfNode.has(n)) keep.add(n);
    }
  }
  return lines.filter((l) => keep.has(l.node)).map((l) => l.text).join("\n");
}
