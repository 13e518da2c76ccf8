/**
 * The fake CoreGraphics: displays, the window server's list in the dictionary form
 * `CGWindowListCopyWindowInfo` returns, images in the layout the window server
 * produces (32-bit BGRA, premultiplied-first little-endian, rows padded to 64 bytes),
 * and posted events handed to the fake Mac.
 *
 * @module
 */
import type { CG_SYMBOLS } from "../../../../ffi/darwin/core_graphics.ts";
import type { SKYLIGHT_SYMBOLS } from "../../../../ffi/darwin/skylight.ts";
import { cgPoint, cgRect, readCGPoint, readCGRect } from "../../../../ffi/darwin/geometry.ts";
import type { Rect } from "../../../ports/geometry.ts";
import { encodePng } from "../../../lib/image/png.ts";
import { bytesOf, viewOf } from "./cf.ts";
import type { FakeHeap, FakeObject } from "./heap.ts";
import { type CFable, type CFConstants, type DictPayload, fromCF, toCF } from "./values.ts";
import type { FakeMac, FakeWindow, PostedEvent } from "./world.ts";

/** Wallpaper colour of the fake desktop (RGB). */
export const WALLPAPER: [number, number, number] = [30, 60, 90];

/** A fake CGImage's payload. */
export interface ImagePayload {
  width: number;
  height: number;
  bytesPerRow: number;
  bytes: Uint8Array;
  provider: FakeObject | null;
  bitsPerPixel?: number;
  bitsPerComponent?: number;
  bitmapInfo?: number;
}

/**
 * Re-encodes a rendered BGRA image in the layout a display of `format` gives:
 * "rgb10" (kCGImagePixelFormatRGB101010, skip-first, 32-bit little-endian words, as a
 * wide-gamut display in 10-bit mode) or "rgba16f" (half-float RGBA, 16-bit little-endian,
 * premultiplied last, as an HDR display).
 */
export function encodeAs(payload: ImagePayload, format: "bgra8" | "rgb10" | "rgba16f"): ImagePayload {
  if (format === "bgra8") return payload;
  const { width, height } = payload;
  const source = new DataView(payload.bytes.buffer, payload.bytes.byteOffset);
  const pixelBytes = format === "rgb10" ? 4 : 8;
  const bytesPerRow = Math.ceil((width * pixelBytes) / 64) * 64;
  const bytes = new Uint8Array(bytesPerRow * height);
  const out = new DataView(bytes.buffer);
  const half = (value: number) => {
    // 0..1 to IEEE half (normal numbers only; 0 exactly).
    if (value === 0) return 0;
    const exponent = Math.floor(Math.log2(value));
    const fraction = Math.round((value / 2 ** exponent - 1) * 1024);
    return ((exponent + 15) << 10) | fraction;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = y * payload.bytesPerRow + x * 4;
      const [b, g, r, a] = [0, 1, 2, 3].map((i) => source.getUint8(at + i));
      const to = y * bytesPerRow + x * pixelBytes;
      if (format === "rgb10") {
        const ten = (v: number) => Math.round((v * 1023) / 255);
        out.setUint32(to, ((ten(r) << 20) | (ten(g) << 10) | ten(b)) >>> 0, true);
      } else {
        [r, g, b, a].forEach((v, i) => out.setUint16(to + i * 2, half(v / 255), true));
      }
    }
  }
  return format === "rgb10"
    ? { ...payload, bytes, bytesPerRow, bitsPerPixel: 32, bitsPerComponent: 10, bitmapInfo: 0x32006 }
    : { ...payload, bytes, bytesPerRow, bitsPerPixel: 64, bitsPerComponent: 16, bitmapInfo: 0x1101 };
}

/** A fake CGEvent: a posted event before it has a route. */
type EventPayload = Omit<PostedEvent, "route" | "pid" | "via" | "time">;

const WINDOW_KEYS = [
  "kCGWindowNumber",
  "kCGWindowLayer",
  "kCGWindowBounds",
  "kCGWindowOwnerPID",
  "kCGWindowOwnerName",
  "kCGWindowName",
  "kCGWindowIsOnscreen",
  "kCGWindowAlpha",
] as const;

function intersect(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}

/** Paints `windows` (back to front) over the wallpaper into a BGRA image of `area` at `scale`. */
export function render(area: Rect, scale: number, windows: FakeWindow[], wallpaper: boolean): ImagePayload {
  const width = Math.round(area.width * scale);
  const height = Math.round(area.height * scale);
  const bytesPerRow = Math.ceil((width * 4) / 64) * 64;
  const bytes = new Uint8Array(bytesPerRow * height);
  const words = new Uint32Array(bytes.buffer);
  const fill = (rect: Rect, [r, g, b]: [number, number, number], alpha: number) => {
    const x0 = Math.max(0, Math.round((rect.x - area.x) * scale));
    const y0 = Math.max(0, Math.round((rect.y - area.y) * scale));
    const x1 = Math.min(width, Math.round((rect.x + rect.width - area.x) * scale));
    const y1 = Math.min(height, Math.round((rect.y + rect.height - area.y) * scale));
    // One little-endian 32-bit ARGB word per pixel: B, G, R, A in memory.
    const word = ((alpha << 24) | (r << 16) | (g << 8) | b) >>> 0;
    for (let y = y0; y < y1; y++) words.fill(word, (y * bytesPerRow) / 4 + x0, (y * bytesPerRow) / 4 + x1);
  };
  if (wallpaper) fill(area, WALLPAPER, 255);
  for (const win of [...windows].reverse()) {
    const visible = intersect(win.bounds, area);
    if (visible) fill(win.bounds, win.color, 255);
  }
  return { width, height, bytesPerRow, bytes, provider: null };
}

/**
 * The fake Mac's `/usr/sbin/screencapture`: `-l <id>` (with `-o`) writes the window's own
 * pixels, `-D <n>` display n (1 = main) as the window server composes it, each as a PNG;
 * without Screen Recording, or for a window it shows no pixels of, it writes nothing and fails
 * as the real tool does ("could not create image from window").
 */
export function fakeScreencapture(world: FakeMac): {
  run: (program: string, args: readonly string[]) => Promise<{ code: number; stderr: string }>;
  installed: () => boolean;
  calls: string[][];
} {
  const calls: string[][] = [];
  const scaleAt = (rect: Rect) => {
    const hit = world.displays.find((d) => intersect(d.bounds, rect)) ?? world.displays[0];
    return hit.pixelWidth / hit.bounds.width;
  };
  const flag = (args: readonly string[], name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  return {
    calls,
    installed: () => world.screencaptureInstalled,
    async run(program, args) {
      calls.push([program, ...args]);
      if (program !== "/usr/sbin/screencapture") return { code: 127, stderr: `${program}: not found` };
      const file = args.at(-1)!;
      if (flag(args, "-t") !== "png") return { code: 1, stderr: "screencapture: the fake writes PNG only" };
      let payload: ImagePayload;
      const windowId = flag(args, "-l");
      if (windowId !== undefined) {
        const win = world.window(Number(windowId));
        if (!win || !world.screenCaptureAllowed || win.unreadable) {
          return { code: 1, stderr: "could not create image from window" };
        }
        payload = render(win.bounds, scaleAt(win.bounds), [win], false);
      } else {
        const display = world.displays[Number(flag(args, "-D") ?? "1") - 1];
        if (!display) return { code: 1, stderr: "Invalid display specified" };
        const windows = world.screenCaptureAllowed ? world.windows.filter((w) => w.onScreen) : [];
        payload = render(display.bounds, display.pixelWidth / display.bounds.width, windows, true);
      }
      // BGRA rows to packed RGBA.
      const rgba = new Uint8Array(payload.width * payload.height * 4);
      for (let y = 0; y < payload.height; y++) {
        for (let x = 0; x < payload.width; x++) {
          const from = y * payload.bytesPerRow + x * 4;
          const to = (y * payload.width + x) * 4;
          rgba.set([
            payload.bytes[from + 2],
            payload.bytes[from + 1],
            payload.bytes[from],
            payload.bytes[from + 3],
          ], to);
        }
      }
      await Deno.writeFile(
        file,
        await encodePng({ width: payload.width, height: payload.height, data: rgba }),
      );
      return { code: 0, stderr: "" };
    },
  };
}

/** The implementation of SKYLIGHT_SYMBOLS; `present` false for a macOS without them. */
export function fakeSkyLight(
  heap: FakeHeap,
  world: FakeMac,
  present: boolean,
): { [K in keyof typeof SKYLIGHT_SYMBOLS]?: unknown } {
  if (!present) return { SLEventPostToPid: null, CGEventSetWindowLocation: null };
  const event = (ref: Deno.PointerValue, api: string) =>
    heap.deref(ref, api, ["CGEvent"]).value as EventPayload;
  return {
    SLEventPostToPid: (pid: number, ref: Deno.PointerValue) => {
      const e = event(ref, "SLEventPostToPid");
      world.deliver({
        route: "pid",
        pid,
        ...e,
        location: { ...e.location },
        windowLocation: e.windowLocation && { ...e.windowLocation },
        fields: { ...e.fields },
        via: "SLEventPostToPid",
        time: performance.now(),
      });
    },
    CGEventSetWindowLocation: (ref: Deno.PointerValue, point: Uint8Array) => {
      event(ref, "CGEventSetWindowLocation").windowLocation = readCGPoint(point);
    },
  };
}

/** The implementation of CG_SYMBOLS. */
export function fakeCoreGraphics(
  heap: FakeHeap,
  constants: CFConstants,
  world: FakeMac,
): { [K in keyof typeof CG_SYMBOLS]?: unknown } {
  const ptr = (object: FakeObject) => heap.pointer(object);
  const keys = Object.fromEntries(WINDOW_KEYS.map((name) => [name, constants.string(name, name)]));
  const display = (id: number) => world.displays.find((d) => d.id === id);
  const scaleAt = (rect: Rect) => {
    const hit = world.displays.find((d) => intersect(d.bounds, rect)) ?? world.displays[0];
    return hit.pixelWidth / hit.bounds.width;
  };
  const event = (ref: Deno.PointerValue, api: string) =>
    heap.deref(ref, api, ["CGEvent"]).value as EventPayload;
  const sourceState = (ref: Deno.PointerValue, api: string): number | null =>
    ref === null ? null : (heap.deref(ref, api, ["CGEventSource"]).value as { state: number }).state;
  const newEvent = (api: string, fields: Partial<EventPayload>) =>
    ptr(heap.create(
      "CGEvent",
      {
        type: 0,
        location: { ...world.cursor },
        button: 0,
        keyCode: 0,
        keyDown: false,
        flags: 0n,
        text: "",
        fields: {},
        scroll: null,
        sourceState: null,
        windowLocation: null,
        ...fields,
      } satisfies EventPayload,
      api,
    ));
  const source = (ref: Deno.PointerValue, api: string) => {
    if (ref !== null) heap.deref(ref, api, ["CGEventSource"]);
  };
  const post = (route: PostedEvent["route"], pid: number | null, ref: Deno.PointerValue, api: string) => {
    const e = event(ref, api);
    world.deliver({
      route,
      pid,
      ...e,
      location: { ...e.location },
      windowLocation: e.windowLocation && { ...e.windowLocation },
      fields: { ...e.fields },
      via: api,
      time: performance.now(),
    });
  };
  const image = (payload: ImagePayload, api: string) =>
    ptr(heap.create("CGImage", encodeAs(payload, world.captureFormat), api));
  const imagePayload = (ref: Deno.PointerValue, api: string) =>
    heap.deref(ref, api, ["CGImage"]).value as ImagePayload;

  function windowRow(win: FakeWindow): CFable {
    const row = new Map<string, CFable>([
      ["kCGWindowNumber", win.id],
      ["kCGWindowLayer", win.layer],
      [
        "kCGWindowBounds",
        new Map<string, CFable>([
          ["X", win.bounds.x + 0.0],
          ["Y", win.bounds.y],
          ["Width", win.bounds.width],
          ["Height", win.bounds.height],
        ]),
      ],
      ["kCGWindowOwnerPID", win.pid],
      ["kCGWindowOwnerName", win.ownerName],
      ["kCGWindowAlpha", win.alpha],
      ["kCGWindowSharingState", 1],
      ["kCGWindowStoreType", 1],
      ["kCGWindowMemoryUsage", 1264],
    ]);
    // Since macOS 10.15 titles are present only with Screen Recording access.
    if (world.screenCaptureAllowed) row.set("kCGWindowName", win.title);
    if (win.onScreen) row.set("kCGWindowIsOnscreen", true);
    return row;
  }

  return {
    CGGetActiveDisplayList: (max: number, out: unknown, count: unknown) => {
      const ids = world.displays.map((d) => d.id).slice(0, out === null ? undefined : max);
      if (out !== null) {
        const view = viewOf(heap, out, ids.length * 4, "CGGetActiveDisplayList");
        ids.forEach((id, i) => view.setUint32(i * 4, id, true));
      }
      viewOf(heap, count, 4, "CGGetActiveDisplayList").setUint32(0, ids.length, true);
      return 0;
    },
    CGMainDisplayID: () => world.displays[0]?.id ?? 0,
    CGDisplayBounds: (id: number) => {
      const d = display(id);
      return d ? cgRect(d.bounds.x, d.bounds.y, d.bounds.width, d.bounds.height) : cgRect(0, 0, 0, 0);
    },
    CGDisplayIsBuiltin: (id: number) => display(id)?.builtin ? 1 : 0,
    CGDisplayCopyDisplayMode: (id: number) => {
      const d = display(id);
      return d ? ptr(heap.create("CGDisplayMode", d, "CGDisplayCopyDisplayMode")) : null;
    },
    CGDisplayModeGetWidth: (ref: Deno.PointerValue) =>
      BigInt(
        (heap.deref(ref, "CGDisplayModeGetWidth", ["CGDisplayMode"]).value as { bounds: Rect }).bounds.width,
      ),
    CGDisplayModeGetPixelWidth: (ref: Deno.PointerValue) =>
      BigInt(
        (heap.deref(ref, "CGDisplayModeGetPixelWidth", ["CGDisplayMode"]).value as { pixelWidth: number })
          .pixelWidth,
      ),
    CGDisplayModeGetPixelHeight: (ref: Deno.PointerValue) =>
      BigInt(
        (heap.deref(ref, "CGDisplayModeGetPixelHeight", ["CGDisplayMode"]).value as { pixelHeight: number })
          .pixelHeight,
      ),
    CGDisplayModeGetRefreshRate: (ref: Deno.PointerValue) =>
      (heap.deref(ref, "CGDisplayModeGetRefreshRate", ["CGDisplayMode"]).value as { refreshHz: number })
        .refreshHz,
    CGDisplayModeRelease: (ref: Deno.PointerValue) => {
      if (ref !== null) {
        heap.release(heap.deref(ref, "CGDisplayModeRelease", ["CGDisplayMode"]), "CGDisplayModeRelease");
      }
    },
    CGWindowListCopyWindowInfo: (option: number, relative: number) => {
      let rows = world.windows;
      if (option & 1) rows = rows.filter((w) => w.onScreen);
      if (option & 16) rows = rows.filter((w) => w.layer > -1000);
      if (option & 8) rows = rows.filter((w) => w.id === relative);
      return ptr(toCF(constants, rows.map(windowRow), "CGWindowListCopyWindowInfo", "caller"));
    },
    CGRectMakeWithDictionaryRepresentation: (ref: Deno.PointerValue, out: unknown) => {
      const dict = heap.deref(ref, "CGRectMakeWithDictionaryRepresentation", ["CFDictionary"])
        .value as DictPayload;
      const read = (key: string) => {
        const entry = dict.get(key);
        return entry ? fromCF(entry.value) as number : NaN;
      };
      const values = [read("X"), read("Y"), read("Width"), read("Height")];
      if (values.some(Number.isNaN)) return false;
      bytesOf(out).set(cgRect(values[0], values[1], values[2], values[3]));
      return true;
    },
    ...Object.fromEntries(Object.entries(keys).map(([name, object]) => [name, ptr(object)])),
    CGWindowListCreateImage: world.legacyCaptureAvailable
      ? (rect: Uint8Array, option: number, windowId: number, _imageOption: number) => {
        const api = "CGWindowListCreateImage";
        if (Number.parseInt(world.productVersion, 10) >= 15) world.bypassPrompts++;
        const requested = readCGRect(rect);
        const win = world.window(windowId);
        if (option & 8 && !win) return null;
        if (win?.unreadable === "empty") {
          return image(
            { width: 0, height: 0, bytesPerRow: 0, bytes: new Uint8Array(0), provider: null },
            api,
          );
        }
        if (win?.unreadable === "transparent") {
          const blank = render(win.bounds, scaleAt(win.bounds), [], false);
          return image(blank, api);
        }
        const area = Number.isFinite(requested.x) ? requested : win!.bounds;
        const allowed = world.screenCaptureAllowed ? [win!] : [];
        // Without Screen Recording access the window server leaves other apps' windows out.
        return image(render(area, scaleAt(area), allowed, !(option & 8) || !world.screenCaptureAllowed), api);
      }
      : null,
    CGDisplayCreateImage: world.legacyCaptureAvailable
      ? (id: number) => {
        if (Number.parseInt(world.productVersion, 10) >= 15) world.bypassPrompts++;
        const d = display(id);
        if (!d) return null;
        const windows = world.screenCaptureAllowed ? world.windows.filter((w) => w.onScreen) : [];
        return image(render(d.bounds, d.pixelWidth / d.bounds.width, windows, true), "CGDisplayCreateImage");
      }
      : null,
    CGImageGetWidth: (ref: Deno.PointerValue) => BigInt(imagePayload(ref, "CGImageGetWidth").width),
    CGImageGetHeight: (ref: Deno.PointerValue) => BigInt(imagePayload(ref, "CGImageGetHeight").height),
    CGImageGetBytesPerRow: (ref: Deno.PointerValue) =>
      BigInt(imagePayload(ref, "CGImageGetBytesPerRow").bytesPerRow),
    CGImageGetBitsPerPixel: (ref: Deno.PointerValue) =>
      BigInt(imagePayload(ref, "CGImageGetBitsPerPixel").bitsPerPixel ?? 32),
    CGImageGetBitsPerComponent: (ref: Deno.PointerValue) =>
      BigInt(imagePayload(ref, "CGImageGetBitsPerComponent").bitsPerComponent ?? 8),
    // By default kCGImageAlphaPremultipliedFirst (2) | kCGBitmapByteOrder32Little (2 << 12)
    CGImageGetBitmapInfo: (ref: Deno.PointerValue) =>
      imagePayload(ref, "CGImageGetBitmapInfo").bitmapInfo ?? 0x2002,
    CGImageGetDataProvider: (ref: Deno.PointerValue) => {
      const object = heap.deref(ref, "CGImageGetDataProvider", ["CGImage"]);
      const payload = object.value as ImagePayload;
      // The image owns its provider (Get rule): it lives as long as the image.
      payload.provider ??= heap.createHeld("CGDataProvider", payload, "CGImageGetDataProvider");
      return ptr(payload.provider);
    },
    CGDataProviderCopyData: (ref: Deno.PointerValue) => {
      const payload = heap.deref(ref, "CGDataProviderCopyData", ["CGDataProvider"]).value as ImagePayload;
      return ptr(heap.create("CFData", payload.bytes.slice(), "CGDataProviderCopyData"));
    },
    CGImageRelease: (ref: Deno.PointerValue) => {
      if (ref !== null) heap.release(heap.deref(ref, "CGImageRelease", ["CGImage"]), "CGImageRelease");
    },
    CGEventSourceCreate: (state: number) =>
      ptr(heap.create("CGEventSource", { state }, "CGEventSourceCreate")),
    CGEventSourceFlagsState: (_state: number) => 0n,
    CGEventSourceButtonState: (_state: number, _button: number) => false,
    CGEventCreate: (src: Deno.PointerValue) => (source(src, "CGEventCreate"), newEvent("CGEventCreate", {})),
    CGEventGetLocation: (ref: Deno.PointerValue) => {
      const { x, y } = event(ref, "CGEventGetLocation").location;
      return cgPoint(x, y);
    },
    CGEventCreateMouseEvent: (src: Deno.PointerValue, type: number, point: Uint8Array, button: number) => {
      source(src, "CGEventCreateMouseEvent");
      return newEvent("CGEventCreateMouseEvent", {
        sourceState: sourceState(src, "CGEventCreateMouseEvent"),
        type,
        location: readCGPoint(point),
        button,
        fields: { 3: BigInt(button) },
      });
    },
    CGEventCreateKeyboardEvent: (src: Deno.PointerValue, keyCode: number, down: boolean) => {
      source(src, "CGEventCreateKeyboardEvent");
      return newEvent("CGEventCreateKeyboardEvent", {
        sourceState: sourceState(src, "CGEventCreateKeyboardEvent"),
        type: down ? 10 : 11,
        keyCode,
        keyDown: down,
      });
    },
    CGEventCreateScrollWheelEvent2: (
      src: Deno.PointerValue,
      unit: number,
      count: number,
      wheel1: number,
      wheel2: number,
      _wheel3: number,
    ) => {
      source(src, "CGEventCreateScrollWheelEvent2");
      if (count < 1 || count > 3) heap.fail("CGEventCreateScrollWheelEvent2: wheelCount must be 1..3");
      return newEvent("CGEventCreateScrollWheelEvent2", {
        sourceState: sourceState(src, "CGEventCreateScrollWheelEvent2"),
        type: 22,
        scroll: { unit, dy: wheel1, dx: count > 1 ? wheel2 : 0 },
      });
    },
    CGEventKeyboardSetUnicodeString: (ref: Deno.PointerValue, length: bigint, chars: unknown) => {
      const e = event(ref, "CGEventKeyboardSetUnicodeString");
      const n = Number(length);
      const view = viewOf(heap, chars, n * 2, "CGEventKeyboardSetUnicodeString");
      // The window server keeps at most 20 UTF-16 units of an event's string.
      let text = "";
      for (let i = 0; i < Math.min(n, 20); i++) text += String.fromCharCode(view.getUint16(i * 2, true));
      e.text = text;
    },
    CGEventSetFlags: (ref: Deno.PointerValue, flags: bigint) => {
      event(ref, "CGEventSetFlags").flags = BigInt(flags);
    },
    CGEventSetIntegerValueField: (ref: Deno.PointerValue, field: number, value: bigint) => {
      event(ref, "CGEventSetIntegerValueField").fields[field] = BigInt(value);
    },
    CGEventSetLocation: (ref: Deno.PointerValue, point: Uint8Array) => {
      event(ref, "CGEventSetLocation").location = readCGPoint(point);
    },
    CGEventPost: (tap: number, ref: Deno.PointerValue) =>
      post(tap === 0 ? "hid" : tap === 1 ? "session" : "annotated", null, ref, "CGEventPost"),
    CGEventPostToPid: (pid: number, ref: Deno.PointerValue) => post("pid", pid, ref, "CGEventPostToPid"),
    CGWarpMouseCursorPosition: (point: Uint8Array) => {
      world.cursor = readCGPoint(point);
      return 0;
    },
    CGPreflightScreenCaptureAccess: () => world.screenCaptureAllowed,
    CGRequestScreenCaptureAccess: () => {
      // macOS asks each app once; later requests answer without a prompt.
      if (!world.screenCaptureAsked) world.promptsShown.push("screen_capture");
      world.screenCaptureAsked = true;
      return world.screenCaptureAllowed;
    },
    CGPreflightPostEventAccess: () => world.accessibilityTrusted,
    CGSessionCopyCurrentDictionary: () =>
      world.consoleSession
        ? ptr(toCF(
          constants,
          new Map<string, CFable>([
            ["kCGSSessionOnConsoleKey", true],
            ["kCGSessionLoginDoneKey", true],
            ["kCGSSessionUserNameKey", "ada"],
            ["kCGSSessionUserIDKey", world.uid],
          ]),
          "CGSessionCopyCurrentDictionary",
          "caller",
        ))
        : null,
  };
}
