import { z } from "zod";
import { checkNavigableUrl, navigateTab } from "../../src/core/browser/navigation.ts";
import { resolveTab } from "../../src/core/browser/resolve.ts";
import { ok } from "../../src/core/result.ts";
import { defineTool } from "../../src/core/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { tabIdParam, targetIdParam } from "./_params.ts";

/** Navigates one exactly-bound tab. */
export default defineTool({
  name: "browser_navigate",
  title: "Navigate browser tab",
  description: "Navigate one tab of an exactly-bound browser target to a new URL (http/https/about only; " +
    "file:, javascript:, data: and every other scheme are refused with browser_origin_outside_scope). Waits " +
    "for the load event (15 s at most), then re-binds the tab to the new document: refs of earlier snapshots " +
    "become stale, so call get_browser_state for new ones. A tab that navigated by itself since its last " +
    "snapshot is refused (browser_binding_stale) until it is snapshotted again.",
  group: "browser",
  input: z.strictObject({
    target_id: targetIdParam,
    tab_id: tabIdParam,
    url: z.string().min(1).max(8192).describe("Absolute http, https or about URL"),
    session: sessionParam,
  }),
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  risk: "r2",
  capabilities: ["browser.navigate", "browser.cdp"],
  async run(ctx, args) {
    const url = checkNavigableUrl(args.url);
    const { target, tab } = await resolveTab(ctx, args.target_id, args.tab_id);
    const result = await navigateTab(tab, url);
    return ok(
      { status: "ok", target_id: target.id, tab_id: tab.id, ...result },
      `✅ ${tab.id} navigated to ${result.url} ${JSON.stringify(result.title)}` +
        (result.loaded ? "" : " (the load event did not fire within 15 s)"),
    );
  },
});
