/**
 * `cursor_position` of `computer_toolset_20260801`: the user's pointer in pixels of the session's
 * screenshot (`X=…,Y=…`, the SDK's rendering).
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { defineMember } from "./_member.ts";
import { fromScreen, sessionScreen } from "../_shared/session_screen.ts";

export default defineMember({
  name: "cursor_position",
  description: "Get the current (x, y) pixel coordinate of the cursor.",
  input: z.strictObject({}),
  output: z.object({ x: z.number(), y: z.number() }),
  readOnly: true,
  risk: "r0",
  capabilities: ["desktop.cursor.read"],
  async run(ctx) {
    const screen = await sessionScreen(ctx);
    const { x, y } = fromScreen(screen, await ctx.backend.screen.cursorPosition());
    return { content: [{ type: "text", text: `X=${x},Y=${y}` }], structuredContent: { x, y } };
  },
});
