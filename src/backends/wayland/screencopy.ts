/**
 * Output capture with `zwlr_screencopy_manager_v1` into a `wl_shm` buffer backed by a memfd:
 * the compositor offers a format and size, the client supplies a buffer, the compositor copies
 * the composited output (or a region of it) into it and says `ready`. The pixels are XRGB/ARGB
 * words, BGRX bytes in memory: the project's BGRX image type takes them with one copy. The buffer
 * is kept for the next capture of the same size.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import { bgrxImage } from "../../lib/image/bgrx_image.ts";
import type { Rect } from "../../ports/geometry.ts";
import type { RawImage } from "../../ports/screen.ts";
import type { Connected, WaylandDisplay } from "./display.ts";
import { ShmFormat } from "./wire/protocol.ts";
import { SharedMemory } from "./wire/shm.ts";

/** The buffer offer of a frame. */
interface Offer {
  format: number;
  width: number;
  height: number;
  stride: number;
}

/** A shm buffer the compositor can copy into. */
interface Buffer {
  key: string;
  generation: number;
  memory: SharedMemory;
  pool: number;
  buffer: number;
}

const CAPTURE_TIMEOUT_MS = 10_000;

/** Screencopy on the back end's connection. */
export class Screencopy {
  #buffer: Buffer | null = null;

  constructor(readonly display: WaylandDisplay) {}

  /** True when the compositor offers screencopy. */
  async available(): Promise<boolean> {
    return (await this.display.connected()).wire.version("zwlr_screencopy_manager_v1") > 0;
  }

  /**
   * Captures output `outputId` whole, or the `region` of it (output-local pixels).
   *
   * @throws {DriverError} `unsupported_platform` without screencopy; `capture_failed` when the
   *   compositor refuses the frame.
   */
  async capture(outputId: number, region?: Rect): Promise<RawImage> {
    const connected = await this.display.connected();
    const { wire } = connected;
    const manager = this.#manager(connected);
    const frame = wire.newId("zwlr_screencopy_frame_v1");
    let offer: Offer | null = null;
    let offered = false;
    let yInvert = false;
    const frameState = { value: "pending" as "pending" | "ready" | "failed" };
    const status = () => frameState.value;
    const version = wire.version("zwlr_screencopy_manager_v1");
    wire.listen(frame, (event) => {
      switch (event.name) {
        case "buffer": {
          const [format, width, height, stride] = event.args as number[];
          if (format === ShmFormat.XRGB8888 || format === ShmFormat.ARGB8888 || !offer) {
            offer = { format, width, height, stride };
          }
          if (version < 3) offered = true; // v1-2 send no buffer_done
          break;
        }
        case "buffer_done":
          offered = true;
          break;
        case "flags":
          yInvert = ((event.args[0] as number) & 1) === 1;
          break;
        case "ready":
          frameState.value = "ready";
          break;
        case "failed":
          frameState.value = "failed";
          offered = true;
          break;
      }
    });
    try {
      if (region) {
        const { x, y, width, height } = region;
        wire.request(manager, "capture_output_region", [
          frame,
          0,
          outputId,
          Math.round(x),
          Math.round(y),
          Math.round(width),
          Math.round(height),
        ]);
      } else {
        wire.request(manager, "capture_output", [frame, 0, outputId]);
      }
      await wire.dispatchUntil(() => offered, "a screencopy buffer offer", CAPTURE_TIMEOUT_MS);
      const got = offer as Offer | null;
      if (status() === "failed" || !got) {
        throw new DriverError("capture_failed", "The compositor refused the capture");
      }
      if (got.format !== ShmFormat.XRGB8888 && got.format !== ShmFormat.ARGB8888) {
        throw new DriverError("capture_failed", `The compositor offers only wl_shm format ${got.format}`);
      }
      const buffer = this.#bufferFor(connected, got);
      wire.request(frame, "copy", [buffer.buffer]);
      await wire.dispatchUntil(
        () => status() !== "pending",
        "a screencopy frame",
        CAPTURE_TIMEOUT_MS,
      );
      if (status() === "failed") {
        throw new DriverError("capture_failed", "The compositor failed the copy");
      }
      return toImage(buffer.memory.bytes, got, yInvert);
    } finally {
      if (wire.alive) wire.request(frame, "destroy", []);
      wire.forget(frame);
    }
  }

  #manager(connected: Connected): number {
    const cached = managers.get(connected);
    if (cached !== undefined) return cached;
    const id = connected.wire.bind("zwlr_screencopy_manager_v1", 3);
    if (id === null) {
      throw new DriverError("unsupported_platform", "This compositor offers no zwlr_screencopy_manager_v1", {
        hint: "capture needs a wlroots compositor (sway, Hyprland, labwc, river) or GNOME's ScreenCast",
      });
    }
    managers.set(connected, id);
    return id;
  }

  #bufferFor(connected: Connected, offer: Offer): Buffer {
    const key = `${offer.format}:${offer.width}x${offer.height}:${offer.stride}`;
    const current = this.#buffer;
    if (current && current.key === key && current.generation === this.display.generation) return current;
    this.#release();
    const { wire } = connected;
    const size = offer.stride * offer.height;
    const memory = SharedMemory.create(size, "cua-driver-capture");
    try {
      const shm = shmOf(connected);
      const pool = wire.newId("wl_shm_pool");
      wire.request(shm, "create_pool", [pool, { fd: memory.fd }, size]);
      const buffer = wire.newId("wl_buffer");
      wire.request(pool, "create_buffer", [buffer, 0, offer.width, offer.height, offer.stride, offer.format]);
      this.#buffer = { key, generation: this.display.generation, memory, pool, buffer };
      return this.#buffer;
    } catch (error) {
      memory.close();
      throw error;
    }
  }

  #release(): void {
    const current = this.#buffer;
    this.#buffer = null;
    if (!current) return;
    current.memory.close();
  }

  /** Frees the buffer. */
  dispose(): void {
    this.#release();
  }
}

const managers = new WeakMap<Connected, number>();
const shms = new WeakMap<Connected, number>();

function shmOf(connected: Connected): number {
  const cached = shms.get(connected);
  if (cached !== undefined) return cached;
  const id = connected.wire.bind("wl_shm", 1);
  if (id === null) throw new DriverError("capture_failed", "The compositor offers no wl_shm");
  shms.set(connected, id);
  return id;
}

/** The mapped pixels as a tightly packed BGRX image (one copy out of the shared memory). */
function toImage(pixels: Uint8Array, offer: Offer, yInvert: boolean): RawImage {
  const { width, height, stride } = offer;
  const row = width * 4;
  const out = new Uint8Array(row * height);
  if (stride === row && !yInvert) out.set(pixels.subarray(0, row * height));
  else {
    for (let y = 0; y < height; y++) {
      const from = (yInvert ? height - 1 - y : y) * stride;
      out.set(pixels.subarray(from, from + row), y * row);
    }
  }
  return bgrxImage(width, height, out);
}
