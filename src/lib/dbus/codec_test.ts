import assert from "node:assert/strict";
import { bodyCodecFor, codecFor } from "./codec.ts";
import { MarshalError, Reader } from "./reader.ts";
import { variant } from "./variant.ts";
import { Writer } from "./writer.ts";
import { RICH_BODY_LE } from "./_gdbus_blobs.ts";

function encode(signature: string, values: unknown[], base = 0): Uint8Array {
  const w = new Writer(16);
  w.pos = base;
  w.base = base;
  bodyCodecFor(signature).write(w, values);
  return w.bytes.slice(base, w.pos);
}

function roundTrip(signature: string, values: unknown[]): unknown[] {
  const bytes = encode(signature, values);
  const r = new Reader(bytes);
  const out = bodyCodecFor(signature).read(r);
  assert.equal(r.pos, bytes.length, `all bytes of "${signature}" consumed`);
  return out;
}

/** The body of the GDBus reference message: after the 16-byte header and 0x62 bytes of fields padded to 8. */
const RICH_BODY = RICH_BODY_LE.subarray(16 + 104);
const RICH_SIGNATURE = "ybnqiuxtdsogvava(so)a{sv}(iiii)";
const RICH_VALUES = [
  255,
  true,
  -2,
  65535,
  -7,
  4000000000,
  -9000000000n,
  18000000000000000000n,
  1.5,
  "héllo",
  "/o/p",
  "a(so)",
  variant("s", "v"),
  [variant("i", 1), variant("as", ["x"])],
  [[":1.1", "/r"]],
  new Map<string, unknown>([["k", variant("d", 2.5)], ["e", variant("ay", new Uint8Array([1, 2]))]]),
  [1, 2, 3, 4],
];

Deno.test("bodyCodecFor writes the same bytes as GDBus for every type", () => {
  assert.deepEqual(encode(RICH_SIGNATURE, RICH_VALUES), RICH_BODY);
});

Deno.test("bodyCodecFor reads GDBus bytes back into JS values", () => {
  const values = bodyCodecFor(RICH_SIGNATURE).read(new Reader(RICH_BODY));
  assert.deepEqual(values, RICH_VALUES);
});

Deno.test("bodyCodecFor round-trips the AT-SPI cache row shape", () => {
  const item = [
    [":1.0", "/org/a11y/atspi/accessible/91"],
    [":1.0", "/org/a11y/atspi/accessible/root"],
    [":1.0", "/org/a11y/atspi/accessible/34"],
    1,
    -1,
    ["org.a11y.atspi.Accessible", "org.a11y.atspi.Action"],
    "Donald Duck",
    35,
    "",
    [1107296256, 0],
  ];
  assert.deepEqual(roundTrip("a((so)(so)(so)iiassusau)", [[item, item]]), [[item, item]]);
  assert.deepEqual(roundTrip("a((so)(so)(so)iiassusau)", [[]]), [[]]);
});

Deno.test("bodyCodecFor pads empty arrays of 8-aligned elements", () => {
  // u32 length 0, then padding to 8 even though there are no elements.
  assert.deepEqual(encode("ya(ii)", [1, []]), new Uint8Array([1, 0, 0, 0, 0, 0, 0, 0]));
  assert.deepEqual(roundTrip("ya(ii)y", [1, [], 2]), [1, [], 2]);
});

Deno.test("bodyCodecFor aligns relative to the message start, not the buffer", () => {
  // Written at offset 3 of the buffer with base 3: the u32 still lands 4 bytes in.
  assert.deepEqual(encode("yu", [9, 1], 3), new Uint8Array([9, 0, 0, 0, 1, 0, 0, 0]));
});

Deno.test("bodyCodecFor round-trips nested variants, dicts with integer keys and int64 limits", () => {
  const values = [
    variant("v", variant("a{is}", new Map([[1, "one"], [-2, "minus two"]]))),
    new Map([[7n, [true, false]]]),
    [-(2n ** 63n), 2n ** 64n - 1n],
    "",
    "ünïcödé ✓ 𝄞",
  ];
  assert.deepEqual(roundTrip("va{xab}(xt)ss", values), values);
});

Deno.test("bodyCodecFor accepts plain objects for dicts and numbers for 64-bit integers", () => {
  assert.deepEqual(roundTrip("a{sv}x", [{ a: variant("b", true) }, 5]), [
    new Map([["a", variant("b", true)]]),
    5n,
  ]);
});

Deno.test("bodyCodecFor rejects values that do not fit the signature", () => {
  const bad: [string, unknown[]][] = [
    ["y", [256]],
    ["n", [40000]],
    ["u", [-1]],
    ["i", [1.5]],
    ["b", [1]],
    ["s", [3]],
    ["s", ["nul\0inside"]],
    ["o", ["relative/path"]],
    ["(ii)", [[1]]],
    ["v", ["not a variant"]],
    ["ai", [{}]],
    ["ii", [1]],
  ];
  for (const [signature, values] of bad) {
    assert.throws(() => encode(signature, values), TypeError, `${signature} ${JSON.stringify(values)}`);
  }
});

Deno.test("Reader refuses to read past the end of truncated data", () => {
  const bytes = encode("sai", ["hello", [1, 2, 3]]);
  for (let cut = 0; cut < bytes.length; cut++) {
    assert.throws(() => bodyCodecFor("sai").read(new Reader(bytes.subarray(0, cut))), MarshalError);
  }
});

Deno.test("codecFor caches one codec per signature", () => {
  assert.equal(codecFor("a{sv}"), codecFor("a{sv}"));
  assert.throws(() => codecFor("ii"), TypeError);
});
