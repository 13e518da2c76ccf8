import { z } from "../../src/lib/schema/mod.ts";
import { imagePart, ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { privacy, privacyFields } from "./_privacy.ts";

/** Lists clipboard types; returns text or the image only when asked. */
export default defineTool({
  name: "clipboard_read",
  title: "Read clipboard",
  description:
    "The clipboard's types, and its text (include_text) or image (include_image, a PNG part). Privacy-sensitive: read it only when the task needs it.",
  group: "clipboard",
  input: z.strictObject({
    include_text: z.boolean().default(false).describe("Return the plain text (default false)"),
    include_image: z.boolean().default(false).describe("Return an image flavour as PNG (default false)"),
    session: sessionParam,
  }),
  output: z.object({
    ...privacyFields,
    text: z.string().nullable(),
    has_image: z.boolean(),
  }),
  hints: { readOnly: true, destructive: false, idempotent: false, openWorld: false },
  risk: "r2",
  capabilities: ["clipboard.read"],
  async run(ctx, args) {
    const content = await ctx.backend.clipboard.read({ text: args.include_text, image: args.include_image });
    const hasImage = content.imagePng !== null || content.types.some((t) => t.startsWith("image/"));
    const structured = {
      ...privacy(content.types),
      text: args.include_text ? content.text : null,
      has_image: hasImage,
    };
    const summary = content.types.length
      ? `✅ Clipboard offers ${content.types.join(", ")}`
      : "✅ The clipboard is empty";
    const result = ok(
      structured,
      args.include_text && content.text !== null ? `${summary}\n${content.text}` : summary,
    );
    if (args.include_image && content.imagePng) result.content.push(imagePart(content.imagePng, "image/png"));
    return result;
  },
});
