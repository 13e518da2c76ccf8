/**
 * Tab snapshots: the elements worth acting on, each with a ref `p<snapshot>:<index>`
 * that maps to the node's CDP `backendNodeId`. Only a tab's latest snapshot is live;
 * a ref from an older one is refused as `browser_ref_stale`.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
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
  /** The node's CDP id, looked up on first use (null until then); see {@linkcode backendNodeIdOf}. */
  backendNodeId: number | null;
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
/** Snapshots whose elements the page keeps (the live one and a few before it). */
const KEPT_SNAPSHOTS = 4;
/** The object group of {@linkcode objectIdOf}'s handles, released by the next snapshot. */
const REF_GROUP = "cua-driver-ref";

/**
 * Runs in the driver's isolated world of the page: collects and describes the elements
 * (from the document, or from element `scope[1]` of snapshot `scope[0]`) and keeps them
 * under the snapshot's id, so that a ref is resolved only when it is used. The last few
 * snapshots are kept (which one is live is decided by the driver, not here): a snapshot
 * whose reply the driver dropped never takes the live one's elements away.
 */
const SNAPSHOT_SCRIPT = `(options) => {
  const collect = ${COLLECT_ELEMENTS};
  const describe = ${DESCRIBE_ELEMENTS};
  const held = globalThis.__cuaSnapshots ??= new Map();
  let root = document.documentElement;
  if (options.scope) {
    root = held.get(options.scope[0])?.[options.scope[1]];
    if (!root || !root.isConnected) return { stale: true };
  }
  const elements = collect.call(root, options.content, options.limit);
  held.set(options.id, elements);
  for (const id of held.keys()) if (held.size > ${KEPT_SNAPSHOTS}) held.delete(id);
  return { url: location.href, title: document.title, infos: describe.call(elements, options.content) };
}`;

/**
 * Walks the tab's document (or the subtree of `scope`) and mints refs: one `Runtime.evaluate`
 * in the driver's isolated world (page scripts cannot see or change what it keeps). The refs'
 * DOM nodes stay there; {@linkcode backendNodeIdOf} looks one up when an action needs it.
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
  const scopeAt = scope ? parseRef(scope.ref) : null;
  const options = {
    content,
    limit: SNAPSHOT_LIMIT,
    id,
    scope: scopeAt ? [scopeAt.snapshot, scopeAt.index] : null,
  };
  void tab.send("Runtime.releaseObjectGroup", { objectGroup: REF_GROUP }).catch(() => {});
  const { value, loaderId } = await tab.world.evaluate(`(${SNAPSHOT_SCRIPT})(${JSON.stringify(options)})`);
  const page = value as { stale?: boolean; url: string; title: string; infos: RefInfo[] };
  if (page.stale) throw staleRef(scope!);
  return {
    id,
    format,
    url: page.url,
    loaderId,
    title: String(page.title ?? ""),
    refs: page.infos.map((info, index) => ({ ...info, ref: `p${id}:${index}`, backendNodeId: null })),
    truncated: page.infos.length >= SNAPSHOT_LIMIT,
  };
}

/**
 * The CDP `backendNodeId` of a ref's element, looked up (and remembered) on first use.
 *
 * @throws {DriverError} `browser_ref_stale` when the page no longer holds the ref's snapshot.
 */
export async function backendNodeIdOf(tab: Tab, ref: SnapshotRef): Promise<number> {
  if (ref.backendNodeId !== null) return ref.backendNodeId;
  const at = parseRef(ref.ref)!;
  const objectId = await tab.world.object(
    `globalThis.__cuaSnapshots?.get(${at.snapshot})?.[${at.index}] ?? null`,
  ).catch((error) => {
    if (error instanceof DriverError) throw error;
    return null; // the world is gone with its document
  });
  if (!objectId) throw staleRef(ref);
  try {
    const { node } = await tab.send("DOM.describeNode", { objectId });
    ref.backendNodeId = node.backendNodeId as number;
    return ref.backendNodeId;
  } finally {
    await tab.send("Runtime.releaseObject", { objectId }).catch(() => {});
  }
}

function staleRef(ref: SnapshotRef): DriverError {
  return new DriverError("browser_ref_stale", `Ref ${ref.ref} no longer points at an element of the page`, {
    ref: ref.ref,
    hint: "call get_browser_state with target_id and tab_id for fresh refs",
  });
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
export async function objectIdOf(tab: Tab, ref: SnapshotRef, objectGroup = REF_GROUP): Promise<string> {
  const backendNodeId = await backendNodeIdOf(tab, ref);
  let objectId: string | undefined;
  try {
    objectId = (await tab.send("DOM.resolveNode", { backendNodeId, objectGroup })).object?.objectId;
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
  if (!objectId || !connected) throw staleRef(ref);
  return objectId;
}
