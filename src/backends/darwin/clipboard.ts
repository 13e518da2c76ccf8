/**
 * The macOS {@linkcode ClipboardBackend}: the general NSPasteboard, through the
 * Objective-C runtime. Text is public.utf8-plain-text, images public.png (a TIFF-only
 * image is converted through NSBitmapImageRep), files are file URLs.
 *
 * @module
 */
import { NSBitmapImageFileType } from "../../../ffi/darwin/app_kit.ts";
import { DriverError } from "../../ports/errors.ts";
import type { ClipboardBackend, ClipboardContent } from "../../ports/clipboard.ts";
import type { DarwinContext } from "./context.ts";
import type { Id } from "./objc_runtime.ts";
import { settled } from "./settled.ts";

/** The clipboard on macOS. */
export class DarwinClipboard implements ClipboardBackend {
  constructor(readonly ctx: DarwinContext) {}

  #pasteboard(): Id {
    return this.ctx.objc.id(this.ctx.objc.cls("NSPasteboard"), "generalPasteboard")!;
  }

  #type(
    name:
      | "NSPasteboardTypeString"
      | "NSPasteboardTypePNG"
      | "NSPasteboardTypeTIFF"
      | "NSPasteboardTypeFileURL",
  ) {
    const value = this.ctx.fw.appKit[name];
    if (value === null) throw new DriverError("clipboard_unavailable", `AppKit does not export ${name}`, {});
    return value;
  }

  /** The types on the pasteboard, and its text and PNG image when asked for. */
  read(options: { text: boolean; image: boolean }): Promise<ClipboardContent> {
    return settled(() => {
      const { cf, objc } = this.ctx;
      return objc.pool(() => {
        const board = this.#pasteboard();
        const types = cf.items(objc.id(board, "types")).map((ref) => cf.toString(ref) ?? "");
        const text = options.text
          ? cf.toString(objc.idWith(board, "stringForType:", this.#type("NSPasteboardTypeString")))
          : null;
        let imagePng: Uint8Array | null = null;
        if (options.image) {
          imagePng = cf.toBytes(objc.idWith(board, "dataForType:", this.#type("NSPasteboardTypePNG")));
          if (!imagePng) {
            const tiff = objc.idWith(board, "dataForType:", this.#type("NSPasteboardTypeTIFF"));
            const rep = tiff ? objc.idWith(objc.cls("NSBitmapImageRep"), "imageRepWithData:", tiff) : null;
            if (rep) {
              using properties = cf.dictionary([]);
              const png = objc.send.msgSend_id_u64_id(
                rep,
                objc.sel("representationUsingType:properties:"),
                NSBitmapImageFileType.PNG,
                properties.ref,
              );
              imagePng = cf.toBytes(png);
            }
          }
        }
        return { types, text, imagePng };
      });
    });
  }

  #replace(what: string, write: (board: Id) => boolean): void {
    const ok = this.ctx.objc.pool(() => {
      const board = this.#pasteboard();
      this.ctx.objc.integer(board, "clearContents");
      return write(board);
    });
    if (!ok) {
      throw new DriverError("clipboard_unavailable", `The pasteboard refused ${what}`, {
        hint: "another app may hold the pasteboard; retry",
      });
    }
  }

  /** Replaces the clipboard with text. */
  writeText(text: string): Promise<string[]> {
    return settled(() => {
      this.#replace("the text", (board) => {
        using value = this.ctx.cf.string(text);
        return this.ctx.objc.send.msgSend_bool_id_id(
          board,
          this.ctx.objc.sel("setString:forType:"),
          value.ref,
          this.#type("NSPasteboardTypeString"),
        );
      });
      return ["public.utf8-plain-text"];
    });
  }

  /** Replaces the clipboard with a PNG image. */
  writeImage(png: Uint8Array): Promise<string[]> {
    return settled(() => {
      this.#replace("the image", (board) => {
        using data = this.ctx.cf.data(png.slice());
        return this.ctx.objc.send.msgSend_bool_id_id(
          board,
          this.ctx.objc.sel("setData:forType:"),
          data.ref,
          this.#type("NSPasteboardTypePNG"),
        );
      });
      return ["public.png"];
    });
  }

  /** Replaces the clipboard with file URLs (absolute paths), as Finder's Copy does. */
  writeFiles(paths: string[]): Promise<string[]> {
    return settled(() => {
      this.#replace("the files", (board) => {
        const urls = paths.map((path) => this.ctx.cf.fileUrl(path));
        try {
          using list = this.ctx.cf.array(urls.map((url) => url.ref));
          return this.ctx.objc.send.msgSend_bool_id(board, this.ctx.objc.sel("writeObjects:"), list.ref);
        } finally {
          for (const url of urls) url.release();
        }
      });
      return ["public.file-url"];
    });
  }
}
