/**
 * The successor state an action returns when asked (`return_state: "diff" | "full"`): the target
 * window's tree read again after the action, registered as a new snapshot (fresh tokens that work),
 * and either in full or as the difference from the snapshot the action was aimed from: elements
 * added, removed and changed (label, value, focus, frame, and the text of editable fields, read
 * from the app before and after), matched by the back end's element reference. Windows the target's app opened during the action (a dialog) come with all their
 * elements. The aim (base snapshot and the app's windows) is noted when the target resolves,
 * before any input is sent; nothing about the action is replayed.
 *
 * @module
 */
import type { ElementRow } from "../ax_tree.ts";
import { asDriverError, DriverError } from "../errors.ts";
import type { ToolResult } from "../result.ts";
import type { Snapshot, SnapshotElement } from "../snapshots.ts";
import type { ToolContext } from "../tool.ts";
import { registerObservation } from "../window_observation.ts";

/** What an action call may ask for. */
export type ReturnState = "none" | "diff" | "full";
/** The values `return_state` takes. */
export const RETURN_STATES: readonly ReturnState[] = ["none", "diff", "full"];

/** Node budget of a successor read (get_window_state's default). */
const MAX_ELEMENTS = 5000;

interface Aim {
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
async function editableTexts(
  ctx: ToolContext,
  elements: readonly SnapshotElement[],
): Promise<Map<string, string>> {
  const fields = elements.filter((e) => e.interfaces?.includes("editable_text")).slice(0, MAX_TEXT_FIELDS);
  const texts = await Promise.all(fields.map((e) => ctx.backend.accessibility.text(e.ref).catch(() => null)));
  const out = new Map<string, string>();
  fields.forEach((e, i) => {
    if (texts[i] !== null) out.set(key(e.ref), texts[i]!);
  });
  return out;
}

interface Request {
  mode: "diff" | "full";
  aim?: Aim;
}

const requests = new WeakMap<ToolContext, Request>();

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

/** An element as a successor state lists it. */
type Row = Omit<ElementRow, "center">;

function key(ref: unknown): string {
  return JSON.stringify(ref);
}

function same(a: SnapshotElement, b: SnapshotElement, textA?: string, textB?: string): boolean {
  if ((textA ?? "") !== (textB ?? "")) return false;
  const fa = a.frame, fb = b.frame;
  const frameSame = (!fa && !fb) ||
    (!!fa && !!fb && fa.x === fb.x && fa.y === fb.y && fa.width === fb.width && fa.height === fb.height);
  return a.label === b.label && a.role === b.role && (a.value ?? "") === (b.value ?? "") &&
    (a.focused ?? false) === (b.focused ?? false) && frameSame;
}

/** What changed between two snapshots of one window, as rows of the newer one. */
export function diffSnapshots(
  base: Snapshot,
  next: Snapshot,
  rows: readonly Row[],
  texts: { before: ReadonlyMap<string, string>; after: ReadonlyMap<string, string> } = {
    before: new Map(),
    after: new Map(),
  },
): { added: Row[]; removed: { element_token: string; role: string; label: string }[]; changed: Row[] } {
  const before = new Map(base.elements.map((e) => [key(e.ref), e]));
  const seen = new Set<string>();
  const added: Row[] = [], changed: Row[] = [];
  for (const element of next.elements) {
    const k = key(element.ref);
    seen.add(k);
    const old = before.get(k);
    if (!old) added.push(rows[element.index]);
    else if (!same(old, element, texts.before.get(k), texts.after.get(k))) changed.push(rows[element.index]);
  }
  const removed = base.elements.filter((e) => !seen.has(key(e.ref))).map((e) => ({
    element_token: `${base.id}:${e.index}`,
    role: e.platformRole,
    label: e.label,
  }));
  return { added, removed, changed };
}

async function observe(ctx: ToolContext, pid: number, windowId: number) {
  const window = await ctx.backend.windows.get(windowId, { zIndex: false });
  if (!window) return null;
  const tree = await ctx.backend.accessibility.tree(
    pid,
    windowId,
    {
      maxNodes: MAX_ELEMENTS,
      maxDepth: Number.MAX_SAFE_INTEGER,
      windowBounds: window.bounds,
      actionableDetailsOnly: true,
    },
    ctx.signal,
  );
  const observation = registerObservation(ctx, pid, windowId, tree, {
    maxElements: MAX_ELEMENTS,
    maxDepth: Number.MAX_SAFE_INTEGER,
  });
  return { window, observation };
}

/**
 * Adds the successor state to a successful action result of a call that asked for one. An
 * action without a window target says so instead.
 */
export async function withSuccessor(ctx: ToolContext, result: ToolResult): Promise<ToolResult> {
  const request = requests.get(ctx);
  if (!request || result.isError || !result.structuredContent) return result;
  let state: Record<string, unknown>;
  try {
    state = await successorOf(ctx, request);
  } catch (error) {
    // The action stands as it landed: a successor that cannot be read never fails it.
    state = {
      mode: request.mode,
      available: false,
      reason: `the window could not be read again: ${asDriverError(error).message}`,
    };
  }
  const summary = state.available === false
    ? `successor state: unavailable (${state.reason})`
    : `successor state (${state.mode}) snapshot_id=${state.snapshot_id}` +
      (state.mode === "diff" && state.added
        ? `: +${(state.added as Row[]).length} -${(state.removed as Row[]).length} ~${
          (state.changed as Row[]).length
        }`
        : `: ${state.element_count} elements`) +
      (state.opened_windows ? `; ${(state.opened_windows as unknown[]).length} window(s) opened` : "");
  return {
    ...result,
    content: [...result.content, { type: "text", text: summary }],
    structuredContent: { ...result.structuredContent, successor_state: state },
  };
}

async function successorOf(ctx: ToolContext, request: Request): Promise<Record<string, unknown>> {
  const aim = request.aim;
  let state: Record<string, unknown>;
  if (!aim) {
    state = { mode: request.mode, available: false, reason: "the action had no window target" };
  } else {
    const read = await observe(ctx, aim.pid, aim.windowId);
    if (!read) {
      state = {
        mode: request.mode,
        available: false,
        reason: "the target window closed",
        window_id: aim.windowId,
      };
    } else {
      const { snapshot, shaped } = read.observation;
      const after = await editableTexts(ctx, snapshot.elements);
      // An editable field's text is its value in the successor's rows (the tree has none).
      const rows = shaped.elements.map((row, i) => {
        const text = after.get(key(snapshot.elements[i].ref));
        return text === undefined || row.value !== undefined ? row : { ...row, value: text };
      });
      state = {
        mode: request.mode,
        available: true,
        window_id: aim.windowId,
        snapshot_id: snapshot.id,
        base_snapshot_id: aim.base?.id ?? null,
        element_count: rows.length,
      };
      if (request.mode === "full" || !aim.base) state.elements = rows;
      else Object.assign(state, diffSnapshots(aim.base, snapshot, rows, { before: aim.texts, after }));
    }
    // Windows the app opened during the action, each with all its elements.
    const opened = (await ctx.backend.windows.list()).filter((w) =>
      w.pid === aim.pid && !aim.windows.has(w.windowId) && w.isOnScreen
    );
    const windows = [];
    for (const w of opened) {
      const seen = await observe(ctx, aim.pid, w.windowId);
      if (!seen) continue;
      windows.push({
        window_id: w.windowId,
        title: w.title,
        snapshot_id: seen.observation.snapshot.id,
        elements: seen.observation.shaped.elements,
      });
    }
    if (windows.length) state.opened_windows = windows;
  }
  return state;
}
