/**
 * `zoom` of `computer_toolset_20260801`: a region given in screenshot pixels, captured from the
 * display at its native resolution (a fresh capture, not a crop of the scaled screenshot).
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { captureArea, encodeCapture } from "../../src/engine/capture_pipeline.ts";
import { imagePart } from "../../src/kernel/result.ts";
import { defineMember } from "./_member.ts";
import { regionToDisplay, sessionScreen } from "../_shared/session_screen.ts";

const rect = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export default defineMember({
  name: "zoom",
  description: "Capture the region (x0, y0, x1, y1) of the screenshot at the display's native resolution.",
  input: z.strictObject({
    region: z.array(z.number()).min(4).max(4).describe("(x0, y0, x1, y1): The region to capture."),
  }),
  output: z.object({ width: z.number().int(), height: z.number().int(), screen_region: rect }),
  readOnly: true,
  risk: "r3",
  capabilities: ["desktop.capture.display"],
  async run(ctx, args) {
    const screen = await sessionScreen(ctx);
    const region = regionToDisplay(screen, args.region);
    const area = await captureArea(ctx, {
      source: { kind: "display", displayId: screen.display.id },
      region,
    });
    const shot = await encodeCapture(ctx, area.image, area.origin, { size: 0, format: "png" });
    return {
      content: [imagePart(shot.bytes, shot.mimeType)],
      structuredContent: { width: shot.width, height: shot.height, screen_region: area.origin.bounds },
    };
  },
});
