import { z } from "../../src/lib/schema/mod.ts";
import { checkNavigableUrl, navigateTab } from "../../src/features/browser/navigation.ts";
import { resolveTab } from "../../src/features/browser/resolve.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { tabIdParam, targetIdParam } from "./_params.ts";

/** Navigates one exactly-bound tab. */
export default defineTool({
  name: "browser_navigate",
  title: "Navigate browser tab",
  description:
    "Navigate a bound tab to an http/https/about URL (other schemes: browser_origin_outside_scope), wait for load (at most 15 s), re-bind it; earlier refs go stale. A tab that navigated by itself is refused (browser_binding_stale) until snapshotted again.",
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
