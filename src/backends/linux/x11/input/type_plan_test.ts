import assert from "node:assert/strict";
import { FakeKeymapBackend } from "./_fake_keyboard.ts";
import { Keymap } from "./keymap.ts";
import { chunkBySpares, planText, spareKeysyms } from "./type_plan.ts";

const map = new Keymap(new FakeKeymapBackend());
const plain = { group: 0, level3: true, capsLock: false };

Deno.test("planText turns characters into key presses with Shift and AltGr", () => {
  const plan = planText("aA!|", map, plain);
  assert.deepEqual(plan.map((g) => g.text), ["a", "A", "!", "|"]);
  assert.deepEqual(plan.map((g) => g.steps), [
    [{ kind: "key", position: { keycode: 38, shift: false, level3: false } }],
    [{ kind: "key", position: { keycode: 38, shift: true, level3: false } }],
    [{ kind: "key", position: { keycode: 10, shift: true, level3: false } }],
    [{ kind: "key", position: { keycode: 94, shift: false, level3: true } }],
  ]);
});

Deno.test("planText sends what the layout lacks to spare keycodes", () => {
  const plan = planText("é|", map, { ...plain, level3: false });
  assert.deepEqual(plan[0].steps, [{ kind: "spare", keysym: 0xe9n }]);
  assert.deepEqual(
    plan[1].steps,
    [{ kind: "spare", keysym: 0x7cn }],
    "no AltGr: | is a spare key (Latin-1 keysym)",
  );
});

Deno.test("planText types newlines as Return, CR LF once, and marks control characters untypeable", () => {
  const plan = planText("a\r\nb\rc\td\u0007", map, plain);
  assert.deepEqual(plan.map((g) => g.text), ["a", "\n", "b", "\n", "c", "\t", "d", "\u0007"]);
  assert.deepEqual(plan[1].steps, [{ kind: "key", position: { keycode: 36, shift: false, level3: false } }]);
  assert.deepEqual(plan[5].steps, [{ kind: "key", position: { keycode: 23, shift: false, level3: false } }]);
  assert.equal(plan[7].steps, null);
});

Deno.test("planText keeps a decomposed grapheme's code points", () => {
  const [grapheme] = planText("e\u0301", map, plain);
  assert.equal(grapheme.text, "e\u0301");
  assert.deepEqual(grapheme.steps, [
    { kind: "key", position: { keycode: 26, shift: false, level3: false } },
    { kind: "spare", keysym: 0x1000301n },
  ]);
});

Deno.test("planText inverts Shift on letters when Caps Lock is on", () => {
  const plan = planText("aA1", map, { ...plain, capsLock: true });
  assert.deepEqual(plan.map((g) => g.steps?.[0]), [
    { kind: "key", position: { keycode: 38, shift: true, level3: false } },
    { kind: "key", position: { keycode: 38, shift: false, level3: false } },
    { kind: "key", position: { keycode: 10, shift: false, level3: false } },
  ]);
});

Deno.test("chunkBySpares keeps each chunk within the pool's distinct keysyms", () => {
  const plan = planText("ΩaΩμhνξ", map, plain);
  const chunks = chunkBySpares(plan, 2);
  assert.deepEqual(chunks.map((c) => c.map((g) => g.text).join("")), ["ΩaΩμh", "νξ"]);
  for (const chunk of chunks) assert.ok(spareKeysyms(chunk).length <= 2);
  assert.deepEqual(chunkBySpares(plan, 16).length, 1);
  assert.deepEqual(
    chunkBySpares(plan, 0).length,
    1,
    "an empty pool leaves one chunk (its spares go missing)",
  );
  assert.deepEqual(chunkBySpares([], 4), []);
});
