/**
 * A one-shot CLI call with DISPLAY set but no session bus address (an SSH shell that exported
 * DISPLAY): the search for the display's buses reads every process of the user, so it waits for the
 * first call that needs accessibility. A screen call answers without it (the X server's own size);
 * a tree call finds the bus and reads the fixture app's own widgets.
 */
import assert from "node:assert/strict";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverEnv, runDriver } from "../_helpers/driver.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { x } from "../_helpers/x11_probe.ts";

const ignore = ignoreWithoutDesktop() || Deno.build.os !== "linux";
const SEARCH_LOG = /desktop auto: using /;

/** The test desktop's variables without any bus address. */
function withoutBus(): Record<string, string> {
  const env = driverEnv();
  delete env.DBUS_SESSION_BUS_ADDRESS;
  delete env.AT_SPI_BUS_ADDRESS;
  return env;
}

Deno.test({
  name: "one-shot calls on a DISPLAY without a bus address look for the bus only when they use it",
  ignore,
  async fn() {
    const app = await startFixture(driverEnv(), { title: "No bus address" });
    try {
      const env = withoutBus();
      const size = await runDriver(["get_screen_size"], { env });
      assert.equal(size.code, 0, size.stderr);
      const dimensions = /dimensions:\s+(\d+)x(\d+) pixels/.exec(await x("xdpyinfo"))!;
      const screen = JSON.parse(size.stdout);
      assert.deepEqual([screen.width, screen.height], [Number(dimensions[1]), Number(dimensions[2])]);
      assert.doesNotMatch(size.stderr, SEARCH_LOG, "no bus search for a call that needs no bus");

      const args = JSON.stringify({ pid: app.pid, window_id: app.xid, include_screenshot: false });
      const state = await runDriver(["get_window_state", args], { env });
      assert.equal(state.code, 0, state.stderr);
      assert.match(state.stderr, SEARCH_LOG, "the tree call looked for the bus");
      const labels = (JSON.parse(state.stdout).elements as { label: string }[]).map((e) => e.label);
      for (const widget of Object.keys(app.widgets).filter((name) => name.startsWith("btn-"))) {
        assert.ok(labels.includes(widget), `${widget} in ${labels.join(", ")}`);
      }
    } finally {
      await app.stop();
    }
  },
});
