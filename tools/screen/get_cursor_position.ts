import { z } from "../../src/lib/schema/mod.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";

/** Matches cua-driver get_cursor_position: the real pointer in screen points. */
export default defineTool({
  name: "get_cursor_position",
  title: "Get cursor position",
  description: "Return the current mouse cursor position in screen points (origin top-left).",
  group: "screen",
  input: z.strictObject({ session: sessionParam }),
  output: z.object({ x: z.number(), y: z.number(), available: z.boolean(), source: z.string() }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r0",
  capabilities: ["desktop.cursor.read"],
  async run(ctx) {
    const position = await ctx.backend.screen.cursorPosition();
    return ok(
      { x: position.x, y: position.y, available: true, source: position.source },
      `✅ Cursor at (${position.x}, ${position.y})`,
    );
  },
});
