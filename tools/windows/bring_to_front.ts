import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { pidParam, sessionParam } from "../_shared/params.ts";
import { requireOwnedWindow, windowsOfPid } from "../_shared/window_target.ts";

/** Persistent activation, outside the background-first ladder. */
export default defineTool({
  name: "bring_to_front",
  title: "Bring to front",
  description:
    'Activate an app\'s window and leave it in front (breaks the background contract on purpose; for one action prefer delivery_mode "foreground").',
  group: "windows",
  input: z.strictObject({
    pid: pidParam,
    window_id: z.number().int().min(1).optional().describe(
      "Window to activate; optional when the pid owns one window",
    ),
    session: sessionParam,
  }),
  output: z.object({
    window_id: z.number(),
    prior_active: z.number().nullable(),
    active: z.literal(true),
    platform: z.string(),
  }),
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  risk: "r1",
  capabilities: ["desktop.windows.activate"],
  async run(ctx, args) {
    let windowId = args.window_id;
    if (windowId === undefined) {
      const candidates = (await windowsOfPid(ctx, args.pid)).filter((w) => w.isOnScreen);
      if (candidates.length === 0) {
        throw new DriverError("window_target_not_found", `Pid ${args.pid} has no on-screen window`, {
          pid: args.pid,
          effect: "refused",
          candidates: [],
          hint: "call list_windows to see which windows exist",
        });
      }
      if (candidates.length > 1) {
        throw new DriverError(
          "ambiguous_window_target",
          `Pid ${args.pid} owns ${candidates.length} windows`,
          {
            pid: args.pid,
            effect: "refused",
            candidates: candidates.map((w) => ({
              window_id: w.windowId,
              title: w.title,
              app_name: w.appName,
              is_on_screen: w.isOnScreen,
            })),
            hint: "retry with an exact window_id from candidates",
          },
        );
      }
      windowId = candidates[0].windowId;
    }
    await requireOwnedWindow(ctx, args.pid, windowId);
    const { priorActive } = await ctx.backend.windows.activate(windowId);
    if ((await ctx.backend.windows.active()) !== windowId) {
      throw new DriverError("delivery_failed", `The window manager did not activate window ${windowId}`, {
        window_id: windowId,
        prior_active: priorActive,
        hint: "the window may refuse focus (modal dialog elsewhere?); check list_windows and retry",
      });
    }
    return ok(
      { window_id: windowId, prior_active: priorActive, active: true, platform: ctx.backend.os },
      `✅ Window ${windowId} is now active`,
    );
  },
});
