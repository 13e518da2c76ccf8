/** The macOS screen facility against the fake frameworks. */
import assert from "node:assert/strict";
import { DriverError } from "../../ports/errors.ts";
import type { RawImage } from "../../ports/screen.ts";
import { WALLPAPER } from "./_fake/cg.ts";
import { fakeMacBackend } from "./_fake/harness.ts";
import { MAC } from "./_fake/mod.ts";

function pixel(image: RawImage, x: number, y: number): number[] {
  const i = (y * image.width + x) * 4;
  return [...image.data.subarray(i, i + 4)];
}

Deno.test("darwin screen lists displays main first, with backing scale and refresh rate", async () => {
  await using mac = fakeMacBackend();
  const displays = await mac.backend.screen.displays();
  assert.deepEqual(displays.map((d) => [d.id, d.primary, d.name]), [
    ["1", true, "Built-in Display"],
    ["2", false, "Display 2"],
  ]);
  assert.deepEqual(displays[0].bounds, { x: 0, y: 0, width: 1512, height: 982 });
  assert.equal(displays[0].scaleFactor, 2);
  assert.equal(displays[0].nativeWidth, 3024);
  assert.equal(displays[0].refreshRateHz, 120);
  assert.deepEqual(displays[1].bounds, { x: 1512, y: -98, width: 1920, height: 1080 });
  assert.equal(displays[1].scaleFactor, 1);
});

Deno.test("darwin screen reads the pointer from a null-source event", async () => {
  await using mac = fakeMacBackend();
  mac.fake.world.cursor = { x: 321.5, y: 77 };
  assert.deepEqual(await mac.backend.screen.cursorPosition(), {
    x: 321.5,
    y: 77,
    source: "CGEventGetLocation",
  });
});

Deno.test("darwin screen captures the main display at native size as RGBA", async () => {
  await using mac = fakeMacBackend();
  const image = await mac.backend.screen.captureDisplay("primary");
  assert.equal(image.width, 3024);
  assert.equal(image.height, 1964);
  assert.equal(image.data.length, 3024 * 1964 * 4);
  // TextEdit (frontmost) is drawn in (10, 120, 230); BGRA from the window server becomes RGBA.
  assert.deepEqual(pixel(image, 600 * 2, 400 * 2), [10, 120, 230, 255]);
  assert.deepEqual(pixel(image, 1490 * 2, 850 * 2), [...WALLPAPER, 255]);
});

Deno.test("darwin screen captures one covered window whole, with its bounds", async () => {
  await using mac = fakeMacBackend();
  // The Controls window is partly under nothing and TextEdit covers Chrome: capture Chrome.
  const { image, bounds } = await mac.backend.screen.captureWindow(MAC.chromeWindow);
  assert.deepEqual(bounds, { x: 40, y: 60, width: 1200, height: 800 });
  assert.equal(image.width, 2400);
  assert.equal(image.height, 1600);
  // Where TextEdit covers it on screen, the window capture still shows Chrome's own pixels.
  assert.deepEqual(pixel(image, (600 - 40) * 2, (400 - 60) * 2), [250, 250, 250, 255]);
});

Deno.test("darwin screen refuses capture without Screen Recording, naming the pane", async () => {
  await using mac = fakeMacBackend();
  mac.fake.world.screenCaptureAllowed = false;
  const error = await mac.backend.screen.captureDisplay("primary").catch((e) => e);
  assert.ok(error instanceof DriverError);
  assert.equal(error.code, "permission_denied");
  assert.match(String(error.data.hint), /Privacy_ScreenCapture/);
  await assert.rejects(mac.backend.screen.captureWindow(MAC.textEditWindow), /Screen Recording/);
});

Deno.test("darwin screen refuses capture where the OS has neither the CoreGraphics calls nor screencapture", async () => {
  const world = (await import("./_fake/scenario.ts")).macDesktop();
  world.legacyCaptureAvailable = false;
  world.screencaptureInstalled = false;
  await using mac = fakeMacBackend({ world });
  const error = await mac.backend.screen.captureWindow(MAC.textEditWindow).catch((e) => e);
  assert.equal(error.code, "unsupported_platform");
  assert.match(String(error.data.hint), /ScreenCaptureKit/);
  assert.equal((await mac.backend.screen.captureDisplay("1").catch((e) => e)).code, "unsupported_platform");
});

Deno.test("darwin screen answers window_stale and display_unavailable for what does not exist", async () => {
  await using mac = fakeMacBackend();
  assert.equal((await mac.backend.screen.captureWindow(999_999).catch((e) => e)).code, "window_stale");
  assert.equal((await mac.backend.screen.captureDisplay("7").catch((e) => e)).code, "display_unavailable");
});

Deno.test("darwin screen decodes a 10-bit and a half-float (HDR) display's captures", async () => {
  for (const format of ["rgb10", "rgba16f"] as const) {
    await using mac = fakeMacBackend();
    mac.fake.world.captureFormat = format;
    const { image } = await mac.backend.screen.captureWindow(MAC.textEditWindow);
    assert.equal(image.width, 1600, format);
    // TextEdit's (10, 120, 230), within one step of 8-bit rounding.
    const [r, g, b, a] = pixel(image, 400, 400);
    assert.ok(Math.abs(r - 10) <= 1 && Math.abs(g - 120) <= 1 && Math.abs(b - 230) <= 1 && a === 255, format);
  }
});

Deno.test("darwin screen on macOS 15 captures through screencapture, never the calls macOS prompts for", async () => {
  await using mac = fakeMacBackend();
  const { world } = mac.fake;
  world.productVersion = "15.1";
  const { image, bounds } = await mac.backend.screen.captureWindow(MAC.chromeWindow);
  assert.deepEqual(bounds, { x: 40, y: 60, width: 1200, height: 800 });
  assert.equal(image.width, 2400);
  assert.deepEqual(pixel(image, (600 - 40) * 2, (400 - 60) * 2), [250, 250, 250, 255], "Chrome's own pixels");
  const desktop = await mac.backend.screen.captureDisplay("primary");
  assert.deepEqual(pixel(desktop, 600 * 2, 400 * 2), [10, 120, 230, 255]);
  assert.equal(world.bypassPrompts, 0, "no 'bypass the private window picker' prompt");
  assert.deepEqual(mac.fake.screencapture.calls.map((c) => c.slice(1, 5)), [
    ["-x", "-o", "-l", String(MAC.chromeWindow)],
    ["-x", "-D", "1", "-t"],
  ]);
  const check = (await mac.backend.permissions()).find((c) => c.name === "capture_api")!;
  assert.equal(check.ok, true);
  assert.match(check.detail, /still exported \(dlsym finds them\).*every month.*screencapture/);
});

Deno.test("darwin screen reports a window without pixels as capture_failed with its hint", async () => {
  for (const unreadable of ["empty", "transparent"] as const) {
    for (const version of ["14.6.1", "15.1"]) {
      await using mac = fakeMacBackend();
      mac.fake.world.productVersion = version;
      mac.fake.world.window(MAC.chromeWindow)!.unreadable = unreadable;
      const error = await mac.backend.screen.captureWindow(MAC.chromeWindow).catch((e) => e);
      assert.equal(error.code, "capture_failed", `${unreadable} on ${version}: ${error.message}`);
      assert.match(String(error.data.hint), /minimized|another Space/);
    }
  }
});
