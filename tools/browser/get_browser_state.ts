import { z } from "../../src/lib/schema/mod.ts";
import { bindWindow, describeTabs, refreshTabs } from "../../src/features/browser/binding.ts";
import {
  listingOf,
  outlineOf,
  pageOf,
  parseContinuation,
  refRecord,
} from "../../src/features/browser/present.ts";
import { findTab, resolveRef, type TabHandle } from "../../src/features/browser/resolve.ts";
import { type Snapshot, takeSnapshot } from "../../src/features/browser/snapshot.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { type ImagePart, ok } from "../../src/kernel/result.ts";
import { defineTool, type ToolContext } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { tabIdParam, targetIdParam } from "./_params.ts";
import { browsersOf } from "../../src/features/browser/slot.ts";

const input = z.strictObject({
  pid: z.number().int().min(1).optional().describe("Bind mode: the browser's main process id"),
  window_id: z.number().int().min(1).optional().describe("Bind mode: the browser window (from list_windows)"),
  target_id: targetIdParam.optional().describe("Snapshot mode: a bound target"),
  tab_id: tabIdParam.optional().describe("Snapshot mode: the tab to snapshot"),
  snapshot_format: z.enum(["dom_refs_v1", "semantic_v2"]).default("dom_refs_v1"),
  scope_ref: z.string().min(1).max(64).optional().describe("Snapshot only this ref's subtree"),
  query: z.string().min(1).max(200).optional().describe(
    "Keep refs whose role, name, value, tag or id contain this",
  ),
  continuation: z.string().min(1).max(64).optional().describe("Next page of the same snapshot"),
  include_screenshot: z.boolean().default(false).describe("Add a PNG of the tab's viewport"),
  session: sessionParam,
});

async function bind(ctx: ToolContext, pid: number, windowId?: number) {
  const target = await bindWindow(ctx, pid, windowId);
  const window = await ctx.backend.windows.get(target.windowId);
  const tabs = await describeTabs(target, () => Promise.resolve(window?.title ?? null));
  const source = browsersOf(ctx.state).prepared.has(pid) ? "browser_prepare" : "existing_profile";
  return ok(
    {
      status: "ok",
      mode: "bind",
      binding_quality: "exact",
      mutation_allowed: true,
      target_id: target.id,
      pid,
      window_id: target.windowId,
      browser: { product: target.endpoint.product, endpoint: `127.0.0.1:${target.endpoint.port}`, source },
      tabs,
    },
    [
      `✅ Bound window ${target.windowId} of pid ${pid} as ${target.id} (exact; mutations allowed)`,
      ...tabs.map((t) => `  ${t.tab_id}${t.active ? " (active)" : ""} ${JSON.stringify(t.title)} ${t.url}`),
      `Snapshot a tab with get_browser_state {target_id: "${target.id}", tab_id}`,
    ].join("\n"),
  );
}

async function screenshot(handle: TabHandle): Promise<{ fields: Record<string, unknown>; image: ImagePart }> {
  const { data } = await handle.tab.send("Page.captureScreenshot", { format: "png" }, 20_000);
  const header = Uint8Array.from(atob(data.slice(0, 44)), (c) => c.charCodeAt(0));
  const view = new DataView(header.buffer);
  const [width, height] = [view.getUint32(16), view.getUint32(20)];
  const metrics = await handle.tab.send("Page.getLayoutMetrics");
  const viewport = metrics.cssVisualViewport ?? metrics.visualViewport;
  return {
    fields: {
      screenshot_width: width,
      screenshot_height: height,
      screenshot_mime_type: "image/png",
      screenshot: {
        viewport_css_width: viewport.clientWidth,
        viewport_css_height: viewport.clientHeight,
        pixel_to_css_scale_x: viewport.clientWidth / width,
        pixel_to_css_scale_y: viewport.clientHeight / height,
      },
    },
    image: { type: "image", data, mimeType: "image/png" },
  };
}

type TabSummary = Awaited<ReturnType<typeof describeTabs>>[number];
/** The tab list each snapshot was taken with, for its continuation pages. */
const tabsOfSnapshot = new WeakMap<Snapshot, TabSummary[]>();

async function snapshot(ctx: ToolContext, args: z.output<typeof input>) {
  const { target, tab } = await findTab(ctx, args.target_id!, args.tab_id);
  const next = args.continuation ? parseContinuation(args.continuation) : null;
  // A new snapshot goes out with the liveness check (one round trip to the page, not two);
  // its result counts only if the tab proves live. Not while a dialog blocks the page.
  const take = (): Promise<Snapshot> => {
    const scope = args.scope_ref ? resolveRef(ctx, { target, tab }, args.scope_ref) : null;
    return takeSnapshot(
      tab,
      browsersOf(ctx.state).nextSnapshotId(target.id, tab.id),
      args.snapshot_format,
      scope,
    );
  };
  const taking = !args.continuation && !tab.dialog ? take() : null;
  taking?.catch(() => {}); // awaited below unless the tab is not live
  // The tab list and the window title are read meanwhile; a continuation pages through the
  // snapshot as it was taken, tab list included.
  const listed = next && tab.snapshot?.id === next.snapshot ? tabsOfSnapshot.get(tab.snapshot) : undefined;
  const tabsRead = listed
    ? Promise.resolve(listed)
    : refreshTabs(target).then((pages) =>
      describeTabs(target, async () => (await ctx.backend.windows.get(target.windowId))?.title ?? null, pages)
    );
  tabsRead.catch(() => {}); // awaited below unless a check fails first
  const current = await tab.requireLive({ allowNavigated: true });
  let offset = 0;
  if (!args.continuation) {
    tab.snapshot = await (taking ?? take());
    // The caller now sees this document: acting on it is no longer "navigated away".
    tab.baseline = { loaderId: tab.snapshot.loaderId, url: tab.snapshot.url };
  } else {
    if (!next || tab.snapshot?.id !== next.snapshot || tab.navigatedFrom(current)) {
      throw new DriverError(
        "browser_ref_stale",
        `Continuation ${args.continuation} is not of the tab's current snapshot`,
        {
          hint: "call get_browser_state without continuation for a new snapshot",
        },
      );
    }
    offset = next.offset;
  }
  const handle = { target, tab, current };
  const snap = tab.snapshot!;
  const semantic = snap.format === "semantic_v2";
  const page = pageOf(snap, args.query, offset);
  const structured: Record<string, unknown> = {
    status: "ok",
    mode: "snapshot",
    binding_quality: "exact",
    mutation_allowed: true,
    target_id: target.id,
    tab_id: tab.id,
    url: snap.url,
    title: snap.title,
    snapshot: {
      id: `p${snap.id}`,
      format: snap.format,
      complete: page.complete,
      omitted: page.omitted,
      continuation: page.continuation,
    },
    tabs: await tabsRead,
  };
  tabsOfSnapshot.set(snap, structured.tabs as TabSummary[]);
  if (semantic) {
    structured.outline = outlineOf(page.refs);
    structured.refs = page.refs.filter((r) => r.kind === "control").map((r) => refRecord(r, true));
    structured.content_refs = page.refs.filter((r) => r.kind === "content").map((r) => ({
      ref: r.ref,
      role: r.role,
      text: r.name,
    }));
  } else {
    structured.refs = page.refs.map((r) => refRecord(r, false));
  }
  const images: ImagePart[] = [];
  if (args.include_screenshot) {
    const shot = await screenshot(handle);
    Object.assign(structured, shot.fields);
    images.push(shot.image);
  }
  const head =
    `✅ ${tab.id} ${JSON.stringify(snap.title)} ${snap.url} — snapshot p${snap.id} (${snap.format}), ` +
    `${page.refs.length} refs${page.continuation ? `, more with continuation "${page.continuation}"` : ""}`;
  return ok(structured, `${head}\n${semantic ? outlineOf(page.refs) : listingOf(page.refs)}`, images);
}

/** Binds a browser window, or snapshots one of its tabs. */
export default defineTool({
  name: "get_browser_state",
  title: "Get browser state",
  description:
    "Bind (pid + window_id of a Chromium window after browser_prepare): a target_id and its tabs; act only when status is ok, binding_quality exact and mutation_allowed true. Snapshot (target_id + tab_id): refs p<snapshot>:<index>, scope_ref, query, paging, optional screenshot.",
  group: "browser",
  input,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r2",
  capabilities: ["browser.observe", "browser.cdp"],
  run(ctx, args) {
    if (args.target_id !== undefined) {
      if (args.pid !== undefined || args.window_id !== undefined) {
        throw new DriverError(
          "invalid_arguments",
          "Pass pid/window_id (bind) or target_id/tab_id (snapshot), not both",
          {
            field: "target_id",
          },
        );
      }
      return snapshot(ctx, args);
    }
    if (args.pid === undefined) {
      throw new DriverError(
        "invalid_arguments",
        "Pass pid and window_id to bind, or target_id and tab_id to snapshot",
        {
          field: "pid",
        },
      );
    }
    return bind(ctx, args.pid, args.window_id);
  },
});
