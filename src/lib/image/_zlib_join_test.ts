import assert from "node:assert/strict";
import zlib from "node:zlib";
import { pngKernel } from "./_png_kernel.ts";
import { randomBytes } from "./_test_util.ts";
import { adler32Combine, joinDeflateParts, zlibHeader } from "./_zlib_join.ts";

const { adler32 } = pngKernel();

/** Adler-32 from a zlib stream's trailer: the reference the kernel's sum must match. */
function zlibAdler(bytes: Uint8Array): number {
  const out = zlib.deflateSync(bytes, { level: 1 });
  return new DataView(out.buffer, out.byteOffset).getUint32(out.length - 4);
}

Deno.test("adler32 matches zlib's checksum, continued or not", () => {
  for (const size of [0, 1, 2047, 2048, 5553, 100_000]) {
    const bytes = randomBytes(size, size + 1);
    bytes.fill(255, 0, Math.min(size, 6000)); // worst case for the sums
    assert.equal(adler32(bytes), zlibAdler(bytes), `size ${size}`);
    const half = size >> 1;
    assert.equal(adler32(bytes.subarray(half), adler32(bytes.subarray(0, half))), zlibAdler(bytes));
  }
});

Deno.test("adler32Combine gives the checksum of the concatenation", () => {
  const bytes = randomBytes(300_000, 7);
  bytes.fill(255, 100_000, 170_000);
  for (const cut of [0, 1, 65521, 65522, 150_000, 300_000]) {
    const a = bytes.subarray(0, cut), b = bytes.subarray(cut);
    assert.equal(adler32Combine(adler32(a), adler32(b), b.length), zlibAdler(bytes), `cut ${cut}`);
  }
});

Deno.test("zlibHeader is the header zlib writes at each level", () => {
  for (let level = 0; level <= 9; level++) {
    const reference = zlib.deflateSync(new Uint8Array([1, 2, 3]), { level });
    assert.deepEqual([...zlibHeader(level)], [reference[0], reference[1]], `level ${level}`);
  }
});

Deno.test("joinDeflateParts joins independently deflated parts into one stream zlib inflates", () => {
  const bytes = randomBytes(200_000, 3);
  bytes.fill(0, 50_000, 120_000);
  const cuts = [0, 1, 40_000, 150_000, 200_000];
  const parts = cuts.slice(1).map((end, i) => {
    const part = bytes.subarray(cuts[i], end);
    const last = i === cuts.length - 2;
    return {
      deflated: zlib.deflateRawSync(part, {
        level: 2,
        finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH,
      }),
      adler: adler32(part),
      length: part.length,
    };
  });
  const joined = joinDeflateParts(parts, 2);
  // inflateSync checks the header and the Adler-32 trailer.
  assert.deepEqual(new Uint8Array(zlib.inflateSync(joined)), bytes);
  assert.deepEqual([...joined.subarray(0, 2)], [0x78, 0x5e]);
});
