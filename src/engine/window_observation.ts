/**
 * From a window's accessibility tree to a registered snapshot: the tree shaped (indexed,
 * rendered) and its elements remembered under a fresh snapshot id, so their tokens work. Shared
 * by get_window_state and the successor state an action returns (`return_state`).
 *
 * @module
 */
import { type ShapedTree, shapeTree } from "./ax_tree.ts";
import type { Snapshot } from "../kernel/snapshots.ts";
import type { ToolContext } from "../kernel/tool.ts";
import type { AxTree } from "../ports/accessibility.ts";

/** How to shape the tree. */
export interface ObservationOptions {
  maxElements: number;
  maxDepth: number;
  query?: string;
  expand?: string[] | "all";
}

/** A registered observation. */
export interface WindowObservation {
  snapshot: Snapshot;
  /** Snapshot ids the new one replaced. */
  invalidated: string[];
  shaped: ShapedTree;
}

/** Shapes `tree` and registers its elements as the window's newest snapshot in the call's session. */
export function registerObservation(
  ctx: Pick<ToolContext, "state" | "session">,
  pid: number,
  windowId: number,
  tree: AxTree,
  options: ObservationOptions,
): WindowObservation {
  const snapshotId = ctx.state.snapshots.reserveId();
  const shaped = shapeTree(tree.nodes, { snapshotId, ...options });
  const { snapshot, invalidated } = ctx.state.snapshots.register(
    pid,
    windowId,
    shaped.elements.map((row, i) => {
      const node = tree.nodes[shaped.elementNodes[i]];
      return {
        index: i,
        role: node.role,
        platformRole: row.role,
        label: row.label,
        value: row.value,
        focused: row.focused,
        ref: node.ref,
        frame: node.frame,
        actions: node.actions,
        interfaces: node.interfaces,
      };
    }),
    snapshotId,
    ctx.session.id,
    // A query shows part of the tree: the tokens already in hand stay valid.
    Boolean(options.query?.trim()),
  );
  return { snapshot, invalidated, shaped };
}
