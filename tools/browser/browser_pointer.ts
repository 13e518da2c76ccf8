import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { type ActionScope, runBrowserAction } from "../../src/features/browser/act.ts";
import { domPointer } from "../../src/features/browser/dom_events.ts";
import {
  type CssPoint,
  drag,
  mouseClick,
  mouseMove,
  pointOf,
  wheel,
} from "../../src/features/browser/input.ts";
import type { ElementState } from "../../src/features/browser/probe.ts";
import { resolveRef } from "../../src/features/browser/resolve.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { defineTool, type ToolContext } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { cssCoordinate, inputRouteParam, refParam, tabIdParam, targetIdParam } from "./_params.ts";

const input = z.strictObject({
  target_id: targetIdParam,
  tab_id: tabIdParam,
  action: z.enum(["hover", "right_click", "double_click", "scroll", "drag"]),
  ref: refParam.optional().describe("The element acted on (the drag source)"),
  x: cssCoordinate.optional().describe("Viewport CSS x instead of ref"),
  y: cssCoordinate.optional(),
  destination_ref: refParam.optional().describe("drag: the element to drop on"),
  to_x: cssCoordinate.optional().describe("drag: viewport CSS x to drop at"),
  to_y: cssCoordinate.optional(),
  delta_x: z.number().min(-100_000).max(100_000).optional().describe(
    "scroll: CSS pixels right (negative: left)",
  ),
  delta_y: z.number().min(-100_000).max(100_000).optional().describe(
    "scroll: CSS pixels down (negative: up)",
  ),
  input_route: inputRouteParam,
  session: sessionParam,
});
type Args = z.output<typeof input>;

const EVENTS: Record<Args["action"], string[]> = {
  hover: ["mouseover", "mousemove"],
  right_click: ["mousedown", "mouseup", "contextmenu"],
  double_click: ["mousedown", "mouseup", "click", "dblclick"],
  scroll: ["wheel", "scroll"],
  drag: ["mousedown", "mousemove", "mouseup", "dragstart", "drop"],
};

const differs = (a: number[] | null, b: number[] | null) => JSON.stringify(a) !== JSON.stringify(b);
const EXPECT: Partial<Record<Args["action"], (b: ElementState, a: ElementState) => boolean>> = {
  hover: (b, a) => a.hover === true && b.hover !== true,
  double_click: (b, a) => b.value !== a.value || b.checked !== a.checked,
  scroll: (b, a) => differs(b.scroll, a.scroll) || differs(b.pageScroll, a.pageScroll),
};

async function destination(ctx: ToolContext, scope: ActionScope, args: Args): Promise<CssPoint> {
  if (args.destination_ref !== undefined) {
    return await pointOf(scope.handle.tab, resolveRef(ctx, scope.handle, args.destination_ref));
  }
  if (args.to_x === undefined || args.to_y === undefined) {
    throw new DriverError("invalid_arguments", "drag needs destination_ref, or to_x and to_y", {
      field: "destination_ref",
    });
  }
  return { x: args.to_x, y: args.to_y };
}

/** Hover, right click, double click, scroll or drag in an exactly-bound tab. */
export default defineTool({
  name: "browser_pointer",
  title: "Pointer in browser tab",
  description:
    "Hover, right-click, double-click, scroll or drag in a bound tab at a ref or viewport CSS point (drag to destination_ref or to_x, to_y; HTML5 drag and drop replayed). input_route trusted (default) or dom_event. confirmed when CDP reads back the change.",
  group: "browser",
  input,
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  risk: "r2",
  capabilities: ["browser.input.pointer", "browser.cdp"],
  run(ctx, args) {
    if (args.action === "scroll" && !args.delta_x && !args.delta_y) {
      throw new DriverError("invalid_arguments", "scroll needs a non-zero delta_x or delta_y", {
        field: "delta_y",
      });
    }
    return runBrowserAction(
      ctx,
      {
        targetId: args.target_id,
        tabId: args.tab_id,
        aim: { ref: args.ref, x: args.x, y: args.y },
        centreByDefault: args.action === "scroll",
        route: args.input_route,
        events: EVENTS[args.action],
        expect: EXPECT[args.action],
      },
      async (scope) => {
        const { tab } = scope.handle;
        const to = args.action === "drag" ? await destination(ctx, scope, args) : null;
        const at = await scope.point();
        const what = scope.entry
          ? `${scope.entry.ref} (${scope.entry.role})`
          : `(${Math.round(at.x)}, ${Math.round(at.y)})`;
        const delta = { x: args.delta_x ?? 0, y: args.delta_y ?? 0 };
        const objectId = scope.entry ? scope.probe.objectId : null;
        let dispatched;
        if (args.input_route === "dom_event") {
          const action = args.action === "right_click" || args.action === "double_click"
            ? "click"
            : args.action;
          const button = args.action === "right_click" ? "right" : "left";
          const count = args.action === "double_click" ? 2 : 1;
          dispatched = await domPointer(tab, {
            action,
            objectId,
            at,
            button,
            count,
            delta,
            to: to ?? undefined,
          });
        } else if (args.action === "hover") dispatched = await mouseMove(tab, at);
        else if (args.action === "right_click") dispatched = await mouseClick(tab, at, "right", 1);
        else if (args.action === "double_click") dispatched = await mouseClick(tab, at, "left", 2);
        else if (args.action === "scroll") dispatched = await wheel(tab, at, delta.x, delta.y);
        else dispatched = await drag(tab, at, to!);
        const detail = args.action === "scroll"
          ? ` by (${delta.x}, ${delta.y})`
          : to
          ? ` to (${Math.round(to.x)}, ${Math.round(to.y)})`
          : "";
        return {
          dispatched,
          summary: `${args.action.replace("_", " ")} at ${what}${detail} in ${tab.id}`,
          deliveredCount: args.action === "double_click" ? 2 : 1,
        };
      },
    );
  },
});
