import { z } from "../../src/lib/schema/mod.ts";
import { imagePart, ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { screenshotOutFileParam, sessionParam } from "../_shared/params.ts";
import { encodeShot, writeOutFile } from "../_shared/screenshot.ts";

/** Full primary display as PNG at native resolution, plus the visible windows. */
export default defineTool({
  name: "get_desktop_state",
  title: "Get desktop state",
  description:
    "Capture the primary display at native resolution (PNG, or screenshot_out_file) with its size, scale, a screenshot_id for points in its pixels, and the on-screen windows front to back.",
  group: "screen",
  input: z.strictObject({ session: sessionParam, screenshot_out_file: screenshotOutFileParam }),
  output: z.object({
    platform: z.string(),
    display: z.string(),
    screenshot_width: z.number().int(),
    screenshot_height: z.number().int(),
    screen_width: z.number().int(),
    screen_height: z.number().int(),
    scale_factor: z.number(),
    screenshot_mime_type: z.literal("image/png"),
    screenshot_id: z.string(),
    screenshot_file_path: z.string().optional(),
    windows: z.array(z.object({
      window_id: z.number(),
      pid: z.number().nullable(),
      app_name: z.string(),
      title: z.string().describe('"" for an untitled window'),
      transient_for: z.number().nullable().describe("window_id of the window this one is a dialog of"),
      bounds: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
    })),
  }),
  hints: { readOnly: true, destructive: false, idempotent: false, openWorld: false },
  risk: "r3",
  capabilities: ["desktop.capture.display"],
  async run(ctx, args) {
    const [primary] = await ctx.backend.screen.displays();
    const [image, windows] = await Promise.all([
      ctx.backend.screen.captureDisplay(primary.id),
      ctx.backend.windows.list(),
    ]);
    const shot = await encodeShot(
      ctx,
      image,
      { kind: "display", windowId: null, displayId: primary.id, bounds: primary.bounds },
      0,
    );
    const visible = windows.filter((w) => w.isOnScreen && ctx.state.scope.allowsPid(w.pid)).reverse().map((
      w,
    ) => ({
      window_id: w.windowId,
      pid: w.pid,
      app_name: w.appName,
      title: w.title,
      transient_for: w.transientFor ?? null,
      bounds: w.bounds,
    }));
    const structured: Record<string, unknown> = {
      platform: ctx.backend.os,
      display: "primary",
      screenshot_width: shot.width,
      screenshot_height: shot.height,
      screen_width: primary.bounds.width,
      screen_height: primary.bounds.height,
      scale_factor: primary.scaleFactor,
      screenshot_mime_type: "image/png",
      screenshot_id: shot.capture.id,
      windows: visible,
    };
    const summary = `✅ Desktop ${shot.width}x${shot.height} (${visible.length} windows on screen)`;
    if (args.screenshot_out_file) {
      structured.screenshot_file_path = await writeOutFile(args.screenshot_out_file, shot.png);
      return ok(structured, `${summary}; screenshot written to ${structured.screenshot_file_path}`);
    }
    return {
      content: [imagePart(shot.png, "image/png"), { type: "text", text: summary }],
      structuredContent: structured,
    };
  },
});
