import { z } from "../../src/lib/schema/mod.ts";
import { captureToScreen } from "../../src/kernel/captures.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { cropRgba } from "../../src/lib/image/crop.ts";
import { encodeCapture } from "../../src/engine/capture_pipeline.ts";
import { imagePart } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam, windowIdParam } from "../_shared/params.ts";
import { requireOwnedWindow } from "../_shared/window_target.ts";

const PADDING = 0.2;
const MAX_WIDTH = 500;

/** A padded JPEG crop of a window region, for reading small text. */
export default defineTool({
  name: "zoom",
  title: "Zoom",
  description:
    "A JPEG of a window region (x1,y1)-(x2,y2) in pixels of this session's latest get_window_state screenshot, with 20% padding, at most 500 px wide; its zoom_id pins points (screenshot_id) or use from_zoom.",
  group: "screen",
  input: z.strictObject({
    window_id: windowIdParam,
    x1: z.number(),
    y1: z.number(),
    x2: z.number(),
    y2: z.number(),
    pid: z.number().int().min(1).optional().describe("Owner pid; checked when given"),
    session: sessionParam,
  }),
  output: z.object({
    width: z.number().int(),
    height: z.number().int(),
    format: z.literal("jpeg"),
    mime_type: z.literal("image/jpeg"),
    zoom_id: z.string(),
    region: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r2",
  capabilities: ["desktop.capture.window"],
  async run(ctx, args) {
    const context = ctx.state.captures.latestForWindow(ctx.session.id, args.window_id);
    if (!context) {
      throw new DriverError(
        "screenshot_context_missing",
        `No screenshot of window ${args.window_id} in this session`,
        {
          window_id: args.window_id,
          hint: "call get_window_state for this window (same session label) first",
        },
      );
    }
    if (args.pid !== undefined) await requireOwnedWindow(ctx, args.pid, args.window_id);
    const left = Math.min(args.x1, args.x2), right = Math.max(args.x1, args.x2);
    const top = Math.min(args.y1, args.y2), bottom = Math.max(args.y1, args.y2);
    if (right - left < 1 || bottom - top < 1) {
      throw new DriverError("invalid_arguments", "The zoom region is empty", {
        field: "x1, y1, x2, y2",
        hint: "give two opposite corners at least one pixel apart",
      });
    }
    const a = captureToScreen(context, left, top), b = captureToScreen(context, right, bottom);
    const padX = (b.x - a.x) * PADDING, padY = (b.y - a.y) * PADDING;
    const { image, bounds } = await ctx.backend.screen.captureWindow(args.window_id);
    const crop = cropRgba(image, {
      x: Math.floor(a.x - padX - bounds.x),
      y: Math.floor(a.y - padY - bounds.y),
      width: Math.ceil(b.x - a.x + 2 * padX),
      height: Math.ceil(b.y - a.y + 2 * padY),
    });
    if (crop.width === 0 || crop.height === 0) {
      throw new DriverError("invalid_arguments", "The zoom region lies outside the window", {
        field: "x1, y1, x2, y2",
        hint: "use coordinates inside the latest get_window_state screenshot",
      });
    }
    const regionX = Math.max(bounds.x, Math.floor(a.x - padX)),
      regionY = Math.max(bounds.y, Math.floor(a.y - padY));
    // Only the width is capped: a tall, narrow region keeps its native scale, which is what zoom is for.
    const size = crop.width <= MAX_WIDTH
      ? { width: crop.width, height: crop.height }
      : { width: MAX_WIDTH, height: Math.max(1, Math.round(crop.height * MAX_WIDTH / crop.width)) };
    const region = { x: regionX, y: regionY, width: crop.width, height: crop.height };
    const zoom = await encodeCapture(
      ctx,
      crop,
      {
        kind: "zoom",
        windowId: args.window_id,
        displayId: context.displayId,
        bounds: region,
        windowOrigin: { x: bounds.x, y: bounds.y },
      },
      { size, format: "jpeg", quality: 85, keepPixels: true },
    );
    return {
      content: [
        imagePart(zoom.bytes, "image/jpeg"),
        { type: "text", text: `✅ Zoom of window ${args.window_id}: ${zoom.width}x${zoom.height} JPEG` },
      ],
      structuredContent: {
        width: zoom.width,
        height: zoom.height,
        format: "jpeg",
        mime_type: "image/jpeg",
        zoom_id: zoom.capture.id,
        region,
      },
    };
  },
});
