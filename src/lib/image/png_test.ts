import assert from "node:assert/strict";
import zlib from "node:zlib";
import type { RawImage } from "../../ports/screen.ts";
import { crc32, crc32Js } from "./_crc32.ts";
import { hasImageMagick, magickDecode, randomBytes, randomImage, uiImage } from "./_test_util.ts";
import { decodePng, encodePng, type PngFilter } from "./png.ts";

const FILTERS: PngFilter[] = ["none", "sub", "up", "paeth", "adaptive"];
const imageMagick = await hasImageMagick();
if (!imageMagick) {
  console.warn("png_test: ImageMagick `convert` not found; skipping the independent-decoder tests");
}

/** Colour type byte of the IHDR chunk. */
function colourType(png: Uint8Array): number {
  return png[25];
}

/** The chunk types of a PNG, in order. */
function chunkTypes(png: Uint8Array): string[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const types: string[] = [];
  for (let at = 8; at < png.length; at += 12 + view.getUint32(at)) {
    types.push(String.fromCharCode(...png.subarray(at + 4, at + 8)));
  }
  return types;
}

/** An independent PNG writer: per-row filter types given, filtered byte by byte in the obvious way. */
function referencePng(image: RawImage, bpp: 3 | 4, filterOfRow: (y: number) => number): Uint8Array {
  const { width, height, data } = image;
  const n = width * bpp;
  const raw = new Uint8Array(height * n);
  for (let i = 0, j = 0; i < data.length; i += 4) for (let c = 0; c < bpp; c++) raw[j++] = data[i + c];
  const scanlines = new Uint8Array(height * (n + 1));
  for (let y = 0; y < height; y++) {
    const type = filterOfRow(y);
    scanlines[y * (n + 1)] = type;
    for (let i = 0; i < n; i++) {
      const x = raw[y * n + i];
      const a = i >= bpp ? raw[y * n + i - bpp] : 0;
      const b = y > 0 ? raw[(y - 1) * n + i] : 0;
      const c = i >= bpp && y > 0 ? raw[(y - 1) * n + i - bpp] : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const predictor = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][type];
      scanlines[y * (n + 1) + 1 + i] = x - predictor;
    }
  }
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([8, bpp === 3 ? 2 : 6, 0, 0, 0], 8);
  return pngFromChunks([["IHDR", ihdr], ["IDAT", zlib.deflateSync(scanlines)], ["IEND", new Uint8Array(0)]]);
}

function pngFromChunks(chunks: [string, Uint8Array][]): Uint8Array {
  const parts: number[] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  for (const [type, data] of chunks) {
    const body = new Uint8Array([...type].map((c) => c.charCodeAt(0)).concat([...data]));
    const crc = crc32Js(body);
    parts.push(
      data.length >>> 24,
      (data.length >> 16) & 255,
      (data.length >> 8) & 255,
      data.length & 255,
      ...body,
    );
    parts.push(crc >>> 24, (crc >> 16) & 255, (crc >> 8) & 255, crc & 255);
  }
  return new Uint8Array(parts);
}

function opaqueCopy(image: RawImage): RawImage {
  const data = image.data.slice();
  for (let i = 3; i < data.length; i += 4) data[i] = 255;
  return { ...image, data };
}

Deno.test("crc32 native path matches the table implementation", () => {
  const bytes = randomBytes(100_003);
  assert.equal(crc32(bytes), crc32Js(bytes));
  assert.equal(crc32(bytes.subarray(500), crc32(bytes.subarray(0, 500))), crc32Js(bytes));
  assert.equal(crc32Js(new TextEncoder().encode("IEND")), 0xae426082);
});

Deno.test("encodePng round-trips opaque random images as colour type 2 with every filter", async () => {
  for (const [width, height] of [[1, 1], [2, 3], [3, 2], [5, 7], [37, 23], [64, 16]]) {
    const image = randomImage(width, height, false, width * 31 + height);
    for (const filter of FILTERS) {
      const png = await encodePng(image, { filter });
      assert.equal(colourType(png), 2, `${width}x${height} ${filter}`);
      assert.deepEqual(decodePng(png), image, `${width}x${height} ${filter}`);
    }
  }
});

Deno.test("encodePng round-trips images with alpha as colour type 6 with every filter", async () => {
  for (const [width, height] of [[1, 1], [3, 5], [33, 17]]) {
    const image = randomImage(width, height, true, width + height);
    for (const filter of FILTERS) {
      const png = await encodePng(image, { filter, level: 6 });
      assert.equal(colourType(png), 6);
      assert.deepEqual(decodePng(png), image, `${width}x${height} ${filter}`);
    }
  }
});

Deno.test("encodePng round-trips a UI-like image at several levels and strategies", async () => {
  const image = uiImage(301, 203);
  for (const options of [{}, { level: 0 }, { level: 1 }, { level: 9 }, { strategy: zlib.constants.Z_RLE }]) {
    assert.deepEqual(decodePng(await encodePng(image, options)), image);
  }
});

Deno.test("encodePng spans several bands and IDAT chunks on a large image", async () => {
  const image = randomImage(700, 1200, false, 3); // about 2.5 MB of scanlines: three bands
  const png = await encodePng(image);
  assert.ok(chunkTypes(png).filter((t) => t === "IDAT").length > 1);
  assert.deepEqual(chunkTypes(png).slice(0, 1), ["IHDR"]);
  assert.deepEqual(chunkTypes(png).slice(-1), ["IEND"]);
  assert.deepEqual(decodePng(png), image);
});

Deno.test("encodePng switches to RGBA when only the last pixel is translucent", async () => {
  const image = opaqueCopy(randomImage(640, 1000, false, 11));
  image.data[image.data.length - 1] = 254;
  const png = await encodePng(image);
  assert.equal(colourType(png), 6);
  assert.deepEqual(decodePng(png), image);
});

Deno.test("encodePng accepts pixel data at an unaligned byte offset", async () => {
  const image = randomImage(9, 4, false, 5);
  const buffer = new Uint8Array(image.data.length + 1);
  buffer.set(image.data, 1);
  const png = await encodePng({ width: 9, height: 4, data: buffer.subarray(1) });
  assert.deepEqual(decodePng(png), image);
});

Deno.test("encodePng yields to the event loop while encoding", async () => {
  const events: string[] = [];
  const done = encodePng(uiImage(1200, 900)).then(() => events.push("done"));
  setTimeout(() => events.push("timer"), 0);
  await done;
  assert.equal(events[0], "timer");
});

Deno.test("encodePng rejects sizes that do not match the data", async () => {
  await assert.rejects(() => encodePng({ width: 2, height: 2, data: new Uint8Array(15) }), RangeError);
  await assert.rejects(() => encodePng({ width: 0, height: 2, data: new Uint8Array(0) }), RangeError);
});

Deno.test("decodePng reverses all five filter types from an independent writer", () => {
  for (const bpp of [3, 4] as const) {
    const image = bpp === 3 ? opaqueCopy(randomImage(13, 10, false, 21)) : randomImage(13, 10, true, 22);
    const png = referencePng(image, bpp, (y) => y % 5);
    assert.deepEqual(decodePng(png), image, `bpp ${bpp}`);
  }
});

Deno.test("decodePng rejects unsupported and malformed files with TypeError", async () => {
  const png = await encodePng(randomImage(4, 4, false, 1));
  const patched = (offset: number, value: number) => {
    const copy = png.slice();
    copy[offset] = value;
    const crc = crc32Js(copy.subarray(12, 29));
    new DataView(copy.buffer).setUint32(29, crc);
    return copy;
  };
  assert.throws(() => decodePng(patched(24, 16)), /Unsupported PNG: bit depth 16/); // 16-bit
  assert.throws(() => decodePng(patched(25, 3)), /Unsupported PNG: bit depth 8 colour type 3/); // palette
  assert.throws(() => decodePng(patched(28, 1)), /Unsupported PNG: interlaced/);
  assert.throws(() => decodePng(png.subarray(1)), TypeError);
  const corrupt = png.slice();
  corrupt[45] ^= 0xff; // inside IDAT: CRC no longer matches
  assert.throws(() => decodePng(corrupt), /CRC mismatch/);
  assert.throws(() => decodePng(png.subarray(0, png.length - 12)), TypeError); // no IEND
});

Deno.test({
  name: "encodePng output decodes identically in ImageMagick",
  ignore: !imageMagick,
  async fn() {
    const cases: [string, RawImage][] = [
      ["ui", uiImage(257, 130)],
      ["random rgb", randomImage(31, 17, false, 8)],
      ["random rgba", randomImage(31, 17, true, 9)],
    ];
    for (const [label, image] of cases) {
      for (const filter of FILTERS) {
        const decoded = await magickDecode(await encodePng(image, { filter }), "png");
        assert.ok(decoded.length === image.data.length, `${label} ${filter}: ${decoded.length} bytes`);
        assert.ok(decoded.every((v, i) => v === image.data[i]), `${label} ${filter}: pixels differ`);
      }
    }
  },
});
