/**
 * The window server's window list (`CGWindowListCopyWindowInfo`), read into plain
 * records. Rows come front to back, as the window server orders them.
 *
 * @module
 */
import { CGWindowListOption } from "../../../ffi/darwin/core_graphics.ts";
import { readCGRect, STRUCT_SIZE } from "../../../ffi/darwin/geometry.ts";
import { DriverError } from "../../ports/errors.ts";
import type { Rect } from "../../ports/geometry.ts";
import type { DarwinContext } from "./context.ts";

/** One window of the window server's list. */
export interface WindowRow {
  id: number;
  pid: number;
  ownerName: string;
  /** Absent without Screen Recording access (macOS 10.15+). */
  title: string | null;
  /** 0 for document windows; menus, the Dock and the menu bar sit on higher layers. */
  layer: number;
  bounds: Rect;
  onScreen: boolean;
  alpha: number;
}

/** Layer of ordinary document windows (kCGNormalWindowLevel). */
export const NORMAL_LAYER = 0;

/**
 * Reads the window list.
 *
 * @param option CGWindowListOption bits (default: every window, desktop elements left out).
 * @throws {DriverError} `display_unavailable` when there is no window server session
 *   (an SSH login without a logged-in console user).
 */
export function readWindowList(
  ctx: DarwinContext,
  option: number = CGWindowListOption.All | CGWindowListOption.ExcludeDesktopElements,
  relativeTo = 0,
): WindowRow[] {
  const { cf, fw } = ctx;
  using list = cf.own(fw.cg.CGWindowListCopyWindowInfo(option, relativeTo));
  if (!list) {
    throw new DriverError("display_unavailable", "The window server returned no window list", {
      hint: "run the driver in a logged-in macOS desktop session (over SSH, a user must be logged in " +
        "at the console or through Screen Sharing)",
    });
  }
  const rect = new Uint8Array(STRUCT_SIZE.CGRect);
  const rows: WindowRow[] = [];
  for (const row of cf.items(list.ref)) {
    const number = (key: Deno.PointerValue) => cf.toNumber(cf.lookup(row, key));
    const id = number(fw.cg.kCGWindowNumber);
    const pid = number(fw.cg.kCGWindowOwnerPID);
    const boundsDict = cf.lookup(row, fw.cg.kCGWindowBounds);
    if (id === null || pid === null || !boundsDict) continue;
    if (!fw.cg.CGRectMakeWithDictionaryRepresentation(boundsDict, rect)) continue;
    rows.push({
      id,
      pid,
      ownerName: cf.toString(cf.lookup(row, fw.cg.kCGWindowOwnerName)) ?? "",
      title: cf.toString(cf.lookup(row, fw.cg.kCGWindowName)),
      layer: number(fw.cg.kCGWindowLayer) ?? 0,
      bounds: readCGRect(rect),
      onScreen: cf.toBoolean(cf.lookup(row, fw.cg.kCGWindowIsOnscreen)) ?? false,
      alpha: number(fw.cg.kCGWindowAlpha) ?? 1,
    });
  }
  return rows;
}

/** One window's row, or null when it no longer exists. */
export function readWindow(ctx: DarwinContext, windowId: number): WindowRow | null {
  if (!Number.isInteger(windowId) || windowId <= 0 || windowId > 0xffffffff) return null;
  return readWindowList(ctx, CGWindowListOption.IncludingWindow, windowId).find((row) =>
    row.id === windowId
  ) ??
    null;
}

/**
 * One window's row.
 *
 * @throws {DriverError} `window_stale` when the window no longer exists.
 */
export function requireWindow(ctx: DarwinContext, windowId: number): WindowRow {
  const row = readWindow(ctx, windowId);
  if (!row) {
    throw new DriverError("window_stale", `Window ${windowId} no longer exists`, {
      window_id: windowId,
      hint: "call list_windows to refresh window ids",
    });
  }
  return row;
}
