/**
 * The before and after evidence of a turn: raw pixels of the target window (or the
 * display) and its accessibility tree as get_window_state renders it. Only capture
 * happens here, on the action path; encoding and writing come later (turn_writer.ts).
 *
 * @module
 */
import type { Backend } from "../../ports/backend.ts";
import type { Rect } from "../../ports/geometry.ts";
import type { RawImage } from "../../ports/screen.ts";
import { shapeTree } from "../../engine/ax_tree.ts";
import type { TurnTarget } from "./turn_target.ts";

/** Node budget of a recorded tree (get_window_state's default). */
const TREE_MAX_NODES = 5000;
/** A recorded tree read may not hold a turn up longer than this. */
const TREE_TIMEOUT_MS = 5_000;

/** before_state.json / after_state.json. */
export interface StateDocument {
  pid: number;
  window_id: number;
  element_count: number;
  tree_markdown: string;
}

/** Why a piece of evidence is missing (contract.md §7 classifications). */
export type EvidenceClassification =
  | "no_target_pid"
  | "capture_failed"
  | "privacy_suppressed"
  | "not_a_click_action"
  | "action_refused_before_target_resolution"
  | "action_refused_before_dispatch";

/** One evidence.json entry. */
export type EvidenceStatus =
  | { status: "captured" }
  | { status: "unavailable" | "not_applicable"; classification: EvidenceClassification; detail?: string };

/** What one capture produced. */
export interface Captured {
  /** Pixels and the screen rectangle they show. */
  shot: { image: RawImage; bounds: Rect } | null;
  state: StateDocument | null;
  shotStatus: EvidenceStatus;
  stateStatus: EvidenceStatus;
}

/** Captures the target's pixels and (for a window) its tree, side by side. */
export async function captureEvidence(backend: Backend, target: TurnTarget): Promise<Captured> {
  const [shot, state] = await Promise.allSettled([
    captureShot(backend, target),
    target.kind === "window" ? readState(backend, target.pid, target.windowId) : Promise.resolve(null),
  ]);
  const failed = (reason: unknown): EvidenceStatus => ({
    status: "unavailable",
    classification: "capture_failed",
    detail: reason instanceof Error ? reason.message : String(reason),
  });
  return {
    shot: shot.status === "fulfilled" ? shot.value : null,
    shotStatus: shot.status === "fulfilled" ? { status: "captured" } : failed(shot.reason),
    state: state.status === "fulfilled" ? state.value : null,
    stateStatus: target.kind === "display"
      ? { status: "not_applicable", classification: "no_target_pid" }
      : state.status === "fulfilled"
      ? { status: "captured" }
      : failed(state.reason),
  };
}

async function captureShot(backend: Backend, target: TurnTarget): Promise<{ image: RawImage; bounds: Rect }> {
  if (target.kind === "window") return await backend.screen.captureWindow(target.windowId);
  const [displays, image] = await Promise.all([
    backend.screen.displays(),
    backend.screen.captureDisplay("primary"),
  ]);
  const bounds = displays.find((d) => d.primary)?.bounds ?? displays[0]?.bounds ??
    { x: 0, y: 0, width: image.width, height: image.height };
  return { image, bounds };
}

async function readState(backend: Backend, pid: number, windowId: number): Promise<StateDocument> {
  const tree = await backend.accessibility.tree(
    pid,
    windowId,
    { maxNodes: TREE_MAX_NODES, maxDepth: Number.MAX_SAFE_INTEGER },
    AbortSignal.timeout(TREE_TIMEOUT_MS),
  );
  if (tree.error !== null && tree.nodes.length === 0) throw new Error(tree.error);
  // The markdown shows element indices only; this snapshot id is never registered.
  const shaped = shapeTree(tree.nodes, {
    snapshotId: "s00000000",
    maxElements: TREE_MAX_NODES,
    maxDepth: Number.MAX_SAFE_INTEGER,
  });
  return { pid, window_id: windowId, element_count: shaped.elements.length, tree_markdown: shaped.markdown };
}
