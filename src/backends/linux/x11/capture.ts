/**
 * Screen and window capture: MIT-SHM first (about 1.5 ms for 1920x1080), plain
 * XGetImage on a worker thread when the server has no shared memory.
 *
 * @module
 */
import { unwrapStatus } from "../../../../ffi/_errors.ts";
import { IPC, libc } from "../../../../ffi/linux/libc.ts";
import { X, x11, XImageLayout } from "../../../../ffi/linux/x11.ts";
import { xext, XShmSegmentInfoLayout } from "../../../../ffi/linux/xext.ts";
import { DriverError } from "../../../ports/errors.ts";
import { bgrxImage } from "../../../lib/image/bgrx_image.ts";
import type { Rect } from "../../../ports/geometry.ts";
import type { RawImage } from "../../../ports/screen.ts";
import { XConnection } from "./connection.ts";

/** A shared-memory segment attached to the server, reused across captures. */
class ShmSegment {
  readonly info: Deno.PointerObject;
  readonly #infoBytes: Uint8Array;
  readonly address: Deno.PointerObject;
  readonly shmid: number;

  constructor(readonly connection: XConnection, readonly size: number) {
    const c = libc.symbols;
    this.shmid = c.shmget(IPC.PRIVATE, BigInt(size), IPC.CREAT | 0o600);
    if (this.shmid < 0) throw new DriverError("capture_failed", `shmget of ${size} bytes failed`);
    const address = c.shmat(this.shmid, null, 0);
    if (!address || Deno.UnsafePointer.value(address) === 0xffffffffffffffffn) {
      c.shmctl(this.shmid, IPC.RMID, null);
      throw new DriverError("capture_failed", "shmat failed");
    }
    this.address = address;
    // Native-owned so Xlib can keep the pointer (XShmCreateImage stores it in obdata).
    this.info = c.calloc(1n, BigInt(XShmSegmentInfoLayout.size))!;
    this.#infoBytes = new Uint8Array(
      Deno.UnsafePointerView.getArrayBuffer(this.info, XShmSegmentInfoLayout.size),
    );
    const view = new DataView(this.#infoBytes.buffer, this.#infoBytes.byteOffset);
    view.setInt32(XShmSegmentInfoLayout.shmid, this.shmid, true);
    view.setBigUint64(XShmSegmentInfoLayout.shmaddr, BigInt(Deno.UnsafePointer.value(address)), true);
    view.setInt32(XShmSegmentInfoLayout.readOnly, 0, true);
    const { value, errors } = connection.trap(() =>
      xext.symbols.XShmAttach(connection.unsafeDisplay(), this.info)
    );
    // Mark for removal now: the segment goes away once both sides detach, even if we crash.
    c.shmctl(this.shmid, IPC.RMID, null);
    if (!value || errors.length) {
      this.#release(false);
      throw new DriverError("capture_failed", "XShmAttach failed (is the X server remote?)");
    }
  }

  #release(attached: boolean): void {
    if (attached && this.connection.alive) {
      this.connection.trap(() => xext.symbols.XShmDetach(this.connection.unsafeDisplay(), this.info));
    }
    libc.symbols.shmdt(this.address);
    libc.symbols.free(this.info);
  }

  dispose(): void {
    this.#release(true);
  }
}

/**
 * Copies the pixels of an XImage out of X-owned memory as a {@linkcode bgrxImage}: a memcpy
 * here, converted to RGBA only if a consumer reads `data` (the PNG encoder filters BGRX directly).
 */
function toImage(
  source: Deno.PointerObject,
  image: Deno.PointerObject,
  width: number,
  height: number,
  into?: Uint8Array,
): RawImage {
  const header = new Deno.UnsafePointerView(image);
  const bitsPerPixel = header.getInt32(XImageLayout.bits_per_pixel);
  const bytesPerLine = header.getInt32(XImageLayout.bytes_per_line);
  const red = header.getBigUint64(XImageLayout.red_mask);
  const green = header.getBigUint64(XImageLayout.green_mask);
  const blue = header.getBigUint64(XImageLayout.blue_mask);
  const byteOrder = header.getInt32(XImageLayout.byte_order);
  if (bitsPerPixel !== 32 || byteOrder !== 0 || red !== 0xff0000n || green !== 0xff00n || blue !== 0xffn) {
    throw new DriverError(
      "capture_failed",
      `Unsupported pixel format: ${bitsPerPixel} bpp, byte order ${byteOrder}, masks ${red.toString(16)}/${
        green.toString(16)
      }/${blue.toString(16)}`,
      { hint: "run the X server at depth 24 or 32 (for example Xvfb -screen 0 1920x1080x24)" },
    );
  }
  const rowBytes = width * 4;
  const bgrx = into?.length === rowBytes * height ? into : new Uint8Array(rowBytes * height);
  if (bytesPerLine === rowBytes) {
    Deno.UnsafePointerView.copyInto(source, bgrx);
  } else {
    const all = new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(source, bytesPerLine * height));
    for (let y = 0; y < height; y++) {
      bgrx.set(all.subarray(y * bytesPerLine, y * bytesPerLine + rowBytes), y * rowBytes);
    }
  }
  return bgrxImage(width, height, bgrx);
}

/** Captures rectangles of the root window or of a window. */
export class X11Capture {
  #segment: ShmSegment | null = null;
  #shmBroken = false;
  #slowConnection: XConnection | null = null;
  #slowBusy: Promise<unknown> = Promise.resolve();

  constructor(readonly connection: XConnection) {}

  /** True when captures use shared memory. */
  get usesShm(): boolean {
    return !this.#shmBroken && xext.available() && this.#segment !== null;
  }

  /**
   * Captures `rect` of `drawable` (drawable-relative coordinates).
   *
   * @throws {DriverError} `capture_failed` when the server refuses (unmapped window, bad rect).
   */
  async capture(
    drawable: bigint,
    rect: Rect,
    visual: Deno.PointerValue,
    depth: number,
    into?: Uint8Array,
  ): Promise<RawImage> {
    if (rect.width <= 0 || rect.height <= 0) {
      throw new DriverError("capture_failed", `Nothing to capture: ${rect.width}x${rect.height}`);
    }
    if (!this.#shmBroken && xext.available()) {
      try {
        return this.#captureShm(drawable, rect, visual, depth, into);
      } catch (error) {
        if (!(error instanceof DriverError) || error.data.shm !== "unavailable") throw error;
        this.#shmBroken = true;
      }
    }
    return await this.#captureSlow(drawable, rect);
  }

  #captureShm(
    drawable: bigint,
    rect: Rect,
    visual: Deno.PointerValue,
    depth: number,
    into?: Uint8Array,
  ): RawImage {
    const connection = this.connection;
    const display = connection.unsafeDisplay();
    const size = rect.width * rect.height * 4;
    if (!this.#segment || this.#segment.size < size || this.#segment.connection !== connection) {
      this.#segment?.dispose();
      this.#segment = null;
      const { width, height } = connection.screenSize();
      try {
        unwrapStatus("XShmQueryExtension", xext.symbols.XShmQueryExtension(display), "no MIT-SHM");
        this.#segment = new ShmSegment(connection, Math.max(size, width * height * 4));
      } catch (cause) {
        throw new DriverError("capture_failed", "MIT-SHM is unavailable", { shm: "unavailable" }, { cause });
      }
    }
    const segment = this.#segment;
    const image = xext.symbols.XShmCreateImage(
      display,
      visual,
      depth,
      X.ZPixmap,
      segment.address,
      segment.info,
      rect.width,
      rect.height,
    );
    if (!image) {
      throw new DriverError("capture_failed", "XShmCreateImage failed", {
        shm: "unavailable",
        symbol: "XShmCreateImage",
      });
    }
    try {
      const { value, errors } = connection.trap(() =>
        xext.symbols.XShmGetImage(display, drawable, image, rect.x, rect.y, X.AllPlanes)
      );
      if (!value || errors.length) {
        throw new DriverError(
          "capture_failed",
          `The X server refused to capture drawable 0x${drawable.toString(16)}`,
          {
            hint: "the window may be unmapped, minimized or partly off-screen",
            symbol: "XShmGetImage",
            x_error: errors[0]?.errorCode,
          },
        );
      }
      return toImage(segment.address, image, rect.width, rect.height, into);
    } finally {
      // UNSAFE: XDestroyImage frees data and obdata; both belong to the segment, so clear them first.
      const header = new DataView(Deno.UnsafePointerView.getArrayBuffer(image, 88));
      header.setBigUint64(XImageLayout.data, 0n, true);
      header.setBigUint64(XImageLayout.obdata, 0n, true);
      x11.symbols.XDestroyImage(image);
    }
  }

  /** XGetImage on its own connection, run off the main thread. Calls are serialized. */
  async #captureSlow(drawable: bigint, rect: Rect): Promise<RawImage> {
    const run = async (): Promise<RawImage> => {
      if (!this.#slowConnection?.alive) this.#slowConnection = XConnection.open(this.connection.name);
      const slow = this.#slowConnection;
      const display = slow.unsafeDisplay();
      slow.drainErrors();
      const image = await x11.symbols.XGetImageNonblocking(
        display,
        drawable,
        rect.x,
        rect.y,
        rect.width,
        rect.height,
        X.AllPlanes,
        X.ZPixmap,
      );
      const errors = slow.drainErrors();
      if (!image || errors.length) {
        throw new DriverError("capture_failed", `XGetImage of drawable 0x${drawable.toString(16)} failed`, {
          hint: "the window may be unmapped, minimized or partly off-screen",
        });
      }
      try {
        const data = new Deno.UnsafePointerView(image).getPointer(XImageLayout.data)!;
        return toImage(data, image, rect.width, rect.height);
      } finally {
        x11.symbols.XDestroyImage(image);
      }
    };
    const result = this.#slowBusy.then(run, run);
    this.#slowBusy = result.catch(() => {});
    return await result;
  }

  /** Releases the segment and the extra connection. */
  dispose(): void {
    if (this.#segment && this.connection.alive) this.#segment.dispose();
    this.#segment = null;
    this.#slowConnection?.close();
    this.#slowConnection = null;
  }
}
