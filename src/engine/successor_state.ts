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
import type { ElementRow } from "./ax_tree.ts";
import { asDriverError } from "../ports/errors.ts";
import type { ToolResult } from "../kernel/result.ts";
import type { Snapshot, SnapshotElement } from "../kernel/snapshots.ts";
import type { ToolContext } from "../kernel/tool.ts";
import { registerObservation } from "./window_observation.ts";
import { editableTexts, elementKey, type SuccessorRequest, successorRequest } from "./return_state.ts";

/** Node budget of a successor read (get_window_state's default). */
const MAX_ELEMENTS = 5000;

/** An element as a successor state lists it. */
type Row = Omit<ElementRow, "center">;

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
  const before = new Map(base.elements.map((e) => [elementKey(e.ref), e]));
  const seen = new Set<string>();
  const added: Row[] = [], changed: Row[] = [];
  for (const element of next.elements) {
    const k = elementKey(element.ref);
    seen.add(k);
    const old = before.get(k);
    if (!old) added.push(rows[element.index]);
    else if (!same(old, element, texts.before.get(k), texts.after.get(k))) changed.push(rows[element.index]);
  }
  const removed = base.elements.filter((e) => !seen.has(elementKey(e.ref))).map((e) => ({
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
  const request = successorRequest(ctx);
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

async function successorOf(ctx: ToolContext, request: SuccessorRequest): Promise<Record<string, unknown>> {
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
        const text = after.get(elementKey(snapshot.elements[i].ref));
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
