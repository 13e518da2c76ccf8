/**
 * `screenshot` of `computer_toolset_20260801`: the primary display as a PNG of the session's fixed
 * screenshot size (see _screen.ts), the pixels every coordinate of the other members is in.
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { captureArea, encodeCapture } from "../../src/engine/capture_pipeline.ts";
import { imagePart } from "../../src/kernel/result.ts";
import { defineMember } from "./_member.ts";
import { sessionScreen } from "../_shared/session_screen.ts";

export default defineMember({
  name: "screenshot",
  description: "Take a screenshot of the screen.",
  input: z.strictObject({}),
  output: z.object({ width: z.number().int(), height: z.number().int() }),
  readOnly: true,
  risk: "r3",
  capabilities: ["desktop.capture.display"],
  async run(ctx) {
    const screen = await sessionScreen(ctx);
    const area = await captureArea(ctx, { source: { kind: "display", displayId: screen.display.id } });
    const shot = await encodeCapture(ctx, area.image, area.origin, { size: screen.shot, format: "png" });
    return {
      content: [imagePart(shot.bytes, shot.mimeType)],
      structuredContent: { width: shot.width, height: shot.height },
    };
  },
});
