/** macOS input (posted Quartz events) against the fake frameworks. */
import assert from "node:assert/strict";
import { fakeMacBackend } from "../_fake/harness.ts";
import { MAC } from "../_fake/mod.ts";
import { chunkUnits } from "./keyboard.ts";

const CHECKBOX = { x: 1200, y: 350 }; // "Enable notifications" in the Controls window

Deno.test("darwin background pointer clicks a window by posting to its process, pointer untouched", async () => {
  await using mac = fakeMacBackend();
  const { world } = mac.fake;
  const pointer = await mac.backend.input.pointer("background");
  await pointer.move(CHECKBOX);
  await pointer.button("left", true);
  await pointer.button("left", false);
  assert.equal(world.named(MAC.controls, "Enable notifications").value, 0, "the app's checkbox toggled");
  assert.deepEqual(world.cursor, { x: 700, y: 500 }, "the user's pointer did not move");
  assert.equal(world.frontmost, MAC.textEdit, "the user's frontmost app kept focus");
  const [down, up] = world.events.filter((e) => e.type === 1 || e.type === 2);
  assert.deepEqual([down.route, down.pid, up.route, up.pid], ["pid", MAC.controls, "pid", MAC.controls]);
  assert.equal(down.fields[91], BigInt(MAC.controlsWindow));
  assert.equal(down.fields[92], BigInt(MAC.controlsWindow));
  assert.equal(down.fields[1], 1n);
  assert.deepEqual(await pointer.position(), CHECKBOX);
});

Deno.test("darwin background click carries what AppKit needs in a background window, through SkyLight", async () => {
  await using mac = fakeMacBackend();
  const { world } = mac.fake;
  const pointer = await mac.backend.input.pointer("background");
  await pointer.move(CHECKBOX);
  await pointer.button("left", true);
  await pointer.button("left", false);
  assert.deepEqual(world.dropped.map((d) => d.reason), [], "AppKit took every event");
  assert.equal(world.named(MAC.controls, "Enable notifications").value, 0, "the app's checkbox toggled");
  const [move, down, up] = world.events.filter((e) => e.pid === MAC.controls);
  assert.deepEqual([move.type, down.type, up.type], [5, 1, 2], "a mouseMoved leads the press");
  for (const event of [move, down, up]) {
    assert.equal(event.via, "SLEventPostToPid");
    assert.equal(event.sourceState, 1, "from the HID system state");
    assert.equal(event.fields[40], BigInt(MAC.controls), "field 40 is kCGEventTargetUnixProcessID");
    assert.equal(event.fields[51], BigInt(MAC.controlsWindow));
    assert.equal(event.fields[58], down.fields[58], "one gesture id");
  }
  const frame = world.window(MAC.controlsWindow)!.bounds;
  assert.deepEqual(down.windowLocation, { x: CHECKBOX.x - frame.x, y: CHECKBOX.y - frame.y });
  assert.ok(down.time - move.time >= 12 && up.time - down.time >= 28, "the gaps AppKit's tracking needs");
  assert.equal((pointer as { via?: () => string | null }).via?.(), "SLEventPostToPid");
});

Deno.test("darwin background click without SkyLight posts with CGEventPostToPid and says so", async () => {
  await using mac = fakeMacBackend({ skyLight: false });
  const { world } = mac.fake;
  const pointer = await mac.backend.input.pointer("background");
  await pointer.move(CHECKBOX);
  await pointer.button("left", true);
  await pointer.button("left", false);
  assert.ok(world.events.every((e) => e.via === "CGEventPostToPid"));
  assert.equal((pointer as { via?: () => string | null }).via?.(), "CGEventPostToPid");
  // Without a window-local point AppKit drops the press: the app's checkbox is unchanged.
  assert.equal(world.named(MAC.controls, "Enable notifications").value, 1);
  assert.match(world.dropped[0].reason, /window-local point/);
});

Deno.test("darwin pointer counts a double click in kCGMouseEventClickState", async () => {
  await using mac = fakeMacBackend();
  const pointer = await mac.backend.input.pointer("background");
  await pointer.move(CHECKBOX);
  for (let i = 0; i < 2; i++) {
    await pointer.button("left", true);
    await pointer.button("left", false);
  }
  const states = mac.fake.world.events.filter((e) => e.type === 1).map((e) => e.fields[1]);
  assert.deepEqual(states, [1n, 2n]);
  // AppKit presses once per odd click: a double click toggles the checkbox once.
  assert.equal(mac.fake.world.named(MAC.controls, "Enable notifications").value, 0);
});

Deno.test("darwin pointer drags with dragged events and scrolls by lines", async () => {
  await using mac = fakeMacBackend();
  const pointer = await mac.backend.input.pointer("background");
  await pointer.move({ x: 400, y: 400 });
  await pointer.button("right", true);
  await pointer.move({ x: 420, y: 430 });
  await pointer.button("right", false);
  assert.deepEqual(mac.fake.world.events.map((e) => e.type), [5, 3, 7, 4]);
  await pointer.move({ x: 600, y: 500 });
  await pointer.wheel(0, 3);
  const scroll = mac.fake.world.events.at(-1)!;
  assert.deepEqual(scroll.scroll, { unit: 1, dy: -3, dx: 0 }, "Quartz deltas are positive upward");
  const bar = [...mac.fake.world.elements(mac.fake.world.app(MAC.textEdit)!.ax)].find((n) =>
    n.role === "AXScrollBar"
  )!;
  assert.ok((bar.value as number) > 0, "the text view scrolled down");
});

Deno.test("darwin windowOnTopAt tells covered points apart, the menu bar and Dock included", async () => {
  await using mac = fakeMacBackend();
  const input = mac.backend.input;
  assert.equal(await input.windowOnTopAt(MAC.textEditWindow, { x: 600, y: 400 }), true);
  assert.equal(await input.windowOnTopAt(MAC.chromeWindow, { x: 600, y: 400 }), false);
  assert.equal(await input.windowOnTopAt(MAC.chromeWindow, { x: 100, y: 400 }), true);
  assert.equal(await input.windowOnTopAt(MAC.chromeWindow, { x: 100, y: 10 }), false, "under the menu bar");
});

Deno.test("darwin background keyboard types mixed scripts into one app's window", async () => {
  await using mac = fakeMacBackend();
  const { world } = mac.fake;
  const text = world.app(MAC.textEdit)!.focused!;
  text.value = "";
  text.selectedRange = { location: 0, length: 0 };
  const keyboard = await mac.backend.input.keyboard("background");
  await assert.rejects(keyboard.typeText("x"), /no target window/);
  const typed = "Grüße, 世界 👍🏽\nπ=3.14\tok";
  const count = await mac.backend.input.withBackgroundKeyboard(
    MAC.textEditWindow,
    () => keyboard.typeText(typed),
  );
  assert.equal(count, [...new Intl.Segmenter().segment(typed)].length);
  assert.equal(text.value, typed.replace("\t", ""), "TextEdit's own text (the fake app ignores Tab)");
  assert.ok(world.events.every((e) => e.route === "pid" && e.pid === MAC.textEdit));
  assert.equal(world.frontmost, MAC.textEdit);
});

Deno.test("darwin keyboard presses shortcuts with modifier flags and keeps held keys until released", async () => {
  await using mac = fakeMacBackend();
  const { world } = mac.fake;
  const keyboard = await mac.backend.input.keyboard("background");
  await mac.backend.input.withBackgroundKeyboard(MAC.textEditWindow, async () => {
    await keyboard.press("a", ["super"]);
    await keyboard.down("Shift");
    await keyboard.press("ArrowLeft", []);
    await keyboard.releaseAll?.();
  });
  const keyDowns = world.events.filter((e) => e.type === 10);
  const cmdA = keyDowns.find((e) => e.keyCode === 0)!;
  assert.equal(cmdA.flags & 0x100000n, 0x100000n, "Command held");
  const text = world.app(MAC.textEdit)!.focused!;
  assert.deepEqual(
    text.selectedRange,
    { location: 0, length: (text.value as string).length },
    "Select All landed",
  );
  const left = keyDowns.find((e) => e.keyCode === 0x7b)!;
  assert.equal(left.flags & 0x20000n, 0x20000n, "Shift held");
  assert.equal(left.flags & 0x200000n, 0x200000n, "arrows carry the keypad flag");
  const shiftUp = world.events.findLast((e) => e.keyCode === 0x38)!;
  assert.equal(shiftUp.type, 11, "releaseAll released Shift");
  await assert.rejects(keyboard.press("PrintScreen", []), /no PrintScreen key/);
});

Deno.test("darwin foreground transaction activates, acts at the HID tap, then restores app and pointer", async () => {
  await using mac = fakeMacBackend();
  const { world } = mac.fake;
  const pointer = await mac.backend.input.pointer("global");
  const frontDuring = await mac.backend.input.withForeground(MAC.controlsWindow, async () => {
    await pointer.move({ x: 1400, y: 694 });
    await pointer.button("left", true);
    await pointer.button("left", false);
    return world.frontmost;
  });
  assert.equal(frontDuring, MAC.controls);
  const status = world.named(MAC.controls, "OK").parent!.children.find((c) =>
    c.role === "AXStaticText" && c.frame?.y === 660
  );
  assert.equal(status?.value, "OK pressed", "the app ran the OK button's action");
  assert.ok(world.events.filter((e) => e.type === 1).every((e) => e.route === "hid"));
  assert.equal(world.frontmost, MAC.textEdit, "the previous app is frontmost again");
  assert.deepEqual(world.cursor, { x: 700, y: 500 }, "the pointer is back");
});

Deno.test("darwin foreground transaction refuses when macOS declines the activation", async () => {
  await using mac = fakeMacBackend();
  mac.fake.world.accessibilityTrusted = false; // no AXFrontmost route
  mac.fake.objc.refuseActivation = true; // and NSRunningApplication declines (macOS 14 cooperative activation)
  let ran = false;
  const error = await mac.backend.input.withForeground(MAC.controlsWindow, () => {
    ran = true;
    return Promise.resolve();
  }).catch((e) => e);
  assert.equal(error.code, "foreground_unavailable");
  assert.equal(ran, false);
  assert.equal(mac.fake.world.events.length, 0);
});

Deno.test("darwin input names Chromium apps, observes the desktop and hands out extra pointers", async () => {
  await using mac = fakeMacBackend();
  const input = mac.backend.input;
  assert.equal(await input.toolkit(MAC.chrome), "chromium");
  assert.equal(await input.toolkit(MAC.textEdit), "appkit");
  assert.equal(await input.toolkit(4_000_000), "unknown");
  assert.equal(await input.backgroundAvailable(), true);
  const seen = await input.observe();
  assert.equal(seen.activeWindow, MAC.textEditWindow);
  assert.deepEqual(seen.stacking, [MAC.chromeWindow, MAC.controlsWindow, MAC.textEditWindow]);
  const extra = await input.extraPointer();
  await extra.move(CHECKBOX);
  await extra.button("left", true);
  await extra.close();
  assert.equal(mac.fake.world.events.at(-1)!.type, 2, "closing released the held button");
  await extra.close();
});

Deno.test("chunkUnits splits long clusters without breaking surrogate pairs", () => {
  const family = "👨‍👩‍👧‍👦👨‍👩‍👧‍👦";
  const pieces = chunkUnits(family, 20);
  assert.equal(pieces.join(""), family);
  assert.ok(pieces.every((p) => p.length <= 20 && !/^[\uDC00-\uDFFF]/.test(p)));
});

Deno.test("darwin releaseAll leaves extra pointers holding their buttons until closed", async () => {
  await using mac = fakeMacBackend();
  const extra = await mac.backend.input.extraPointer();
  await extra.move(CHECKBOX);
  await extra.button("left", true);
  await mac.backend.input.releaseAll?.(); // what the core runs after every action
  assert.ok(!mac.fake.world.events.some((e) => e.type === 2), "mouse_button_down's button is still held");
  await extra.close();
  assert.equal(mac.fake.world.events.at(-1)!.type, 2);
});

Deno.test("darwin background keys never reorder windows: a window that is not its app's main is refused", async () => {
  await using mac = fakeMacBackend();
  const { world } = mac.fake;
  // TextEdit's second document, Notes.txt, is open behind Untitled.rtf; Controls is frontmost.
  const notes = world.window(MAC.textEditMinimized)!;
  notes.onScreen = true;
  notes.ax!.extra.AXMinimized = false;
  world.activate(MAC.controls);
  const order = world.windows.map((w) => w.id);
  const keyboard = await mac.backend.input.keyboard("background");
  const error = await mac.backend.input.withBackgroundKeyboard(
    MAC.textEditMinimized,
    () => keyboard.typeText("x"),
  )
    .catch((e) => e);
  assert.equal(error.code, "background_unavailable");
  assert.match(error.message, /not the main window/);
  assert.equal(world.events.length, 0, "nothing was sent");
  // Typing into the main window needs no AXMain write at all.
  await mac.backend.input.withBackgroundKeyboard(MAC.textEditWindow, () => keyboard.typeText("y"));
  assert.match(String(world.app(MAC.textEdit)!.focused!.value), /y/);
  assert.equal(world.restacks, 0, "no window changed its place in the window list");
  assert.deepEqual(world.windows.map((w) => w.id), order);
  assert.equal(world.frontmost, MAC.controls, "the user's frontmost app kept focus");
});

Deno.test("darwin foreground on macOS 14 without Accessibility refuses at once, asking nothing macOS ignores", async () => {
  await using mac = fakeMacBackend();
  mac.fake.world.accessibilityTrusted = false;
  assert.equal(mac.fake.world.productVersion.split(".")[0], "14");
  let ran = false;
  const error = await mac.backend.input.withForeground(MAC.controlsWindow, () => {
    ran = true;
    return Promise.resolve();
  }).catch((e) => e);
  assert.equal(error.code, "foreground_unavailable");
  assert.equal(error.data.permission, "accessibility");
  assert.match(error.message, /macOS 14 ignores activation requests from a background process/);
  assert.equal(ran, false);
  assert.deepEqual(
    mac.fake.objc.activations,
    [],
    "no deprecated NSApplicationActivateIgnoringOtherApps request",
  );
  assert.equal(mac.fake.world.frontmost, MAC.textEdit);
});

Deno.test("darwin foreground on macOS 14 activates through AXFrontmost and AXRaise, confirmed", async () => {
  await using mac = fakeMacBackend();
  const { world } = mac.fake;
  let frontmostInside: number | null = null;
  await mac.backend.input.withForeground(MAC.controlsWindow, () => {
    frontmostInside = world.frontmost;
    return Promise.resolve();
  });
  assert.equal(frontmostInside, MAC.controls);
  assert.equal(world.frontmost, MAC.textEdit, "the previous app is frontmost again");
  assert.deepEqual(mac.fake.objc.activations, [], "NSRunningApplication was not asked");
});
