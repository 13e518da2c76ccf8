/**
 * Resolving what an action names: a window (by `target`, legacy `pid`/`window_id`,
 * or an element token's snapshot) or the desktop. Every malformed, ambiguous or
 * stale target fails here, before anything is sent (contract.md §1.5, §2.3).
 *
 * @module
 */
import type { WindowInfo } from "../ports/windows.ts";
import { watchTarget } from "../kernel/call_abort.ts";
import { noteAim } from "./return_state.ts";
import { DriverError } from "../ports/errors.ts";
import type { ResolvedElement } from "../kernel/snapshots.ts";
import { SnapshotStore } from "../kernel/snapshots.ts";
import type { ToolContext } from "../kernel/tool.ts";

/** The targeting arguments action tools share. */
export interface TargetArgs {
  target?:
    | { kind: "window"; pid: number; window_id: number }
    | { kind: "desktop"; display_id?: string }
    | null;
  scope?: "window" | "desktop";
  pid?: number;
  window_id?: number;
  element_token?: string;
  element_index?: number;
  snapshot_id?: string;
}

/** A resolved target. */
export type ActionTarget =
  | { scope: "window"; pid: number; windowId: number; window: WindowInfo; element: ResolvedElement | null }
  | { scope: "desktop"; displayId: string; element: null };

/** Options for {@linkcode resolveTarget}. */
export interface ResolveOptions {
  /** The tool accepts the desktop scope. */
  allowDesktop: boolean;
  /** The tool accepts element addressing. */
  allowElement: boolean;
}

/**
 * Resolves the target of an action.
 *
 * @throws {DriverError} `invalid_action_target`, `window_target_not_found`,
 *   `ambiguous_window_target`, `window_stale`, `snapshot_id_required`,
 *   `element_index_required`, `invalid_snapshot_id`, `stale_element_token`,
 *   `invalid_element_token`, `conflicting_element_target`.
 */
export async function resolveTarget(
  ctx: ToolContext,
  args: TargetArgs,
  options: ResolveOptions,
): Promise<ActionTarget> {
  const element = options.allowElement ? await resolveElement(ctx, args) : null;
  const legacyGiven = args.scope !== undefined || args.pid !== undefined || args.window_id !== undefined;
  if (args.target) {
    if (legacyGiven) {
      throw invalidTarget("target cannot be combined with scope, pid or window_id");
    }
    if (args.target.kind === "desktop") {
      if (!options.allowDesktop) {
        throw invalidTarget("this tool acts on one window; the desktop target is not accepted");
      }
      if (element) throw conflicting("an element_token names a window, not the desktop");
      const displayId = args.target.display_id ?? "primary";
      if (displayId !== "primary") {
        throw invalidTarget(`display_id must be "primary", not "${displayId}"`);
      }
      return { scope: "desktop", displayId, element: null };
    }
    return await windowTarget(ctx, args.target.pid, args.target.window_id, element);
  }
  if (args.scope === "desktop") {
    if (!options.allowDesktop) {
      throw invalidTarget('this tool acts on one window; scope "desktop" is not accepted');
    }
    if (args.pid !== undefined || args.window_id !== undefined) {
      throw invalidTarget('scope "desktop" cannot be combined with pid or window_id');
    }
    if (element) throw conflicting("an element_token names a window, not the desktop");
    return { scope: "desktop", displayId: "primary", element: null };
  }
  if (element) {
    return await windowTarget(
      ctx,
      args.pid ?? element.snapshot.pid,
      args.window_id ?? element.snapshot.windowId,
      element,
    );
  }
  if (args.pid === undefined) {
    throw invalidTarget(
      'name a target: target {kind:"window", pid, window_id}, pid (and window_id), an element_token, ' +
        (options.allowDesktop ? 'or target {kind:"desktop"}' : "from list_windows"),
    );
  }
  if (args.window_id !== undefined) return await windowTarget(ctx, args.pid, args.window_id, null);
  return await windowTarget(ctx, args.pid, await onlyWindowOf(ctx, args.pid), null);
}

function invalidTarget(detail: string): DriverError {
  return new DriverError("invalid_action_target", `Invalid target: ${detail}`, {
    effect: "refused",
    hint: 'pass target {kind:"window", pid, window_id} from list_windows, or an element_token',
  });
}

function conflicting(detail: string): DriverError {
  return new DriverError("conflicting_element_target", `Conflicting element target: ${detail}`, {
    effect: "refused",
    hint: "pass the element_token alone, or with the pid and window_id of its snapshot",
  });
}

/** The element named by `element_token`, or by `element_index` plus `snapshot_id`. */
async function resolveElement(ctx: ToolContext, args: TargetArgs): Promise<ResolvedElement | null> {
  let token = args.element_token;
  if (args.element_index !== undefined || args.snapshot_id !== undefined) {
    if (args.snapshot_id === undefined) {
      throw new DriverError("snapshot_id_required", "element_index needs the snapshot_id it came from", {
        effect: "refused",
        hint: "pass element_token (or element_index with snapshot_id) from the latest get_window_state",
      });
    }
    if (!SnapshotStore.isSnapshotId(args.snapshot_id)) {
      throw new DriverError("invalid_snapshot_id", `snapshot_id "${args.snapshot_id}" is not s<8 hex>`, {
        effect: "refused",
        hint: "pass snapshot_id exactly as get_window_state returned it",
      });
    }
    if (args.element_index === undefined) {
      throw new DriverError("element_index_required", "snapshot_id needs an element_index", {
        effect: "refused",
        hint: "pass element_index with snapshot_id, or an element_token",
      });
    }
    const fromIndex = `${args.snapshot_id}:${args.element_index}`;
    if (token !== undefined && token !== fromIndex) {
      throw conflicting(`element_token ${token} and element_index ${fromIndex} differ`);
    }
    token = fromIndex;
  }
  if (token === undefined) return null;
  try {
    return ctx.state.snapshots.resolve(token, ctx.session.id);
  } catch (error) {
    throw await withLiveSnapshots(ctx, error);
  }
}

/** A stale-token refusal lists only the current snapshots of apps still running. */
async function withLiveSnapshots(ctx: ToolContext, error: unknown): Promise<unknown> {
  if (!(error instanceof DriverError) || error.code !== "stale_element_token") return error;
  const current = (error.data.current_snapshots ?? []) as { snapshot_id: string; pid: number }[];
  const alive = await Promise.all(current.map((s) => ctx.backend.apps.isAlive(s.pid).catch(() => false)));
  const live = current.filter((_, i) => alive[i]);
  return new DriverError(error.code, error.message, {
    ...error.data,
    current_snapshot_ids: live.map((s) => s.snapshot_id),
    current_snapshots: live,
  }, { cause: error });
}

async function windowTarget(
  ctx: ToolContext,
  pid: number,
  windowId: number,
  element: ResolvedElement | null,
): Promise<ActionTarget> {
  if (!Number.isInteger(pid) || pid < 1 || !Number.isInteger(windowId) || windowId < 1) {
    throw invalidTarget("pid and window_id must be positive integers");
  }
  if (element && (element.snapshot.pid !== pid || element.snapshot.windowId !== windowId)) {
    throw conflicting(
      `the element_token belongs to window ${element.snapshot.windowId} (pid ${element.snapshot.pid}), ` +
        `not window ${windowId} (pid ${pid})`,
    );
  }
  const window = await ctx.backend.windows.get(windowId);
  if (!window) {
    throw new DriverError("window_target_not_found", `Window ${windowId} does not exist`, {
      effect: "refused",
      pid,
      window_id: windowId,
      candidates: [],
      hint: "call list_windows to refresh window ids",
    });
  }
  if (window.pid !== pid) {
    throw new DriverError(
      "window_target_not_found",
      `Window ${windowId} belongs to ${
        window.pid === null ? "no verifiable pid" : `pid ${window.pid}`
      }, not pid ${pid}`,
      {
        effect: "refused",
        pid,
        window_id: windowId,
        candidates: [],
        hint: "pass the pid list_windows reports",
      },
    );
  }
  if (!(await ctx.backend.apps.isAlive(pid))) {
    throw new DriverError(
      "window_stale",
      `Window target pid ${pid}, window_id ${windowId} is stale or no longer running`,
      {
        effect: "refused",
        pid,
        window_id: windowId,
        hint: "refresh list_windows",
      },
    );
  }
  // From here on, input for this action stops as soon as the app exits.
  watchTarget(ctx, pid);
  await noteAim(ctx, pid, windowId, element?.snapshot);
  return { scope: "window", pid, windowId, window, element };
}

async function onlyWindowOf(ctx: ToolContext, pid: number): Promise<number> {
  const windows = (await ctx.backend.windows.list()).filter((w) => w.pid === pid && w.isOnScreen);
  const candidates = windows.map((w) => ({
    window_id: w.windowId,
    title: w.title,
    app_name: w.appName,
    is_on_screen: w.isOnScreen,
  }));
  if (windows.length === 1) return windows[0].windowId;
  if (windows.length === 0) {
    throw new DriverError("window_target_not_found", `Pid ${pid} has no eligible window`, {
      effect: "refused",
      pid,
      candidates,
      hint: "call list_windows; the app may have no window yet",
    });
  }
  throw new DriverError(
    "ambiguous_window_target",
    `Pid ${pid} owns ${windows.length} windows; no input was sent`,
    {
      effect: "refused",
      pid,
      candidates,
      hint: "retry with an exact window_id from candidates",
    },
  );
}
