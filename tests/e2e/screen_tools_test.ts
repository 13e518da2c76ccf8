/**
 * get_screen_size, get_cursor_position, get_desktop_state, get_accessibility_tree and
 * zoom end to end, checked against xdpyinfo, xdotool, /proc, ImageMagick's own read of
 * the screen and the colour the GTK3 fixture paints in its swatch.
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { imageBytes, pngOf, startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";
import {
  parseColour,
  pixelAt,
  type Rgb,
  sameColour,
  screenPixel,
  waitFor,
  windowBox,
  x,
} from "../_helpers/x11_probe.ts";

const ignore = ignoreWithoutDesktop();

/** Width and height from a baseline JPEG's SOF0 header. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } {
  assert.deepEqual([bytes[0], bytes[1]], [0xff, 0xd8], "JPEG SOI magic");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 2; i + 9 < bytes.length;) {
    assert.equal(bytes[i], 0xff, `JPEG marker at ${i}`);
    const marker = bytes[i + 1];
    if (marker === 0xc0 || marker === 0xc2) {
      return { height: view.getUint16(i + 5), width: view.getUint16(i + 7) };
    }
    i += 2 + view.getUint16(i + 2);
  }
  throw new Error("JPEG has no SOF marker");
}

/** One pixel of a JPEG, decoded by ImageMagick (an independent decoder). */
async function jpegPixel(bytes: Uint8Array, px: number, py: number): Promise<Rgb> {
  const path = await Deno.makeTempFile({ suffix: ".jpg" });
  try {
    await Deno.writeFile(path, bytes);
    const text = await x("convert", path, "-crop", `1x1+${px}+${py}`, "-depth", "8", "txt:-");
    return parseColour(`#${/#([0-9a-f]{6})/i.exec(text)![1]}`);
  } finally {
    await Deno.remove(path);
  }
}

Deno.test({
  name:
    "screen tools report the X server's size, pointer and pixels, and zoom needs a window screenshot first",
  ignore,
  async fn(t) {
    const env = desktopEnv();
    await using driver = await startTestDriver();
    await using app = await startFixture(env, {
      title: "Screen tools fixture",
      x: 600,
      y: 200,
      swatch: "#e0a21b",
    });
    const box = await windowBox(app.xid);
    const swatch = app.widgets.swatch;
    const swatchCentre = { x: box.x + swatch.x + swatch.width / 2, y: box.y + swatch.y + swatch.height / 2 };
    await x("xdotool", "windowactivate", "--sync", String(app.xid));
    await waitFor("the swatch on screen", async () => {
      const seen = await screenPixel(swatchCentre.x, swatchCentre.y);
      return sameColour(seen, parseColour(app.swatch)) ? seen : null;
    });

    const dimensions = /dimensions:\s+(\d+)x(\d+) pixels/.exec(await x("xdpyinfo"));
    assert.ok(dimensions, "xdpyinfo prints the screen dimensions");
    const screen = { width: Number(dimensions[1]), height: Number(dimensions[2]) };

    await t.step("get_screen_size is the size xdpyinfo reports", async () => {
      const size = await driver.ok("get_screen_size");
      assert.deepEqual({ width: size.width, height: size.height }, screen);
      assert.equal(size.scale_factor, 1);
    });

    await t.step("get_cursor_position follows the pointer xdotool moves", async () => {
      for (const [px, py] of [[123, 456], [1017, 77]]) {
        await x("xdotool", "mousemove", "--sync", String(px), String(py));
        const location = /x:(\d+) y:(\d+)/.exec(await x("xdotool", "getmouselocation"))!;
        assert.deepEqual([Number(location[1]), Number(location[2])], [px, py], "xdotool agrees");
        const cursor = await driver.ok("get_cursor_position");
        assert.deepEqual([cursor.x, cursor.y], [px, py]);
        assert.equal(cursor.available, true);
      }
    });

    await t.step("get_desktop_state's PNG is the whole screen and shows the swatch where it is", async () => {
      const result = await driver.call("get_desktop_state");
      const image = pngOf(result);
      assert.deepEqual({ width: image.width, height: image.height }, screen);
      const colour = parseColour(app.swatch);
      assert.ok(sameColour(pixelAt(image, swatchCentre.x, swatchCentre.y), colour), "swatch centre");
      assert.ok(
        sameColour(pixelAt(image, box.x + swatch.x + 2, box.y + swatch.y + 2), colour),
        "swatch corner",
      );
      assert.ok(
        !sameColour(pixelAt(image, box.x + swatch.x - 3, swatchCentre.y), colour),
        "left of the swatch",
      );
      // Anywhere else, what ImageMagick reads from the X server.
      for (
        const [px, py] of [[box.x + 20, box.y + 20], [box.x + box.width - 5, box.y + box.height - 5], [5, 5]]
      ) {
        assert.deepEqual(pixelAt(image, px, py), await screenPixel(px, py), `pixel (${px}, ${py})`);
      }
      const listed = (result.structuredContent!.windows as Structured[]).find((w) => w.window_id === app.xid);
      assert.equal(listed?.pid, app.pid);
    });

    await t.step("get_accessibility_tree lists the fixture's window and its process", async () => {
      const overview = await driver.ok("get_accessibility_tree");
      const window = (overview.windows as Structured[]).find((w) => w.window_id === app.xid);
      assert.ok(window, "the fixture window is listed");
      assert.equal(window.pid, app.pid);
      assert.equal(window.title, app.title);
      assert.deepEqual([window.x, window.y, window.width, window.height], [
        box.x,
        box.y,
        box.width,
        box.height,
      ]);
      const comm = (await Deno.readTextFile(`/proc/${app.pid}/comm`)).trim();
      const process = (overview.processes as Structured[]).find((p) => p.pid === app.pid);
      assert.equal(process?.name, comm, "the process name is /proc's comm");
    });

    await t.step("zoom is refused before a get_window_state of the window in the same session", async () => {
      const region = { window_id: app.xid, x1: 10, y1: 10, x2: 100, y2: 60, session: "zoom-fresh" };
      await driver.fails("zoom", region, "screenshot_context_missing");
      // A screenshot in another session does not count.
      await driver.ok("get_window_state", { pid: app.pid, window_id: app.xid, session: "zoom-other" });
      await driver.fails("zoom", region, "screenshot_context_missing");
    });

    await t.step("zoom after get_window_state returns a padded JPEG of the region", async () => {
      await driver.ok("get_window_state", { pid: app.pid, window_id: app.xid, session: "zoom-fresh" });
      const result = await driver.call("zoom", {
        window_id: app.xid,
        pid: app.pid,
        x1: swatch.x,
        y1: swatch.y,
        x2: swatch.x + swatch.width,
        y2: swatch.y + swatch.height,
        session: "zoom-fresh",
      });
      const jpeg = imageBytes(result, "image/jpeg");
      const size = jpegSize(jpeg);
      // 20% padding each side of a 120x40 region, at native scale.
      assert.deepEqual(size, {
        width: Math.ceil(swatch.width * 1.4),
        height: Math.ceil(swatch.height * 1.4),
      });
      const colour = parseColour(app.swatch);
      const centre = await jpegPixel(jpeg, size.width / 2, size.height / 2);
      assert.ok(sameColour(centre, colour, 12), `JPEG centre ${centre} is the swatch ${colour}`);
      const padding = await jpegPixel(jpeg, size.width - 3, size.height / 2);
      assert.ok(!sameColour(padding, colour, 40), `JPEG padding ${padding} is not the swatch`);

      // A strip as wide as the window: the padded crop (clipped to the window) is scaled to 500 wide.
      const strip = jpegSize(imageBytes(
        await driver.call("zoom", {
          window_id: app.xid,
          x1: 0,
          y1: 100,
          x2: box.width,
          y2: 200,
          session: "zoom-fresh",
        }),
        "image/jpeg",
      ));
      assert.equal(strip.width, 500);
      assert.ok(
        Math.abs(strip.height - Math.round(140 * 500 / box.width)) <= 1,
        `strip height ${strip.height}`,
      );
      // The whole window: 500 wide (its padded crop is clipped to the window), aspect ratio kept.
      const whole = jpegSize(imageBytes(
        await driver.call("zoom", {
          window_id: app.xid,
          x1: 0,
          y1: 0,
          x2: box.width,
          y2: box.height,
          session: "zoom-fresh",
        }),
        "image/jpeg",
      ));
      assert.deepEqual(whole, { width: 500, height: Math.round(box.height * 500 / box.width) });
      // A tall, narrow column is under 500 wide: it keeps its native scale however tall it is.
      const column = jpegSize(imageBytes(
        await driver.call("zoom", {
          window_id: app.xid,
          x1: 100,
          y1: 0,
          x2: 200,
          y2: box.height,
          session: "zoom-fresh",
        }),
        "image/jpeg",
      ));
      assert.deepEqual(
        column,
        { width: 140, height: box.height },
        "a 100 px column plus 20% padding each side",
      );
    });
  },
});
