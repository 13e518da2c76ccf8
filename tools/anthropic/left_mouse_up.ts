/**
 * `left_mouse_up` of `computer_toolset_20260801` (see _left_button.ts).
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { leftButton } from "./_left_button.ts";
import { actionReply, defineMember } from "./_member.ts";

export default defineMember({
  name: "left_mouse_up",
  description: "Release the left mouse button at the current cursor position.",
  input: z.strictObject({}),
  capabilities: ["input.pointer.button"],
  async run(ctx) {
    return actionReply(await leftButton(ctx, false));
  },
});
