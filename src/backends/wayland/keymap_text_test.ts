import assert from "node:assert/strict";
import { parseKey } from "../../lib/keys/key_names.ts";
import { KeymapText, keysymOf } from "./keymap_text.ts";

Deno.test("keysymOf: characters by their X keysym, named keys by name", () => {
  assert.equal(keysymOf(parseKey("a")), 0x61n);
  assert.equal(keysymOf(parseKey("é")), 0xe9n);
  assert.equal(keysymOf(parseKey("✓")), 0x1002713n);
  assert.equal(keysymOf(parseKey("Enter")), 0xff0dn);
  assert.equal(keysymOf(parseKey("F5")), 0xffc2n);
  assert.equal(keysymOf(parseKey("ArrowLeft")), 0xff51n);
});

Deno.test("KeymapText: one keycode per distinct keysym, evdev codes from 1", () => {
  const keymap = new KeymapText([0x61n, 0xe9n, 0x61n]);
  assert.deepEqual(keymap.keysyms, [0x61n, 0xe9n]);
  assert.equal(keymap.evdevCode(0x61n), 1);
  assert.equal(keymap.evdevCode(0xe9n), 2);
  assert.throws(() => keymap.evdevCode(0x62n), RangeError);
  assert.ok(keymap.covers([0xe9n]));
  assert.ok(!keymap.covers([0x62n]));
  const text = keymap.text();
  assert.match(text, /<K0> = 9; <K1> = 10;/);
  assert.match(text, /key <K1> \{\[ 0xe9 \]\};/);
  assert.ok(text.endsWith("\0"));
});
