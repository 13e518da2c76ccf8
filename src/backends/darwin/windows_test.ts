/** The macOS window facility against the fake frameworks. */
import assert from "node:assert/strict";
import { fakeMacBackend } from "./_fake/harness.ts";
import { MAC } from "./_fake/mod.ts";

Deno.test("darwin windows lists layer-0 windows bottom first, minimized ones without a z-index", async () => {
  await using mac = fakeMacBackend();
  const windows = await mac.backend.windows.list();
  assert.deepEqual(windows.map((w) => w.windowId), [
    MAC.textEditMinimized,
    MAC.chromeWindow,
    MAC.controlsWindow,
    MAC.textEditWindow,
  ]);
  const textEdit = windows.at(-1)!;
  assert.deepEqual(textEdit, {
    windowId: MAC.textEditWindow,
    pid: MAC.textEdit,
    appName: "TextEdit",
    title: "Untitled.rtf",
    bounds: { x: 200, y: 120, width: 800, height: 600 },
    isOnScreen: true,
    zIndex: 3,
  });
  assert.equal(windows[0].isOnScreen, false);
  assert.equal(windows[0].zIndex, null);
  assert.deepEqual(windows.slice(1).map((w) => w.zIndex), [1, 2, 3]);
});

Deno.test("darwin windows read titles from Accessibility when Screen Recording hides them", async () => {
  await using mac = fakeMacBackend();
  mac.fake.world.screenCaptureAllowed = false;
  const windows = await mac.backend.windows.list();
  assert.equal(windows.find((w) => w.windowId === MAC.textEditWindow)?.title, "Untitled.rtf");
  assert.equal(windows.find((w) => w.windowId === MAC.chromeWindow)?.title, "New Tab - Google Chrome");
  assert.ok(mac.fake.callsOf("_AXUIElementGetWindow").length > 0);
});

Deno.test("darwin windows pair AX windows by frame and title without the private SPI", async () => {
  await using mac = fakeMacBackend({ privateWindowSpi: false });
  mac.fake.world.screenCaptureAllowed = false;
  const info = await mac.backend.windows.get(MAC.controlsWindow);
  assert.equal(info?.title, "Controls");
  assert.equal(mac.fake.callsOf("_AXUIElementGetWindow").length, 0);
});

Deno.test("darwin windows report the frontmost app's front window as active", async () => {
  await using mac = fakeMacBackend();
  assert.equal(await mac.backend.windows.active(), MAC.textEditWindow);
  assert.equal(await mac.backend.windows.get(424242), null);
});

Deno.test("darwin windows activate raises the window and brings its app to the front", async () => {
  await using mac = fakeMacBackend();
  const { priorActive } = await mac.backend.windows.activate(MAC.controlsWindow);
  assert.equal(priorActive, MAC.textEditWindow);
  // The fake Mac's own state: the app is frontmost and its window heads the list.
  assert.equal(mac.fake.world.frontmost, MAC.controls);
  assert.equal(mac.fake.world.windows.find((w) => w.layer === 0)?.id, MAC.controlsWindow);
  assert.equal(await mac.backend.windows.active(), MAC.controlsWindow);
  assert.ok(mac.fake.world.actions.some((a) => a.action === "AXRaise"));
});

Deno.test("darwin windows set a frame through AXPosition and AXSize", async () => {
  await using mac = fakeMacBackend();
  await mac.backend.windows.setFrame(MAC.textEditWindow, { x: 50, y: 80, width: 640, height: 400 });
  assert.deepEqual(mac.fake.world.window(MAC.textEditWindow)?.bounds, {
    x: 50,
    y: 80,
    width: 640,
    height: 400,
  });
  assert.deepEqual((await mac.backend.windows.get(MAC.textEditWindow))?.bounds, {
    x: 50,
    y: 80,
    width: 640,
    height: 400,
  });
});

Deno.test("darwin windows refuse to move without Accessibility and for a gone window", async () => {
  await using mac = fakeMacBackend();
  mac.fake.world.accessibilityTrusted = false;
  const denied = await mac.backend.windows.setFrame(MAC.textEditWindow, {
    x: 0,
    y: 0,
    width: 300,
    height: 300,
  })
    .catch((e) => e);
  assert.equal(denied.code, "permission_denied");
  const gone = await mac.backend.windows.activate(31337).catch((e) => e);
  assert.equal(gone.code, "window_stale");
});
