/**
 * Binding a desktop browser window (pid + X11 window id) to a session-scoped
 * `target_id`: the Chromium window whose bounds (then title) match exactly one
 * candidate, and its tabs, each attached and given a tab id.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { ToolContext } from "../../kernel/tool.ts";
import type { WindowInfo } from "../../ports/windows.ts";
import { endpointForProcess } from "./access.ts";
import type { CdpConnection } from "../../lib/devtools/cdp_client.ts";
import type { BoundTarget } from "./store.ts";
import { Tab } from "./tab.ts";
import { browsersOf } from "./slot.ts";

/** Bounds may differ by a window manager's frame; beyond this they are another window. */
const BOUNDS_TOLERANCE = 16;

/** A page target and the Chromium window it is in. */
export interface PageTarget {
  targetId: string;
  title: string;
  url: string;
  browserWindowId: number;
  bounds: { left: number; top: number; width: number; height: number };
}

let tabCounter = 0;

/** The page targets of a browser with the Chromium window each belongs to. */
async function pageTargets(conn: CdpConnection): Promise<PageTarget[]> {
  const { targetInfos } = await conn.send("Target.getTargets");
  const pages = (targetInfos as { targetId: string; type: string; title: string; url: string }[])
    .filter((t) => t.type === "page" && !t.url.startsWith("devtools://"));
  const located = await Promise.all(pages.map(async (page) => {
    try {
      const { windowId, bounds } = await conn.send("Browser.getWindowForTarget", { targetId: page.targetId });
      return { targetId: page.targetId, title: page.title, url: page.url, browserWindowId: windowId, bounds };
    } catch {
      return null; // Closed while we looked.
    }
  }));
  return located.filter((p): p is PageTarget => p !== null);
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= BOUNDS_TOLERANCE;
}

/** The X11 window to bind: the one named, or the pid's only window. */
async function desktopWindow(ctx: ToolContext, pid: number, windowId?: number): Promise<WindowInfo> {
  const windows = (await ctx.backend.windows.list()).filter((w) => w.pid === pid);
  if (windowId !== undefined) {
    const match = windows.find((w) => w.windowId === windowId);
    if (match) return match;
    const other = await ctx.backend.windows.get(windowId);
    throw other
      ? new DriverError(
        "browser_wrong_target_refused",
        `Window ${windowId} belongs to pid ${other.pid}, not ${pid}`,
        { pid, window_id: windowId, hint: "pass the pid list_windows reports for that window" },
      )
      : new DriverError("browser_binding_stale", `Window ${windowId} does not exist`, {
        pid,
        window_id: windowId,
        hint: "call list_windows for the browser's current windows",
      });
  }
  if (windows.length === 1) return windows[0];
  throw new DriverError(
    windows.length ? "browser_binding_ambiguous" : "browser_binding_stale",
    windows.length ? `Browser ${pid} has ${windows.length} windows` : `Browser ${pid} has no window`,
    {
      pid,
      candidates: windows.map((w) => ({ window_id: w.windowId, title: w.title })),
      hint: "pass window_id from list_windows",
    },
  );
}

/** The Chromium window id matching a desktop window, by bounds, then by the active tab's title. */
function matchBrowserWindow(window: WindowInfo, pages: PageTarget[], desktopCount: number): number {
  const ids = [...new Set(pages.map((p) => p.browserWindowId))];
  if (ids.length === 1 && desktopCount === 1) return ids[0];
  const b = window.bounds;
  let candidates = ids.filter((id) => {
    const r = pages.find((p) => p.browserWindowId === id)!.bounds;
    return close(r.left, b.x) && close(r.top, b.y) && close(r.width, b.width) && close(r.height, b.height);
  });
  if (candidates.length > 1) {
    const byTitle = candidates.filter((id) =>
      pages.some((p) => p.browserWindowId === id && p.title !== "" && window.title.startsWith(p.title))
    );
    if (byTitle.length) candidates = byTitle;
  }
  if (candidates.length === 1) return candidates[0];
  throw new DriverError(
    "browser_binding_ambiguous",
    `Cannot tell which of the browser's ${ids.length} windows is window ${window.windowId}`,
    { window_id: window.windowId, hint: "call get_browser_state again once the window has settled" },
  );
}

/** A desktop window, its Chromium window id, and that window's page targets. */
export interface WindowPages {
  window: WindowInfo;
  browserWindowId: number;
  pages: PageTarget[];
}

/**
 * Finds the Chromium window of a desktop window and its page targets.
 *
 * @throws {DriverError} `browser_wrong_target_refused`, `browser_binding_ambiguous`,
 *   `browser_binding_stale`.
 */
export async function windowPages(
  ctx: ToolContext,
  conn: CdpConnection,
  pid: number,
  windowId?: number,
): Promise<WindowPages> {
  const window = await desktopWindow(ctx, pid, windowId);
  const all = await pageTargets(conn);
  const desktopCount = (await ctx.backend.windows.list()).filter((w) => w.pid === pid).length;
  const browserWindowId = matchBrowserWindow(window, all, desktopCount);
  return { window, browserWindowId, pages: all.filter((p) => p.browserWindowId === browserWindowId) };
}

/**
 * Binds a browser window in the caller's session (the same window again returns the
 * same target, its tabs refreshed).
 *
 * @throws {DriverError} the codes of {@linkcode endpointForProcess} and {@linkcode windowPages}.
 */
export async function bindWindow(ctx: ToolContext, pid: number, windowId?: number): Promise<BoundTarget> {
  const endpoint = await endpointForProcess(ctx, pid);
  const store = browsersOf(ctx.state);
  const conn = await store.connection(ctx.session.id, endpoint);
  const { window, browserWindowId, pages } = await windowPages(ctx, conn, pid, windowId);
  const existing = store.targets(ctx.session.id).find((t) =>
    t.pid === pid && t.windowId === window.windowId && !t.conn.closed
  );
  if (existing) {
    await refreshTabs(existing);
    return existing;
  }
  const target: BoundTarget = {
    id: `b${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`,
    pid,
    windowId: window.windowId,
    browserWindowId,
    endpoint,
    conn,
    tabs: new Map(),
    tabIds: new Map(),
  };
  await refreshTabs(target, pages);
  store.addTarget(ctx.session.id, target);
  return target;
}

/** Attaches tabs opened since the last look and marks closed ones; returns the window's pages. */
export async function refreshTabs(target: BoundTarget, known?: PageTarget[]): Promise<PageTarget[]> {
  const pages = (known ?? await pageTargets(target.conn)).filter((p) =>
    p.browserWindowId === target.browserWindowId
  );
  const live = new Set(pages.map((p) => p.targetId));
  for (const tab of target.tabs.values()) if (!live.has(tab.cdpTargetId)) tab.closed = true;
  await Promise.all(
    pages.filter((p) => !target.tabIds.has(p.targetId)).map(async (page) => {
      const id = `t${++tabCounter}`;
      try {
        const tab = await Tab.attach(target.conn, page.targetId, id);
        target.tabs.set(id, tab);
        target.tabIds.set(page.targetId, id);
      } catch {
        // Closed while attaching.
      }
    }),
  );
  return pages;
}

/**
 * Tab summaries for a result: ids, URL, title, and whether it is the window's visible tab.
 * A window with one tab shows it; with more, the tab whose title heads the window title is
 * the visible one (`windowTitle` is read only then).
 *
 * @param pages The window's pages as {@linkcode refreshTabs} just listed them (else they are asked for).
 */
export async function describeTabs(
  target: BoundTarget,
  windowTitle: () => Promise<string | null>,
  pages?: PageTarget[],
) {
  const targetInfos = pages ?? (await target.conn.send("Target.getTargets")).targetInfos;
  const infos = new Map(
    (targetInfos as { targetId: string; title: string; url: string }[]).map((t) => [t.targetId, t]),
  );
  const tabs = [...target.tabs.values()].filter((t) => !t.closed && infos.has(t.cdpTargetId));
  const title = tabs.length > 1 ? await windowTitle() : null;
  const titled = title === null
    ? []
    : tabs.filter((t) =>
      infos.get(t.cdpTargetId)!.title !== "" && title.startsWith(infos.get(t.cdpTargetId)!.title)
    );
  return tabs.map((tab) => {
    const info = infos.get(tab.cdpTargetId)!;
    // Tri-state: known when the window has one tab, or when exactly one tab's title heads the window title.
    const active = tabs.length === 1 ? true : titled.length === 1 ? titled[0] === tab : null;
    return { tab_id: tab.id, url: info.url, title: info.title, active, dialog_open: tab.dialog !== null };
  });
}
