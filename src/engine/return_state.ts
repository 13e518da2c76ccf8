/**
 * What an action call asks of its successor state (`return_state`), and what it notes before
 * anything is sent: the snapshot it was aimed from, the app's windows and its editable fields'
 * text. Small, so the registry loads it on every path; the successor itself (successor_state.ts)
 * is loaded only by a call that asked for one.
 *
 * @module
 */
import { DriverError } from "../ports/errors.ts";
import type { Snapshot, SnapshotElement } from "../kernel/snapshots.ts";
import type { ToolContext } from "../kernel/tool.ts";

/** What an action call may ask for. */
export type ReturnState = "none" | "diff" | "full";
/** The values `return_state` takes. */
export const RETURN_STATES: readonly ReturnState[] = ["none", "diff", "full"];

/** What the action aimed at, noted before it sent anything. */
export interface Aim {
  pid: number;
  windowId: number;
  base: Snapshot | undefined;
  windows: Set<number>;
  /** The text of the base snapshot's editable fields before the action (the tree carries no text). */
  texts: Map<string, string>;
}

/** Most editable fields whose text a successor reads (each is one call to the app). */
const MAX_TEXT_FIELDS = 50;

/** The text of the editable fields among `elements`, by element reference. */
export async function editableTexts(
  ctx: ToolContext,
  elements: readonly SnapshotElement[],
): Promise<Map<string, string>> {
  const fields = elements.filter((e) => e.interfaces?.includes("editable_text")).slice(0, MAX_TEXT_FIELDS);
  const texts = await Promise.all(fields.map((e) => ctx.backend.accessibility.text(e.ref).catch(() => null)));
  const out = new Map<string, string>();
  fields.forEach((e, i) => {
    if (texts[i] !== null) out.set(elementKey(e.ref), texts[i]!);
  });
  return out;
}

/** A call's request for its successor state. */
export interface SuccessorRequest {
  mode: "diff" | "full";
  aim?: Aim;
}

const requests = new WeakMap<ToolContext, SuccessorRequest>();

/** The successor request of a call, if it made one. */
export function successorRequest(ctx: ToolContext): SuccessorRequest | undefined {
  return requests.get(ctx);
}

/** How snapshots of two reads name the same element: the back end's reference, as JSON. */
export function elementKey(ref: unknown): string {
  return JSON.stringify(ref);
}

/**
 * Takes `return_state` out of a call's arguments (the tool's own schema does not know it).
 *
 * @throws {DriverError} `invalid_arguments` for another value.
 */
export function takeReturnState(args: Record<string, unknown>): ReturnState {
  const value = args.return_state;
  delete args.return_state;
  if (value === undefined || value === null) return "none";
  if (!RETURN_STATES.includes(value as ReturnState)) {
    throw new DriverError("invalid_arguments", `return_state must be none, diff or full`, {
      field: "return_state",
    });
  }
  return value as ReturnState;
}

/** Marks a call as wanting its successor state. */
export function requestSuccessor(ctx: ToolContext, mode: ReturnState): void {
  if (mode !== "none") requests.set(ctx, { mode });
}

/**
 * Notes the window an action aims at, before anything is sent: the snapshot it was aimed from
 * (the element's, else the session's newest of the window) and the windows its app has now.
 */
export async function noteAim(
  ctx: ToolContext,
  pid: number,
  windowId: number,
  from: Snapshot | undefined,
): Promise<void> {
  const request = requests.get(ctx);
  if (!request || request.aim) return;
  const windows = (await ctx.backend.windows.list()).filter((w) => w.pid === pid).map((w) => w.windowId);
  const base = from ?? ctx.state.snapshots.current(windowId, ctx.session.id);
  request.aim = {
    pid,
    windowId,
    base,
    windows: new Set(windows),
    texts: base ? await editableTexts(ctx, base.elements) : new Map(),
  };
}
