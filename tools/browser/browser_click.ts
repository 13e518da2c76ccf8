import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { runBrowserAction } from "../../src/features/browser/act.ts";
import { domPointer } from "../../src/features/browser/dom_events.ts";
import { mouseClick } from "../../src/features/browser/input.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { cssCoordinate, inputRouteParam, refParam, tabIdParam, targetIdParam } from "./_params.ts";

/** Clicks a ref or viewport point of an exactly-bound tab. */
export default defineTool({
  name: "browser_click",
  title: "Click in browser tab",
  description:
    "Click a page element (ref) or viewport point in a bound tab. input_route trusted (default): CDP mouse events at the element's centre (Chromium activates its window); dom_event: page-script events. confirmed when CDP reads back a change (value, checked, focus, DOM, navigation, dialog).",
  group: "browser",
  input: z.strictObject({
    target_id: targetIdParam,
    tab_id: tabIdParam,
    ref: refParam.optional(),
    x: cssCoordinate.optional().describe("Viewport CSS x (with y, instead of ref)"),
    y: cssCoordinate.optional().describe("Viewport CSS y"),
    input_route: inputRouteParam,
    session: sessionParam,
  }),
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  risk: "r2",
  capabilities: ["browser.input.click", "browser.cdp"],
  run(ctx, args) {
    return runBrowserAction(
      ctx,
      {
        targetId: args.target_id,
        tabId: args.tab_id,
        aim: { ref: args.ref, x: args.x, y: args.y },
        route: args.input_route,
        events: ["mousedown", "mouseup", "click"],
        expect: (b, a) =>
          b.checked !== a.checked || b.value !== a.value || (!b.focused && a.focused === true),
      },
      async ({ entry, probe, handle, point }) => {
        const at = await point();
        const what = entry
          ? `${entry.ref} (${entry.role} ${JSON.stringify(entry.name)})`
          : `(${at.x}, ${at.y})`;
        const dispatched = args.input_route === "trusted"
          ? await mouseClick(handle.tab, at, "left", 1)
          : await domPointer(handle.tab, { action: "click", objectId: entry ? probe.objectId : null, at });
        return { dispatched, summary: `clicked ${what} in ${handle.tab.id}`, deliveredCount: 1 };
      },
    );
  },
});
