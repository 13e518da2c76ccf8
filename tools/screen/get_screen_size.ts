import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";

/** Matches cua-driver get_screen_size: the primary display in points plus its scale. */
export default defineTool({
  name: "get_screen_size",
  title: "Get screen size",
  description: "Return the logical size of the main display in points plus its backing scale factor.",
  group: "screen",
  input: z.strictObject({ session: sessionParam }),
  output: z.object({
    width: z.number(),
    height: z.number(),
    scale_factor: z.number(),
    display_id: z.string(),
  }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r0",
  capabilities: ["desktop.screen.size"],
  async run(ctx) {
    const [primary] = await ctx.backend.screen.displays();
    if (!primary || primary.bounds.width === 0 || primary.bounds.height === 0) {
      throw new DriverError("display_unavailable", "The display reports a size of 0x0", {
        hint: "the X server has no usable screen (WSL without a display server?)",
      });
    }
    const { width, height } = primary.bounds;
    return ok(
      { width, height, scale_factor: primary.scaleFactor, display_id: primary.id },
      `✅ Main display: ${width}x${height} points @ ${primary.scaleFactor}x`,
    );
  },
});
