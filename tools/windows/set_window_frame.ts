import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema, checkActionResult } from "../../src/engine/action_result.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import type { Rect } from "../../src/ports/geometry.ts";
import { sessionParam } from "../_shared/params.ts";
import { requireOwnedWindow } from "../_shared/window_target.ts";
import { noteAim } from "../../src/engine/return_state.ts";

const READBACK_TRIES = 10;
const READBACK_INTERVAL_MS = 40;

function same(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/** Exact client-area geometry with an independent read-back. */
export default defineTool({
  name: "set_window_frame",
  title: "Set window frame",
  description:
    "Set a window's frame (client area, screen points as list_windows reports) and read the geometry back; confirmed only when it equals the request.",
  group: "windows",
  input: z.strictObject({
    pid: z.number().int().min(1),
    window_id: z.number().int().min(1),
    x: z.number().int(),
    y: z.number().int(),
    width: z.number().int().min(1),
    height: z.number().int().min(1),
    session: sessionParam,
  }),
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  risk: "r1",
  capabilities: ["desktop.windows.frame"],
  async run(ctx, args) {
    const before = (await requireOwnedWindow(ctx, args.pid, args.window_id)).bounds;
    await noteAim(ctx, args.pid, args.window_id, undefined);
    const wanted = { x: args.x, y: args.y, width: args.width, height: args.height };
    await ctx.backend.windows.setFrame(args.window_id, wanted);
    let after = before;
    for (let i = 0; i < READBACK_TRIES; i++) {
      await new Promise((resolve) => setTimeout(resolve, READBACK_INTERVAL_MS));
      after = (await ctx.backend.windows.get(args.window_id))?.bounds ?? after;
      if (same(after, wanted)) break;
    }
    const describe = (r: Rect) => `${r.width}x${r.height}+${r.x}+${r.y}`;
    if (same(after, wanted)) {
      return ok(
        checkActionResult({
          effect: "confirmed",
          route: "system_api",
          delivery: { mode: "not_applicable" },
          evidence: [{ kind: "value_readback" }],
        }),
        `✅ Window ${args.window_id} frame is ${describe(after)} (read back)`,
      );
    }
    const changed = !same(after, before);
    return ok(
      checkActionResult({
        effect: changed ? "unverifiable" : "suspected_noop",
        route: "system_api",
        delivery: { mode: "not_applicable" },
        ...(changed ? { evidence: [{ kind: "window_change" as const }] } : {}),
      }),
      `⚠️ Asked for ${describe(wanted)}; the window is ${describe(after)} ` +
        (changed ? "(the window manager adjusted the request)" : "(nothing changed)"),
    );
  },
});
