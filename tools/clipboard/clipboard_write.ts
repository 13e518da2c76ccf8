import { isAbsolute } from "node:path";
import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { checkCallerFile, readCallerFile } from "../../src/kernel/safe_files.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { privacy, privacyFields } from "./_privacy.ts";

/** The largest PNG clipboard_write reads: far above any screen's screenshot, far below what would exhaust memory. */
export const CLIPBOARD_IMAGE_LIMIT = 32 * 1024 * 1024;

function requireAbsolute(path: string, field: string): void {
  if (!isAbsolute(path)) {
    throw new DriverError("invalid_arguments", `${field} must be an absolute path: "${path}"`, {
      field,
      hint: "pass an absolute path such as /home/me/picture.png",
    });
  }
}

/** Replaces the clipboard with exactly one value. */
export default defineTool({
  name: "clipboard_write",
  title: "Write clipboard",
  description:
    "Replace the clipboard with one value: text, a PNG image or a file reference (absolute local paths). The driver owns the content, so it stays while the driver runs.",
  group: "clipboard",
  input: z.strictObject({
    text: z.string().max(1 << 20).optional(),
    image_path: z.string().optional().describe("Absolute path of a PNG image"),
    file_path: z.string().optional().describe(
      "Absolute path of a file to put on the clipboard as a file URL",
    ),
    session: sessionParam,
  }),
  output: z.object({ ...privacyFields, written_type: z.enum(["text", "image", "file_url"]) }),
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  risk: "r1",
  capabilities: ["clipboard.write"],
  async run(ctx, args) {
    const given = (["text", "image_path", "file_path"] as const).filter((k) => args[k] !== undefined);
    if (given.length !== 1) {
      throw new DriverError("invalid_arguments", "Pass exactly one of text, image_path or file_path", {
        field: given.length ? given.join(", ") : "text",
        hint: "clipboard_write replaces the clipboard with one value",
      });
    }
    let types: string[];
    let written: "text" | "image" | "file_url";
    if (args.text !== undefined) {
      types = await ctx.backend.clipboard.writeText(args.text);
      written = "text";
    } else if (args.image_path !== undefined) {
      requireAbsolute(args.image_path, "image_path");
      const { bytes } = await readCallerFile(args.image_path, {
        field: "image_path",
        maxBytes: CLIPBOARD_IMAGE_LIMIT,
      });
      const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
      if (!PNG_SIGNATURE.every((b, i) => bytes[i] === b)) {
        throw new DriverError("invalid_arguments", `Not a PNG image: "${args.image_path}"`, {
          field: "image_path",
          hint: "convert the image to PNG first",
        });
      }
      types = await ctx.backend.clipboard.writeImage(bytes);
      written = "image";
    } else {
      requireAbsolute(args.file_path!, "file_path");
      const path = await checkCallerFile(args.file_path!, { field: "file_path" });
      types = await ctx.backend.clipboard.writeFiles([path]);
      written = "file_url";
    }
    return ok(
      { ...privacy(types), written_type: written },
      `✅ Clipboard now holds ${written} (${types.join(", ")})`,
    );
  },
});
