/**
 * `computer_screenshot`: the cua.env.v1 ComputerService Screenshot through the registry and
 * the core capture pipeline: a display or a window (its own pixels, even when covered),
 * optionally a region, downscaled, encoded as PNG or JPEG, and registered so later input
 * in its pixels converts to screen points. Not in tools/list: the gRPC transport calls it.
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { captureArea, encodeCapture } from "../../src/engine/capture_pipeline.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { imagePart, ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { requireOwnedWindow } from "../_shared/window_target.ts";

const rect = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export default defineTool({
  name: "computer_screenshot",
  title: "Computer screenshot",
  description: "Captures a display or a window (optionally a region), downscaled and encoded as PNG or " +
    "JPEG, and registers it as a screenshot_id for input in its pixels.",
  group: "screen",
  listed: false,
  input: z.strictObject({
    display_id: z.string().optional().describe('A display id; "" or "primary" is the primary display'),
    window_id: z.number().int().min(1).optional(),
    pid: z.number().int().min(1).optional().describe("The window's owner pid, checked when given"),
    region: rect.optional().describe("Points relative to the source's top-left"),
    max_dimension: z.number().int().min(0).default(0),
    format: z.enum(["png", "jpeg"]).default("png"),
    quality: z.number().int().min(0).max(100).default(0).describe("JPEG quality; 0 = default"),
    session: sessionParam,
  }),
  output: z.object({
    screenshot_id: z.string(),
    format: z.enum(["png", "jpeg"]),
    width: z.number(),
    height: z.number(),
    native_width: z.number(),
    native_height: z.number(),
    logical_bounds: rect,
    display_id: z.string(),
    window_id: z.number().nullable(),
    captured_at_ms: z.number(),
  }),
  hints: { readOnly: true, destructive: false, idempotent: false, openWorld: false },
  risk: "r3",
  capabilities: ["desktop.capture.display", "desktop.capture.window"],
  // Bounded manifests name the listed tools: a window capture is get_window_state's grant, a display's get_desktop_state's.
  authorizeAs: (args) =>
    args.window_id === undefined
      ? { tool: "get_desktop_state", args: {} }
      : { tool: "get_window_state", args: { pid: args.pid ?? 0, window_id: args.window_id } },
  async run(ctx, args) {
    let source: { kind: "window"; windowId: number } | { kind: "display"; displayId: string };
    if (args.window_id !== undefined) {
      const window = await ctx.backend.windows.get(args.window_id);
      if (!window) {
        throw new DriverError("window_target_not_found", `Window ${args.window_id} does not exist`, {
          window_id: args.window_id,
          hint: "call list_windows to refresh window ids",
        });
      }
      if (args.pid !== undefined && window.pid !== null) {
        await requireOwnedWindow(ctx, args.pid, args.window_id);
      }
      source = { kind: "window", windowId: args.window_id };
    } else {
      const displays = await ctx.backend.screen.displays();
      const wanted = args.display_id ?? "";
      const display = wanted === "" || wanted === "primary"
        ? displays.find((d) => d.primary) ?? displays[0]
        : displays.find((d) => d.id === wanted);
      if (!display) {
        throw new DriverError("window_target_not_found", `No display "${wanted}"`, {
          display_id: wanted,
          hint: "ListDisplays names the display ids",
        });
      }
      source = { kind: "display", displayId: display.id };
    }
    const area = await captureArea(ctx, { source, region: args.region });
    const shot = await encodeCapture(ctx, area.image, area.origin, {
      size: args.max_dimension,
      format: args.format,
      quality: args.quality === 0 ? undefined : args.quality,
    });
    const structured = {
      screenshot_id: shot.capture.id,
      format: args.format,
      width: shot.width,
      height: shot.height,
      native_width: area.nativeWidth,
      native_height: area.nativeHeight,
      logical_bounds: shot.capture.bounds,
      display_id: shot.capture.displayId,
      window_id: shot.capture.windowId,
      captured_at_ms: shot.capture.capturedAt,
    };
    return ok(structured, `screenshot ${shot.capture.id}: ${shot.width}x${shot.height} ${args.format}`, [
      imagePart(shot.bytes, shot.mimeType),
    ]);
  },
});
