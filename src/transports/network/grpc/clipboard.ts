/**
 * ComputerService.GetClipboard and SetClipboard through the clipboard_read and
 * clipboard_write tools. Text and PNG images both ways; one file path on write.
 * Not supported (FEATURE_UNSUPPORTED): several flavours in one write, several file
 * paths; file paths are never reported on read.
 *
 * The generation counter is this server's: it moves on every write and whenever a
 * read sees content different from the previous read.
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import { createHash } from "node:crypto";
import { fromBase64 } from "../../../kernel/result.ts";
import { callTool, type InputScope } from "./geometry.ts";
import { invalid, unsupported } from "./errors.ts";
import {
  type ClipboardContent,
  type GetClipboardResponse,
  GetClipboardResponseSchema,
  type SetClipboardResponse,
  SetClipboardResponseSchema,
} from "./gen/cua/env/v1/computer_pb.ts";

const MAX_TEXT_BYTES = 1 << 20;
const MAX_IMAGE_BYTES = 16 << 20;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The clipboard RPCs and their generation counter. */
export class ClipboardService {
  #generation = 0n;
  #lastSeen: string | null = null;

  /** Reads text and image flavours. */
  async get(scope: InputScope): Promise<GetClipboardResponse> {
    const result = await call(scope, "clipboard_read", { include_text: true, include_image: true });
    const structured = result.structuredContent as { text?: string | null; types?: string[] };
    const image = result.content.find((part) => part.type === "image" && part.mimeType === "image/png");
    const imagePng = image?.type === "image" ? fromBase64(image.data) : undefined;
    const text = structured.text ?? undefined;
    const digest = createHash("sha256").update(JSON.stringify([structured.types ?? [], text ?? null]));
    if (imagePng) digest.update(imagePng);
    const seen = digest.digest("hex");
    if (this.#lastSeen !== null && this.#lastSeen !== seen) this.#generation++;
    this.#lastSeen = seen;
    return create(GetClipboardResponseSchema, {
      content: { text, imagePng, filePaths: [] },
      generation: this.#generation,
    });
  }

  /** Replaces the clipboard with exactly one flavour. */
  async set(scope: InputScope, content: ClipboardContent | undefined): Promise<SetClipboardResponse> {
    if (!content) throw invalid("content is required", "content");
    const flavours =
      [content.text !== undefined, content.imagePng !== undefined, content.filePaths.length > 0]
        .filter(Boolean).length;
    if (flavours === 0) throw invalid("content names no flavour (text, image_png or file_paths)", "content");
    if (flavours > 1) {
      throw unsupported("clipboard.multiple_flavors", "This driver writes one clipboard flavour at a time");
    }
    if (content.text !== undefined) {
      if (new TextEncoder().encode(content.text).byteLength > MAX_TEXT_BYTES) {
        throw invalid("content.text is larger than 1 MiB", "content.text");
      }
      await call(scope, "clipboard_write", { text: content.text });
    } else if (content.imagePng !== undefined) {
      await this.#writeImage(scope, content.imagePng);
    } else {
      if (content.filePaths.length > 1) {
        throw unsupported(
          "clipboard.files.multiple",
          "This driver puts one file path on the clipboard at a time",
        );
      }
      await call(scope, "clipboard_write", { file_path: content.filePaths[0] });
    }
    this.#generation++;
    this.#lastSeen = null;
    return create(SetClipboardResponseSchema, { generation: this.#generation });
  }

  async #writeImage(scope: InputScope, png: Uint8Array): Promise<void> {
    if (png.byteLength > MAX_IMAGE_BYTES) {
      throw invalid("content.image_png is larger than 16 MiB", "content.image_png");
    }
    if (!PNG_SIGNATURE.every((byte, i) => png[i] === byte)) {
      throw invalid("content.image_png is not a PNG image", "content.image_png");
    }
    // clipboard_write takes a path; the bytes are read at once, so the file is removed right after.
    const path = await Deno.makeTempFile({ prefix: "cua-clipboard-", suffix: ".png" });
    try {
      await Deno.writeFile(path, png, { mode: 0o600 });
      await call(scope, "clipboard_write", { image_path: path });
    } finally {
      await Deno.remove(path).catch(() => {});
    }
  }
}

const call = callTool;
