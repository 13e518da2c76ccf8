import assert from "node:assert/strict";
import { bodyCodecFor, MarshalError, Reader } from "../../../lib/dbus/mod.ts";
import { Writer } from "../../../lib/dbus/writer.ts";
import { CacheRows, cacheRowsReader } from "./cache_rows.ts";
import { fromCacheItem } from "./raw_node.ts";

const P = (id: string) => `/org/a11y/atspi/accessible/${id}`;
const ACTION = ["org.a11y.atspi.Accessible", "org.a11y.atspi.Action", "org.a11y.atspi.Component"];
const TEXT = ["org.a11y.atspi.Accessible", "org.a11y.atspi.Text"];

/** Rows of every shape the reader special-cases, as the generic codec writes them. */
const ROWS = [
  [[":1.2", P("root")], [":1.2", P("root")], ["", "/org/a11y/atspi/null"], -1, 2, [], "app", 75, "", [0, 0]],
  [[":1.2", P("5")], [":1.2", P("root")], [":1.2", P("root")], 0, 1, ACTION, "Main", 23, "", [1090521344, 0]],
  [[":1.2", P("12")], [":1.2", P("root")], [":1.2", P("5")], 0, 0, ACTION, "Ok", 43, "Confirms", [
    1090521344,
    0,
  ]],
  [[":1.2", P("13")], [":1.2", P("root")], [":1.2", P("5")], 1, 0, TEXT, "Grüße ✓", 29, "", [1090650368, 0]],
  // Not ids: a leading zero, a name, too many digits; a parent that is the object itself.
  [[":1.2", P("007")], [":1.2", P("root")], [":1.2", P("5")], 2, 0, ACTION, "", 43, "", [0, 0]],
  [[":1.2", P("Qt_1")], [":1.2", P("root")], [":1.2", P("5")], -1, 0, TEXT, "q", 29, "", [5, 1]],
  [
    [":1.2", P("1234567890123456")],
    [":1.2", P("root")],
    [":1.2", P("1234567890123456")],
    3,
    0,
    [],
    "",
    1,
    "",
    [],
  ],
  // A state word past bit 51, and three words.
  [[":1.2", "/other/7"], [":1.2", P("root")], ["", "/"], 4, 0, TEXT, "x", 29, "", [1, 0x80000000]],
  [[":1.2", P("14")], [":1.2", P("root")], [":1.2", P("12")], 0, 0, TEXT, "y", 29, "", [1, 2, 3]],
];

function marshal(rows: unknown[], base = 0): { bytes: Uint8Array; base: number } {
  const w = new Writer(64);
  w.pos = w.base = base;
  bodyCodecFor(cacheRowsReader.signature).write(w, [rows]);
  return { bytes: w.bytes.slice(0, w.pos), base };
}

function readWith(bytes: Uint8Array, base: number): CacheRows {
  const r = new Reader(bytes, true, base);
  const [rows] = cacheRowsReader.read(r);
  assert.equal(r.pos, bytes.length, "every byte read");
  assert.ok(rows instanceof CacheRows);
  return rows;
}

Deno.test("cacheRowsReader gives the nodes fromCacheItem gives from the generic decoding", () => {
  for (const base of [0, 4]) { // alignment is relative to the message start
    const { bytes } = marshal(ROWS, base);
    const generic = bodyCodecFor(cacheRowsReader.signature).read(
      new Reader(bytes, true, base),
    )[0] as unknown[];
    const expected = generic.map(fromCacheItem);
    // Twice: the second read answers paths, lists and sets from what the first one kept.
    for (let round = 0; round < 2; round++) assert.deepEqual(readWith(bytes, base).nodes, expected);
  }
});

Deno.test("cacheRowsReader shares repeated interface lists and state sets, frozen", () => {
  const { bytes } = marshal(ROWS);
  const [, main, ok, label, , , , , last] = readWith(bytes, 0).nodes;
  assert.equal(main.interfaces, ok.interfaces);
  assert.equal(main.states, ok.states);
  assert.notEqual(label.interfaces, ok.interfaces);
  assert.ok(Object.isFrozen(ok.interfaces) && Object.isFrozen(ok.states));
  assert.equal(last.interfaces, label.interfaces);
  // Between replies too.
  assert.equal(readWith(bytes, 0).nodes[1].interfaces, main.interfaces);
});

Deno.test("cacheRowsReader refuses truncated rows", () => {
  const { bytes } = marshal(ROWS);
  // The whole reply cut short, then an array whose length ends inside a row.
  assert.throws(() => cacheRowsReader.read(new Reader(bytes.subarray(0, bytes.length - 3))), MarshalError);
  for (const cut of [bytes.length - 3, 40, 9]) {
    const short = bytes.slice(0, cut);
    new DataView(short.buffer).setUint32(0, cut - 8, true); // rows start at offset 8
    assert.throws(() => cacheRowsReader.read(new Reader(short)), MarshalError);
  }
});
