/** CoreFoundation helpers against the fake frameworks, and the fake's ownership checks. */
import assert from "node:assert/strict";
import { createFakeFrameworks } from "./_fake/mod.ts";
import { CoreFoundation, outCell, readOut } from "./cf.ts";

Deno.test("CoreFoundation round-trips strings, numbers, booleans, data and file URLs", () => {
  const fake = createFakeFrameworks();
  const cf = new CoreFoundation(fake.frameworks);
  {
    using text = cf.string("Grüße 🍎, 日本");
    assert.equal(cf.toString(text.ref), "Grüße 🍎, 日本");
    assert.equal(cf.kind(text.ref), "string");
    using empty = cf.string("");
    assert.equal(cf.toString(empty.ref), "");
    using integer = cf.number(-42);
    using real = cf.number(2.5);
    assert.equal(cf.toNumber(integer.ref), -42);
    assert.equal(cf.toNumber(real.ref), 2.5);
    assert.equal(cf.toBoolean(cf.boolean(true)), true);
    assert.equal(cf.toNumber(text.ref), null);
    using data = cf.data(new Uint8Array([1, 2, 3, 250]));
    assert.deepEqual(cf.toBytes(data.ref), new Uint8Array([1, 2, 3, 250]));
    using url = cf.fileUrl("/Users/ada/Résumé final.pdf");
    assert.equal(cf.toPath(url.ref), "/Users/ada/Résumé final.pdf");
  }
  fake.assertClean();
});

Deno.test("CoreFoundation arrays and dictionaries retain their contents", () => {
  const fake = createFakeFrameworks();
  const cf = new CoreFoundation(fake.frameworks);
  const key = cf.string("AXRole");
  const value = cf.string("AXButton");
  const dictionary = cf.dictionary([[key.ref, value.ref]]);
  const array = cf.array([key.ref, value.ref]);
  // The containers hold their own references, so the originals can go first.
  key.release();
  value.release();
  {
    using lookupKey = cf.string("AXRole");
    assert.equal(cf.toString(cf.lookup(dictionary.ref, lookupKey.ref)), "AXButton");
  }
  assert.deepEqual(cf.items(array.ref).map((ref) => cf.toString(ref)), ["AXRole", "AXButton"]);
  dictionary.release();
  array.release();
  fake.assertClean();
});

Deno.test("the fake frameworks fail a test on a leaked Copy result", () => {
  const fake = createFakeFrameworks();
  const cf = new CoreFoundation(fake.frameworks);
  cf.string("never released");
  assert.throws(() => fake.assertClean(), /leak: a CFString from CFStringCreateWithCharacters/);
});

Deno.test("the fake frameworks fail a double release and a use after release", () => {
  const fake = createFakeFrameworks();
  const cf = new CoreFoundation(fake.frameworks);
  const text = cf.string("once");
  const ref = text.ref;
  text.release();
  text.release(); // Owned makes a second release a no-op...
  assert.throws(() => fake.frameworks.cf.CFRelease(ref), /use after release/); // ...a raw one is caught
  assert.throws(() => cf.toString(ref), /use after release/);
  assert.throws(() => fake.assertClean(), /use after release/);
});

Deno.test("the fake frameworks fail a Get-rule reference released by the caller", () => {
  const fake = createFakeFrameworks();
  const cf = new CoreFoundation(fake.frameworks);
  const list = fake.frameworks.cg.CGWindowListCopyWindowInfo(0, 0)!;
  const first = cf.items(list)[0];
  assert.throws(() => fake.frameworks.cf.CFRelease(first), /over-release of a CFDictionary/);
  fake.frameworks.cf.CFRelease(list);
  assert.throws(() => cf.kind(first), /use after release/);
  assert.equal(fake.heap.violations.length, 2);
});

Deno.test("the fake frameworks check argument types against the real tables", () => {
  const fake = createFakeFrameworks();
  const cg = fake.frameworks.cg as unknown as Record<string, (...args: unknown[]) => unknown>;
  assert.throws(() => cg.CGWindowListCopyWindowInfo(-1, 0), /argument 1: -1 is not a u32/);
  assert.throws(
    () => cg.CGEventCreateMouseEvent(null, 5, new Uint8Array(8), 0),
    /argument 3: not a 16-byte struct/,
  );
  assert.throws(() => cg.CGEventCreateKeyboardEvent(null, 0, 1), /argument 3: 1 is not a bool/);
  const cell = outCell();
  const app = fake.frameworks.ax.AXUIElementCreateApplication(512)!;
  assert.throws(
    () =>
      (fake.frameworks.ax as unknown as Record<string, (...a: unknown[]) => unknown>)
        .AXUIElementCopyAttributeValue(app, "AXRole", cell),
    /argument 2: not a pointer object/,
  );
  fake.frameworks.cf.CFRelease(app);
  assert.equal(readOut(cell), null);
});

Deno.test("the fake frameworks script every symbol of the real tables", () => {
  const fake = createFakeFrameworks();
  assert.deepEqual(fake.unscripted, []);
});
