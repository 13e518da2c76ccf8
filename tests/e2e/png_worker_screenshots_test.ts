/**
 * Screenshots encoded on the PNG encoder Worker from BGRX captures show what the X server
 * shows, and closing the runtime terminates the Worker.
 *
 * @module
 */
import assert from "node:assert/strict";
import { pngWorkerState, startPngWorker } from "../../src/lib/image/png_worker.ts";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { pngOf, startTestDriver } from "../_helpers/in_process_driver.ts";
import {
  parseColour,
  pixelAt,
  sameColour,
  screenPixel,
  waitFor,
  windowBox,
  x,
} from "../_helpers/x11_probe.ts";

Deno.test({
  name: "PNG encoder Worker screenshots match the X server's pixels, and runtime close terminates it",
  ignore: ignoreWithoutDesktop(),
  async fn() {
    const env = desktopEnv();
    const driver = await startTestDriver();
    try {
      await using app = await startFixture(env, {
        title: "PNG worker fixture",
        x: 420,
        y: 160,
        swatch: "#1b6fe0",
      });
      const box = await windowBox(app.xid);
      const swatch = app.widgets.swatch;
      const centre = { x: swatch.x + swatch.width / 2, y: swatch.y + swatch.height / 2 };
      await x("xdotool", "windowactivate", "--sync", String(app.xid));
      await waitFor("the swatch on screen", async () => {
        const seen = await screenPixel(box.x + centre.x, box.y + centre.y);
        return sameColour(seen, parseColour(app.swatch)) ? seen : null;
      });
      assert.equal(await startPngWorker(), true, "the encoder Worker starts");

      // The desktop, whole, against ImageMagick's read of the root window (R and B differ in
      // the swatch, so a BGRX channel mix-up cannot pass).
      const desktop = pngOf(await driver.call("get_desktop_state"));
      assert.equal(pngWorkerState(), "ready", "encoded on the Worker");
      const raw = await new Deno.Command("import", {
        args: ["-window", "root", "-depth", "8", "rgba:-"],
        env,
        stdout: "piped",
        stderr: "null",
      }).output();
      assert.equal(raw.stdout.length, desktop.data.length, "same size as ImageMagick's read");
      let differing = 0;
      for (let i = 0; i < raw.stdout.length; i += 4) {
        if (
          raw.stdout[i] !== desktop.data[i] || raw.stdout[i + 1] !== desktop.data[i + 1] ||
          raw.stdout[i + 2] !== desktop.data[i + 2]
        ) differing++;
      }
      assert.ok(differing < raw.stdout.length / 4 / 1000, `${differing} pixels differ from ImageMagick's`);
      assert.ok(sameColour(pixelAt(desktop, box.x + centre.x, box.y + centre.y), parseColour(app.swatch)));

      // The window, from get_window_state.
      const window = pngOf(
        await driver.call("get_window_state", { pid: app.pid, window_id: app.xid }),
      );
      assert.deepEqual({ width: window.width, height: window.height }, {
        width: box.width,
        height: box.height,
      });
      assert.ok(
        sameColour(pixelAt(window, centre.x, centre.y), parseColour(app.swatch)),
        "swatch in the window",
      );
    } finally {
      await driver.close();
    }
    assert.equal(pngWorkerState(), "none", "runtime close terminated the Worker");
  },
});
