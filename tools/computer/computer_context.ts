/**
 * `computer_context`: what the cua.env.v1 ComputerService needs to aim input, read in one
 * call through the registry (authorized, in the connection's session, seen by observers):
 * a window, the active window, the displays, the pointer, the desktop's focus and stacking,
 * a registered screenshot's geometry, and a 1:1 capture of a window's current frame so the
 * action tools' pixel arguments map to screen points without scaling. Not in tools/list:
 * transports call it for their own requests.
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import type { WindowInfo } from "../../src/ports/windows.ts";
import { sessionParam } from "../_shared/params.ts";

const rect = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
const window = z.object({
  window_id: z.number(),
  pid: z.number().nullable(),
  app_name: z.string(),
  title: z.string(),
  bounds: rect,
}).nullable();

function windowRow(w: WindowInfo | null) {
  return w && { window_id: w.windowId, pid: w.pid, app_name: w.appName, title: w.title, bounds: w.bounds };
}

export default defineTool({
  name: "computer_context",
  title: "Computer context",
  description: "Reads what ComputerService input needs: a window by id, the active window, displays, the " +
    "pointer, focus and stacking, a screenshot's geometry.",
  group: "screen",
  listed: false,
  input: z.strictObject({
    window_id: z.number().int().min(1).optional(),
    active_window: z.boolean().optional(),
    displays: z.boolean().optional(),
    cursor: z.boolean().optional(),
    observe: z.boolean().optional(),
    screenshot_id: z.string().optional(),
    session: sessionParam,
  }),
  output: z.object({
    window: window.optional(),
    active_window: window.optional(),
    displays: z.array(z.object({
      id: z.string(),
      name: z.string(),
      primary: z.boolean(),
      bounds: rect,
      native_width: z.number(),
      native_height: z.number(),
      scale_factor: z.number(),
      refresh_rate_hz: z.number(),
    })).optional(),
    cursor: z.object({ x: z.number(), y: z.number() }).optional(),
    observation: z.object({
      active_window: z.number().nullable(),
      focus_window: z.number().nullable(),
      pointer: z.object({ x: z.number(), y: z.number() }),
      stacking: z.array(z.number()),
    }).nullable().optional(),
    screenshot: z.object({
      id: z.string(),
      kind: z.string(),
      window_id: z.number().nullable(),
      display_id: z.string(),
      bounds: rect,
      window_origin: z.object({ x: z.number(), y: z.number() }).nullable(),
      source_bounds: rect,
      image_width: z.number(),
      image_height: z.number(),
    }).nullable().optional(),
  }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r0",
  capabilities: ["desktop.read.geometry"],
  // The grant of the reader it stands for: the pointer (and focus) are get_cursor_position's,
  // displays and window geometry get_screen_size's (ListDisplays stands for get_screen_size).
  authorizeAs: (args) => ({
    tool: args.cursor || args.observe ? "get_cursor_position" : "get_screen_size",
    args: {},
  }),
  async run(ctx, args) {
    const { backend, state } = ctx;
    const out: Record<string, unknown> = {};
    const target = args.window_id === undefined ? null : await backend.windows.get(args.window_id);
    if (args.window_id !== undefined) out.window = windowRow(target);
    if (args.active_window) {
      const id = await backend.windows.active();
      out.active_window = windowRow(id === null ? null : await backend.windows.get(id));
    }
    if (args.displays) {
      out.displays = (await backend.screen.displays()).map((d) => ({
        id: d.id,
        name: d.name,
        primary: d.primary,
        bounds: d.bounds,
        native_width: d.nativeWidth,
        native_height: d.nativeHeight,
        scale_factor: d.scaleFactor,
        refresh_rate_hz: d.refreshRateHz,
      }));
    }
    if (args.cursor) {
      const { x, y } = await backend.screen.cursorPosition();
      out.cursor = { x, y };
    }
    if (args.observe) {
      const seen = await backend.input.observe().catch(() => null);
      out.observation = seen && {
        active_window: seen.activeWindow,
        focus_window: seen.focusWindow,
        pointer: seen.pointer,
        stacking: seen.stacking,
      };
    }
    if (args.screenshot_id !== undefined) {
      const c = state.captures.get(args.screenshot_id);
      out.screenshot = c
        ? {
          id: c.id,
          kind: c.kind,
          window_id: c.windowId,
          display_id: c.displayId,
          bounds: c.bounds,
          window_origin: c.windowOrigin ?? null,
          source_bounds: c.sourceBounds ?? c.bounds,
          image_width: c.imageWidth,
          image_height: c.imageHeight,
        }
        : null;
    }
    return ok(out, "computer context");
  },
});
