/**
 * Tab snapshots: the elements worth acting on, each with a ref `p<snapshot>:<index>`
 * that maps to the node's CDP `backendNodeId`. Only a tab's latest snapshot is live;
 * a ref from an older one is refused as `browser_ref_stale`.
 *
 * @module
 */
import { DriverError } from "../errors.ts";
import { COLLECT_ELEMENTS, DESCRIBE_ELEMENTS, IS_CONNECTED } from "./_page_scripts.ts";
import type { Tab } from "./tab.ts";

/** What the page reports about one element. */
export interface RefInfo {
  kind: "control" | "content";
  tag: string;
  role: string;
  name: string;
  type: string | null;
  value: string | null;
  depth: number;
  level: number | null;
  checked: boolean | null;
  disabled: boolean;
  editable: boolean;
  focused: boolean;
  href: string | null;
  id: string | null;
  multiple: boolean | null;
  draggable: boolean;
  scrollable: boolean;
  /** Viewport CSS pixels at snapshot time. */
  bounds: { x: number; y: number; width: number; height: number };
}

/** One ref of a snapshot. */
export interface SnapshotRef extends RefInfo {
  ref: string;
  backendNodeId: number;
}

/** Snapshot formats of get_browser_state. */
export type SnapshotFormat = "dom_refs_v1" | "semantic_v2";

/** A tab's snapshot. */
export interface Snapshot {
  /** The number in `p<id>:<index>`, unique in the runtime. */
  id: number;
  format: SnapshotFormat;
  url: string;
  loaderId: string;
  title: string;
  refs: SnapshotRef[];
  /** True when the element limit cut the walk short. */
  truncated: boolean;
}

/** Most elements one snapshot walks. */
export const SNAPSHOT_LIMIT = 2000;
const GROUP = "cua-driver-snapshot";

/**
 * Walks the tab's document (or the subtree of `scope`) and mints refs.
 *
 * @throws {DriverError} `browser_ref_stale` when the scope node is gone.
 */
export async function takeSnapshot(
  tab: Tab,
  id: number,
  format: SnapshotFormat,
  scope: SnapshotRef | null,
): Promise<Snapshot> {
  const content = format === "semantic_v2";
  try {
    const scopeId = scope
      ? await objectIdOf(tab, scope)
      : (await tab.send("Runtime.evaluate", { expression: "document.documentElement", objectGroup: GROUP }))
        .result.objectId;
    const { result: array } = await tab.send("Runtime.callFunctionOn", {
      functionDeclaration: COLLECT_ELEMENTS,
      objectId: scopeId,
      arguments: [{ value: content }, { value: SNAPSHOT_LIMIT }],
      objectGroup: GROUP,
    });
    const described = await tab.send("Runtime.callFunctionOn", {
      functionDeclaration: DESCRIBE_ELEMENTS,
      objectId: array.objectId,
      arguments: [{ value: content }],
      returnByValue: true,
    });
    const infos = described.result.value as RefInfo[];
    const { result: props } = await tab.send("Runtime.getProperties", {
      objectId: array.objectId,
      ownProperties: true,
    });
    const handles = (props as { name: string; value?: { objectId?: string } }[])
      .filter((p) => /^\d+$/.test(p.name) && p.value?.objectId)
      .sort((a, b) => Number(a.name) - Number(b.name));
    const nodes = await Promise.all(
      handles.map((h) => tab.send("DOM.describeNode", { objectId: h.value!.objectId })),
    );
    const [{ frameTree }, title] = await Promise.all([
      tab.send("Page.getFrameTree"),
      tab.send("Runtime.evaluate", { expression: "document.title", returnByValue: true }),
    ]);
    return {
      id,
      format,
      url: frameTree.frame.url,
      loaderId: frameTree.frame.loaderId,
      title: String(title.result.value ?? ""),
      refs: infos.map((info, index) => ({
        ...info,
        ref: `p${id}:${index}`,
        backendNodeId: nodes[index].node.backendNodeId as number,
      })),
      truncated: infos.length >= SNAPSHOT_LIMIT,
    };
  } finally {
    await tab.send("Runtime.releaseObjectGroup", { objectGroup: GROUP }).catch(() => {});
  }
}

/** Parses `p<snapshot>:<index>`. */
export function parseRef(ref: string): { snapshot: number; index: number } | null {
  const match = /^p(\d+):(\d+)$/.exec(ref);
  return match ? { snapshot: Number(match[1]), index: Number(match[2]) } : null;
}

/**
 * A live remote object for a ref's node (released with `objectGroup`).
 *
 * @throws {DriverError} `browser_ref_stale` when the node left the document.
 */
export async function objectIdOf(tab: Tab, ref: SnapshotRef, objectGroup = GROUP): Promise<string> {
  let objectId: string | undefined;
  try {
    objectId = (await tab.send("DOM.resolveNode", { backendNodeId: ref.backendNodeId, objectGroup })).object
      ?.objectId;
  } catch (error) {
    if (error instanceof DriverError) throw error;
  }
  const connected = objectId
    ? (await tab.send("Runtime.callFunctionOn", {
      functionDeclaration: IS_CONNECTED,
      objectId,
      returnByValue: true,
    })).result.value === true
    : false;
  if (!objectId || !connected) {
    throw new DriverError("browser_ref_stale", `Ref ${ref.ref} no longer points at an element of the page`, {
      ref: ref.ref,
      hint: "call get_browser_state with target_id and tab_id for fresh refs",
    });
  }
  return objectId;
}
