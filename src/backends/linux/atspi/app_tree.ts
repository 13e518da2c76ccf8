/**
 * The accessible objects of one application, indexed by path, with ordered children.
 *
 * @module
 */
import type { RawNode } from "./raw_node.ts";

/** An application's objects. Children come from `GetChildren` when fetched, else from `index`. */
export class AppTree {
  readonly nodes = new Map<string, RawNode>();
  /** Children lists by parent path, built on first use (shared: callers do not modify them). */
  #derived: Map<string, readonly RawNode[]> | null = null;
  readonly #fetched = new Map<string, readonly RawNode[]>();

  constructor(nodes: Iterable<RawNode> = []) {
    for (const node of nodes) this.nodes.set(node.path, node);
  }

  /** Adds or replaces nodes; child lists are recomputed on next use. */
  add(nodes: Iterable<RawNode>): void {
    for (const node of nodes) this.nodes.set(node.path, node);
    this.#derived = null;
    this.#fetched.clear();
  }

  /** Records the `GetChildren` order of `path`. */
  setChildren(path: string, children: string[]): void {
    const node = this.nodes.get(path);
    if (node) node.children = children;
    this.#fetched.delete(path);
  }

  /**
   * Records the `GetChildren` lists of `parents` (null where the call failed) and returns
   * the children not read yet, with their parent and position, to read next.
   */
  adoptChildren(
    parents: readonly RawNode[],
    lists: readonly (string[] | null)[],
  ): { path: string; parent: string; index: number }[] {
    const unknown: { path: string; parent: string; index: number }[] = [];
    parents.forEach((node, i) => {
      const list = lists[i];
      if (list === null) return;
      this.setChildren(node.path, list);
      list.forEach((path, index) => {
        if (!this.get(path)) unknown.push({ path, parent: node.path, index });
      });
    });
    return unknown;
  }

  get(path: string): RawNode | undefined {
    return this.nodes.get(path);
  }

  get size(): number {
    return this.nodes.size;
  }

  /**
   * Known children of `path` in order. A fetched `GetChildren` list wins; otherwise
   * children sort by their reported index, and those with index -1 follow in arrival order.
   * The list is shared between calls until the tree changes: do not modify it.
   */
  children(path: string): readonly RawNode[] {
    const node = this.nodes.get(path);
    if (node?.children) {
      let list = this.#fetched.get(path);
      if (list === undefined) {
        const out: RawNode[] = [];
        for (const child of node.children) {
          const found = this.nodes.get(child);
          if (found) out.push(found);
        }
        this.#fetched.set(path, list = out);
      }
      return list;
    }
    return this.#derivedChildren().get(path) ?? NO_CHILDREN;
  }

  /** True when some child of `path` has no usable index, so its order is unknown. */
  hasUnorderedChildren(path: string): boolean {
    return this.children(path).some((child) => child.index < 0);
  }

  #derivedChildren(): Map<string, readonly RawNode[]> {
    if (this.#derived) return this.#derived;
    const byParent = new Map<string, RawNode[]>();
    for (const node of this.nodes.values()) {
      if (node.parent === null) continue;
      const list = byParent.get(node.parent);
      if (list === undefined) byParent.set(node.parent, [node]);
      else list.push(node);
    }
    for (const list of byParent.values()) {
      // Array.prototype.sort is stable, so index -1 nodes keep arrival order at the end.
      if (!inOrder(list)) list.sort((a, b) => sortKey(a) - sortKey(b));
    }
    this.#derived = byParent;
    return byParent;
  }
}

const NO_CHILDREN: readonly RawNode[] = Object.freeze([]);

function sortKey(node: RawNode): number {
  return node.index < 0 ? Number.MAX_SAFE_INTEGER : node.index;
}

function inOrder(list: readonly RawNode[]): boolean {
  for (let i = 1; i < list.length; i++) {
    if (sortKey(list[i - 1]) > sortKey(list[i])) return false;
  }
  return true;
}
