import assert from "node:assert/strict";
import { parseKey } from "../../../../lib/keys/key_names.ts";
import { FakeKeymapBackend } from "./_fake_keyboard.ts";
import { Keymap } from "./keymap.ts";
import { keysymsForCodePoint, unicodeKeysym } from "./keysyms.ts";

function keymap(extra: Record<number, bigint[]> = {}): Keymap {
  return new Keymap(new FakeKeymapBackend([], extra));
}

Deno.test("Keymap.keysymFor maps named keys and characters to X keysyms", () => {
  const map = keymap();
  assert.equal(map.keysymFor(parseKey("Return")), 0xff0dn);
  assert.equal(map.keysymFor(parseKey("Tab")), 0xff09n);
  assert.equal(map.keysymFor(parseKey("Escape")), 0xff1bn);
  assert.equal(map.keysymFor(parseKey("F1")), 0xffben);
  assert.equal(map.keysymFor(parseKey("F24")), 0xffd5n);
  assert.equal(map.keysymFor(parseKey("PageDown")), 0xff56n);
  assert.equal(map.keysymFor(parseKey("ctrl")), 0xffe3n);
  assert.equal(map.keysymFor(parseKey("AudioVolumeUp")), 0x1008ff13n);
  assert.equal(map.keysymFor(parseKey("a")), 0x61n);
  assert.equal(map.keysymFor(parseKey("é")), 0xe9n, "Latin-1 is its own keysym");
  assert.equal(map.keysymFor(parseKey("Ω")), 0x10003a9n, "other code points are 0x01000000 | U");
  assert.equal(map.keysymFor(parseKey("🎉")), 0x101f389n);
  assert.equal(
    map.keysymFor({ kind: "char", char: "e\u0301" }),
    null,
    "two code points have no single keysym",
  );
  assert.equal(map.keysymFor(parseKey("IntlBackslash")), null);
});

Deno.test("keysymsForCodePoint lists Return, Tab, Unicode and legacy keysyms", () => {
  assert.deepEqual(keysymsForCodePoint(0x0a), [0xff0dn]);
  assert.deepEqual(keysymsForCodePoint(0x09), [0xff09n]);
  assert.deepEqual(keysymsForCodePoint(0x41), [0x41n]);
  assert.deepEqual(keysymsForCodePoint(0x3a9), [0x10003a9n, 0x7d9n], "Ω has the legacy Greek_OMEGA");
  assert.deepEqual(keysymsForCodePoint(0x20ac), [0x10020acn, 0x20acn], "€ has the legacy EuroSign");
  assert.deepEqual(keysymsForCodePoint(0x7), [], "control characters type nothing");
  assert.equal(unicodeKeysym(0xd800), null, "lone surrogates type nothing");
});

Deno.test("Keymap.lookup prefers the plain level, then Shift, then AltGr", () => {
  const map = keymap();
  assert.deepEqual(map.lookup(0x61n), { keycode: 38, shift: false, level3: false });
  assert.deepEqual(map.lookup(0x41n), { keycode: 38, shift: true, level3: false });
  assert.deepEqual(map.lookup(0x21n), { keycode: 10, shift: true, level3: false });
  assert.deepEqual(map.lookup(0x7cn), { keycode: 94, shift: false, level3: true }, "| is AltGr+<");
  assert.deepEqual(map.lookup(0xa6n), { keycode: 94, shift: true, level3: true });
  assert.equal(map.lookup(0x7cn, { level3: false }), null, "no AltGr on request");
  assert.equal(map.lookup(0x3a9n), null);
  assert.equal(map.lookup(0n), null, "NoSymbol is nowhere");
});

Deno.test("Keymap.lookup reads the second group from columns 2 and 3", () => {
  // A two-layout map: keycode 38 is a/A in group 1 and Cyrillic ef (legacy 0x6c6) in group 2.
  const map = keymap({ 38: [0x61n, 0x41n, 0x6c6n, 0x6e6n, 0n, 0n, 0n] });
  assert.deepEqual(map.lookup(0x6c6n, { group: 1 }), { keycode: 38, shift: false, level3: false });
  assert.equal(map.lookup(0x61n, { group: 1 }), null);
  assert.equal(map.lookup(0x61n, { group: 2 }), null, "groups 3 and 4 are left to spare keycodes");
});

Deno.test("Keymap.resolve finds named keys, characters by legacy keysym, and the ISO key by keycode", () => {
  const map = keymap({ 30: [0x7d9n, 0n, 0x7d9n, 0n, 0n, 0n, 0n] });
  assert.deepEqual(map.resolve(parseKey("Return")), { keycode: 36, shift: false, level3: false });
  assert.deepEqual(map.resolve(parseKey("€")), { keycode: 26, shift: false, level3: true });
  assert.deepEqual(
    map.resolve(parseKey("Ω")),
    { keycode: 30, shift: false, level3: false },
    "via Greek_OMEGA",
  );
  assert.deepEqual(map.resolve(parseKey("IntlBackslash")), { keycode: 94, shift: false, level3: false });
  assert.equal(map.resolve(parseKey("日")), null);
  assert.equal(map.resolve(parseKey("F13")), null);
});

Deno.test("Keymap.modifierKeycode finds each modifier through the modifier map", () => {
  const map = keymap();
  assert.equal(map.modifierKeycode("shift"), 50);
  assert.equal(map.modifierKeycode("ctrl"), 37);
  assert.equal(map.modifierKeycode("alt"), 64);
  assert.equal(map.modifierKeycode("super"), 133);
  assert.equal(map.modifierKeycode("level3"), 92);
});

Deno.test("Keymap.emptyKeycodes lists symbol-less keycodes highest first, never keycode 8", () => {
  const map = keymap({ 140: [0x62n, 0n, 0n, 0n, 0n, 0n, 0n] });
  const empty = map.emptyKeycodes();
  assert.equal(empty[0], 139, "140 has a symbol");
  assert.ok(!empty.includes(8));
  assert.ok(!empty.includes(38) && !empty.includes(133));
  assert.ok(empty.includes(9 + 3), "keycode 12 is empty in the fake layout");
  assert.deepEqual(map.emptyKeycodes(3), [139, 138, 137]);
});

Deno.test("Keymap.isCaseKey is true for letter keys only", () => {
  const map = keymap();
  assert.equal(map.isCaseKey(38), true);
  assert.equal(map.isCaseKey(10), false, "1 and ! are not one letter's cases");
  assert.equal(map.isCaseKey(36), false);
});

Deno.test("Keymap.refresh re-reads the mapping", () => {
  const backend = new FakeKeymapBackend();
  const map = new Keymap(backend);
  assert.equal(map.lookup(0x10003a9n), null);
  backend.bind([[139, 0x10003a9n]]);
  assert.equal(map.lookup(0x10003a9n), null, "the snapshot is kept until refresh");
  map.refresh();
  assert.deepEqual(map.lookup(0x10003a9n), { keycode: 139, shift: false, level3: false });
  assert.deepEqual(map.keysymsOf(139), Array(7).fill(0x10003a9n), "a bind fills every column");
  assert.equal(backend.reads, 2);
});
