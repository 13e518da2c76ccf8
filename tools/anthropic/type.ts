/**
 * `type` of `computer_toolset_20260801`: text into the focused window through the driver's
 * `type_text` on the desktop (its keyboard ladder and read-back).
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import typeText from "../input/type_text.ts";
import { actionReply, defineMember, runOwn } from "./_member.ts";

export default defineMember({
  name: "type",
  description: "Type a string of text on the keyboard, into the window that has the focus.",
  input: z.strictObject({ text: z.string().min(1).max(20_000).describe("The text to type.") }),
  capabilities: ["input.keyboard.type"],
  async run(ctx, args) {
    return actionReply(await runOwn(ctx, typeText, { text: args.text, target: { kind: "desktop" } }));
  },
});
