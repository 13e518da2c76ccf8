/**
 * One coordinate story, end to end on the GTK3 fixture: after a resize that makes the
 * screenshot downscaled (a window wider than max_image_dimension), a click at an element's
 * frame centre (screen points) and a click at its centre in screenshot pixels both land on
 * the button (judged by the fixture's journal); results echo the point as given and as a
 * screen point; a pixel point while the scale just changed, and a point outside the
 * window, are refused with the exact conversion and nothing reaches the app.
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";

const ignore = ignoreWithoutDesktop();

Deno.test({
  name: "click lands by frame centre and by screenshot pixel after a resize changes the scale",
  ignore,
  async fn() {
    await using driver = await startTestDriver();
    await using app = await startFixture(desktopEnv(), { title: "Coordinates", x: 20, y: 20 });
    const target = { kind: "window", pid: app.pid, window_id: app.xid };
    const observe = () => driver.ok("get_window_state", { pid: app.pid, window_id: app.xid });
    const first = await observe();
    assert.equal(first.screenshot_scale, 1, "a window smaller than max_image_dimension is not scaled");

    await driver.ok("set_window_frame", {
      pid: app.pid,
      window_id: app.xid,
      x: 10,
      y: 10,
      width: 1880,
      height: 1000,
    });
    let state: Structured = {};
    for (let i = 0; i < 100; i++) {
      state = await observe();
      if (state.bounds.width === 1880 && state.screenshot_scale < 0.9) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const scale = state.screenshot_scale as number;
    assert.ok(scale > 0.8 && scale < 0.85, `1568 / 1880 pixels per point, got ${scale}`);
    assert.equal(state.screenshot_scale_changed_from, 1, "the observation says the scale changed");
    const button = (state.elements as Structured[]).find((e) => e.label === "btn-increment")!;
    const { x, y, w, h } = button.frame;
    const frameCentre = { x: Math.round(x + w / 2), y: Math.round(y + h / 2) };
    const [px, py] = button.center as [number, number];
    assert.deepEqual(
      [px, py],
      [Math.round((x + w / 2 - state.bounds.x) * scale), Math.round((y + h / 2 - state.bounds.y) * scale)],
      "center is the frame centre in pixels of this screenshot",
    );
    const counter = async () => (await app.readJournal()).at(-1)!.counter as number;
    const before = await counter();

    // Pixels while the scale just changed: which screenshot they came from is ambiguous.
    const ambiguous = await driver.call("click", { target, x: px, y: py });
    assert.equal(ambiguous.isError, true);
    const refusal = ambiguous.structuredContent as Structured;
    assert.equal(refusal.code, "stale_screenshot");
    assert.equal(refusal.reason, "scale_changed");
    assert.match(refusal.hint, /coordinate_space "screenshot"/);
    assert.match(
      refusal.hint,
      new RegExp(`pixels of ${state.screenshot_id}: screen \\(\\d+, \\d+\\), inside`),
    );

    const byFrame = await driver.ok("click", { target, ...frameCentre, coordinate_space: "screen" });
    assert.deepEqual(byFrame.points, [{ ...frameCentre, coordinate_space: "screen", screen: frameCentre }]);
    await app.waitFor((e) => e.counter === before + 1);

    const byPixel = await driver.ok("click", { target, x: px, y: py, coordinate_space: "screenshot" });
    const [echo] = byPixel.points as Structured[];
    assert.deepEqual([echo.x, echo.y, echo.coordinate_space, echo.screenshot_id], [
      px,
      py,
      "screenshot",
      state.screenshot_id,
    ]);
    assert.ok(
      echo.screen.x >= x && echo.screen.x < x + w && echo.screen.y >= y && echo.screen.y < y + h,
      `pixel (${px}, ${py}) went to screen (${echo.screen.x}, ${echo.screen.y}), inside the button`,
    );
    await app.waitFor((e) => e.counter === before + 2);

    // Outside the window: refused with the conversion, never sent to whatever is there.
    const bounds = state.bounds;
    const outsideScreen = await driver.call("click", {
      target,
      x: bounds.x + bounds.width + 5,
      y: bounds.y + 10,
      coordinate_space: "screen",
    });
    assert.equal(outsideScreen.structuredContent?.code, "invalid_arguments");
    assert.deepEqual(outsideScreen.structuredContent?.window_bounds, bounds);
    assert.match(
      String(outsideScreen.structuredContent?.hint),
      /pixels of screenshot c\w+, pass coordinate_space "screenshot": they map to screen \(\d+, \d+\), outside/,
    );
    const outsidePixels = await driver.call("click", {
      target,
      x: state.screenshot_width + 40,
      y: 10,
      coordinate_space: "screenshot",
    });
    const pixelRefusal = outsidePixels.structuredContent as Structured;
    assert.equal(pixelRefusal.code, "invalid_arguments");
    assert.equal(pixelRefusal.screenshot_scale, Math.round(scale * 1000) / 1000);
    assert.match(pixelRefusal.hint, /pixel = \(screen - \(\d+, \d+\)\) x 0\.8\d+/);
    assert.match(pixelRefusal.hint, /pass coordinate_space "screen"/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await counter(), before + 2, "the refused clicks reached nothing");

    // The next observation at the same scale clears the ambiguity: plain pixels work again.
    const again = await observe();
    assert.equal(again.screenshot_scale_changed_from, undefined);
    const fresh = (again.elements as Structured[]).find((e) => e.label === "btn-increment")!;
    await driver.ok("click", { target, x: fresh.center[0], y: fresh.center[1] });
    await app.waitFor((e) => e.counter === before + 3);
  },
});
