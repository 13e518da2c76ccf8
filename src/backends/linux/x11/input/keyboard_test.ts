import assert from "node:assert/strict";
import { DriverError } from "../../../../ports/errors.ts";
import {
  checkNoRace,
  CountingBarrier,
  FakeKeymapBackend,
  type LogEntry,
  RecordingSink,
} from "./_fake_keyboard.ts";
import {
  CORE_KEYBOARD,
  deviceKeyboard,
  type KeyboardChannel,
  PACE_CHARACTERS,
  X11Keyboard,
} from "./keyboard.ts";
import { Keymap } from "./keymap.ts";
import type { BarrierOutcome } from "./app_sync.ts";

const DEVICE: KeyboardChannel = deviceKeyboard(Deno.UnsafePointer.create(0x1000n)!, 12);

function setup(spareLimit = 16) {
  const log: LogEntry[] = [];
  const backend = new FakeKeymapBackend(log);
  const sink = new RecordingSink(log);
  const barrier = new CountingBarrier(log);
  const keyboard = new X11Keyboard({ keymap: new Keymap(backend), sink, barrier, spareLimit });
  return { log, backend, sink, barrier, keyboard };
}

Deno.test("X11Keyboard.press holds modifiers around the key and releases them in reverse", async () => {
  const { sink, keyboard } = setup();
  await keyboard.press(CORE_KEYBOARD, "k", ["ctrl", "shift"]);
  assert.deepEqual(sink.keys(), ["37+", "50+", "45+", "45-", "50-", "37-"]);
  assert.deepEqual(keyboard.held(CORE_KEYBOARD), []);
});

Deno.test("X11Keyboard.press adds the Shift or AltGr a character needs", async () => {
  const { sink, keyboard } = setup();
  await keyboard.press(CORE_KEYBOARD, "!");
  await keyboard.press(CORE_KEYBOARD, "€");
  assert.deepEqual(sink.keys(), ["50+", "10+", "10-", "50-", "92+", "26+", "26-", "92-"]);
});

Deno.test("X11Keyboard.press accepts modifier aliases and rejects unknown modifiers and keys", async () => {
  const { sink, keyboard } = setup();
  await keyboard.press(CORE_KEYBOARD, "Home", ["cmd", "option"]);
  assert.deepEqual(sink.keys(), ["133+", "64+", "110+", "110-", "64-", "133-"]);
  await assert.rejects(() => keyboard.press(CORE_KEYBOARD, "a", ["hyper"]), (e: DriverError) => {
    assert.equal(e.code, "invalid_arguments");
    assert.equal(e.data.field, "modifiers");
    return true;
  });
  await assert.rejects(
    () => keyboard.press(CORE_KEYBOARD, "nope"),
    (e: DriverError) => e.code === "invalid_arguments",
  );
});

Deno.test("X11Keyboard.press releases every modifier when the key event fails mid-combo", async () => {
  const { sink, keyboard } = setup();
  // The third event (k down) fails, as a lost server or a bad keycode would.
  sink.failOn = (_keycode, _down, index) => index === 2;
  await assert.rejects(() => keyboard.press(CORE_KEYBOARD, "k", ["ctrl", "shift"]), /injected failure/);
  assert.deepEqual(sink.keys(), ["37+", "50+", "50-", "37-"]);
  assert.deepEqual(keyboard.held(CORE_KEYBOARD), []);
});

Deno.test("X11Keyboard.releaseAll in finally frees modifiers held by down() when the body throws", async () => {
  const { sink, keyboard } = setup();
  await assert.rejects(async () => {
    try {
      await keyboard.down(CORE_KEYBOARD, "ctrl");
      await keyboard.down(CORE_KEYBOARD, "shift");
      throw new Error("the click between failed");
    } finally {
      await keyboard.releaseAll(CORE_KEYBOARD);
    }
  }, /the click between failed/);
  assert.deepEqual(sink.keys(), ["37+", "50+", "50-", "37-"]);
  assert.deepEqual(keyboard.held(CORE_KEYBOARD), []);
});

Deno.test("X11Keyboard.releaseAll tries every key even when one release fails", async () => {
  const { sink, keyboard } = setup();
  await keyboard.down(CORE_KEYBOARD, "ctrl");
  await keyboard.down(CORE_KEYBOARD, "alt");
  sink.failOn = (keycode, down) => keycode === 64 && !down;
  await assert.rejects(() => keyboard.releaseAll(CORE_KEYBOARD), /injected failure on keycode 64/);
  assert.deepEqual(sink.keys(), ["37+", "64+", "37-"], "ctrl is released after alt's release failed");
  assert.deepEqual(keyboard.held(CORE_KEYBOARD), []);
});

Deno.test("X11Keyboard.down and up hold a key with the Shift it needs, per channel", async () => {
  const { sink, keyboard } = setup();
  await keyboard.down(CORE_KEYBOARD, "A");
  await keyboard.down(CORE_KEYBOARD, "A"); // already held: nothing
  await keyboard.down(DEVICE, "ctrl");
  assert.deepEqual(keyboard.held(CORE_KEYBOARD), [50, 38]);
  assert.deepEqual(keyboard.held(DEVICE), [37]);
  assert.equal(await keyboard.up(CORE_KEYBOARD, "h"), false, "not held");
  assert.equal(await keyboard.up(CORE_KEYBOARD, "A"), true);
  assert.deepEqual(keyboard.held(CORE_KEYBOARD), []);
  assert.deepEqual(keyboard.held(DEVICE), [37]);
  await keyboard.releaseAll(DEVICE);
  assert.deepEqual(sink.keys(), ["50+", "38+", "37+", "38-", "50-", "37-"]);
  assert.deepEqual(
    sink.log.flatMap((e) => e.kind === "key" ? [e.channel] : []),
    ["core", "core", "device", "core", "core", "device"],
  );
});

Deno.test("X11Keyboard.typeText toggles Shift only when the next character needs it", async () => {
  const { sink, keyboard } = setup();
  const result = await keyboard.typeText(CORE_KEYBOARD, "HHa!\n");
  assert.deepEqual(result, { delivered: 5, missing: [], remapped: 0, barriers: [] });
  assert.deepEqual(sink.keys(), [
    "50+",
    "43+",
    "43-",
    "43+",
    "43-",
    "50-",
    "38+",
    "38-",
    "50+",
    "10+",
    "10-",
    "50-",
    "36+",
    "36-",
  ]);
  assert.deepEqual(keyboard.held(CORE_KEYBOARD), []);
});

Deno.test("X11Keyboard.typeText compensates Caps Lock on letters", async () => {
  const { sink, keyboard } = setup();
  sink.state_ = { group: 0, capsLock: true };
  await keyboard.typeText(CORE_KEYBOARD, "aA");
  assert.deepEqual(sink.keys(), ["50+", "38+", "38-", "50-", "38+", "38-"]);
});

Deno.test("X11Keyboard.typeText binds missing characters on spare keycodes and clears them after a barrier", async () => {
  const { log, backend, sink, barrier, keyboard } = setup();
  const result = await keyboard.typeText(CORE_KEYBOARD, "Haké Ω日🎉Ω");
  assert.equal(result.delivered, 9);
  assert.deepEqual(result.missing, []);
  assert.equal(result.remapped, 4, "é, Ω, 日 and 🎉 each bound once");
  assert.equal(backend.requests, 2, "one request binds them all, one clears them");
  assert.equal(barrier.waits, 1, "one barrier, before clearing");
  assert.deepEqual(log.filter((e) => e.kind === "barrier"), [{ kind: "barrier", window: 0x400003n }]);
  assert.equal(backend.bound.size, 0, "every spare keycode is cleared");
  assert.deepEqual(keyboard.spareBindings(), new Map());
  // All binds come before the first spare key press: the app re-reads the map once.
  const firstSparePress = log.findIndex((e) => e.kind === "key" && e.keycode > 133);
  const lastBind = log.findLastIndex((e) => e.kind === "bind" && e.keysym !== 0n);
  assert.ok(firstSparePress > 0 && lastBind < firstSparePress);
  checkNoRace(log);
  assert.deepEqual(keyboard.held(CORE_KEYBOARD), []);
  assert.ok(sink.keys().length > 0);
});

Deno.test("X11Keyboard.typeText waits for the app before rebinding when the pool is small", async () => {
  const { log, backend, barrier, keyboard } = setup(2);
  const result = await keyboard.typeText(CORE_KEYBOARD, "αβγδεζηθ αβγ");
  assert.equal(result.delivered, 12);
  assert.ok(result.remapped >= 8);
  assert.ok(barrier.waits >= 4, `${barrier.waits} barriers`);
  checkNoRace(log);
  assert.equal(backend.bound.size, 0);
});

Deno.test("X11Keyboard.typeText on a device channel uses spare keycodes instead of AltGr", async () => {
  const { sink, backend, keyboard } = setup();
  const result = await keyboard.typeText(DEVICE, "|");
  assert.equal(result.delivered, 1);
  assert.equal(result.remapped, 1);
  assert.ok(!sink.keys().includes("92+"), "no AltGr on the device channel");
  assert.equal(backend.bound.size, 0);
});

Deno.test("X11Keyboard.typeText reports what it cannot type instead of dropping it silently", async () => {
  const { keyboard } = setup(0);
  const result = await keyboard.typeText(CORE_KEYBOARD, "a\u0007h日");
  assert.deepEqual(result, { delivered: 2, missing: ["\u0007", "日"], remapped: 0, barriers: [] });
});

Deno.test("X11Keyboard.typeText releases its Shift and clears spare keycodes when it fails halfway", async () => {
  const { sink, backend, keyboard } = setup();
  // Fail on the press of the 'h' after "Ω" and "A" (Shift is held for the A).
  sink.failOn = (keycode, down) => keycode === 43 && down;
  await assert.rejects(() => keyboard.typeText(CORE_KEYBOARD, "ΩAH"), /injected failure/);
  assert.deepEqual(keyboard.held(CORE_KEYBOARD), []);
  assert.equal(sink.keys().at(-1), "50-", "Shift released last");
  assert.equal(backend.bound.size, 0);
});

Deno.test("X11Keyboard.typeText stops when aborted and reports the count", async () => {
  const { keyboard } = setup();
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(
    () => keyboard.typeText(CORE_KEYBOARD, "hello", { signal: controller.signal }),
    (e: DriverError) => e.code === "aborted" && e.data.delivered_count === 0 && e.data.planned_count === 5,
  );
});

Deno.test("X11Keyboard.typeText waits for the app every few characters, and stops there when aborted", async () => {
  const log: LogEntry[] = [];
  let reached!: () => void;
  const atPacePoint = new Promise<void>((resolve) => reached = resolve);
  // An app that takes its time: the barrier answers only after the test has aborted.
  const slowApp = {
    wait: () => {
      reached();
      return new Promise<BarrierOutcome>(() => {});
    },
    close: () => {},
  };
  const keyboard = new X11Keyboard({
    keymap: new Keymap(new FakeKeymapBackend(log)),
    sink: new RecordingSink(log),
    barrier: slowApp,
  });
  const controller = new AbortController();
  const typing = keyboard.typeText(CORE_KEYBOARD, "a".repeat(PACE_CHARACTERS * 3), {
    signal: controller.signal,
    window: 7n,
  });
  await atPacePoint;
  controller.abort();
  await assert.rejects(
    typing,
    (e: DriverError) => e.code === "aborted" && e.data.delivered_count === PACE_CHARACTERS,
  );
  const pressed = log.filter((e) => e.kind === "key" && e.down).length;
  assert.equal(pressed, PACE_CHARACTERS, "no key after the abort");
});

Deno.test("X11Keyboard.press on a spare keycode keeps it until the app caught up", async () => {
  const { log, backend, barrier, keyboard } = setup();
  await keyboard.press(CORE_KEYBOARD, "日", ["ctrl"]);
  assert.equal(barrier.waits, 1);
  assert.equal(backend.bound.size, 0);
  checkNoRace(log);
  const binds = log.filter((e) => e.kind === "bind");
  assert.equal(binds.length, 2, "bound, then cleared");
});

Deno.test("X11Keyboard.down on a spare keycode keeps the binding until up", async () => {
  const { backend, keyboard } = setup();
  await keyboard.down(CORE_KEYBOARD, "Ω");
  assert.equal(backend.bound.size, 1);
  await keyboard.typeText(CORE_KEYBOARD, "日");
  assert.equal(backend.bound.size, 1, "typing clears its own binding, not the held one");
  await keyboard.up(CORE_KEYBOARD, "Ω");
  assert.equal(backend.bound.size, 0);
});

Deno.test("X11Keyboard dispose releases held keys, clears spare keycodes and closes the barrier", async () => {
  const { sink, backend, barrier, keyboard } = setup();
  await keyboard.down(CORE_KEYBOARD, "shift");
  await keyboard.down(DEVICE, "Ω");
  keyboard[Symbol.dispose]();
  assert.deepEqual(keyboard.held(CORE_KEYBOARD), []);
  assert.deepEqual(keyboard.held(DEVICE), []);
  assert.equal(backend.bound.size, 0);
  assert.equal(barrier.closed, true);
  assert.ok(sink.keys().includes("50-"));
});

Deno.test("X11Keyboard.forget drops a channel's records without sending", async () => {
  const { sink, keyboard } = setup();
  await keyboard.down(DEVICE, "ctrl");
  const sent = sink.keys().length;
  keyboard.forget(DEVICE);
  assert.deepEqual(keyboard.held(DEVICE), []);
  await keyboard.releaseAll(DEVICE);
  assert.equal(sink.keys().length, sent);
});

Deno.test("X11Keyboard.down of a modifier another held key pressed keeps it held until its own up", async () => {
  const { sink, keyboard } = setup();
  await keyboard.down(CORE_KEYBOARD, "A"); // Shift + a
  await keyboard.down(CORE_KEYBOARD, "shift"); // already down: no second press
  await keyboard.up(CORE_KEYBOARD, "A");
  assert.deepEqual(keyboard.held(CORE_KEYBOARD), [50], "shift stays: it is held in its own right now");
  await keyboard.up(CORE_KEYBOARD, "shift");
  assert.deepEqual(sink.keys(), ["50+", "38+", "38-", "50-"]);
});
