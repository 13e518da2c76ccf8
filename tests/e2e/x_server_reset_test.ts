/**
 * An X server that resets when its last client leaves (Xvfb without `-noreset`) refuses
 * connections for a moment while it does; opening the display right after another client
 * closed must still succeed (the driver's own desktop discovery closes its probe just
 * before the back end opens the display).
 */
import assert from "node:assert/strict";
import { XConnection } from "../../src/backends/linux/x11/connection.ts";
import { startXvfb } from "../_helpers/mcp_lines.ts";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";

Deno.test({
  name: "the display opens while Xvfb resets after its last client left, every time",
  ignore: ignoreWithoutDesktop(),
  async fn() {
    const { child, display } = await startXvfb("800x600");
    try {
      const name = `:${display}`;
      for (let round = 0; round < 12; round++) {
        // The only client leaves: the server starts its reset now.
        XConnection.open(name).close();
        using connection = XConnection.open(name);
        const probe = await new Deno.Command("xdpyinfo", { args: ["-display", name] }).output();
        assert.ok(probe.success, "the server is up (xdpyinfo)");
        const dimensions = /dimensions:\s+(\d+)x(\d+) pixels/.exec(new TextDecoder().decode(probe.stdout));
        assert.deepEqual(
          [connection.screenSize().width, connection.screenSize().height],
          [Number(dimensions![1]), Number(dimensions![2])],
          `round ${round}`,
        );
      }
    } finally {
      // SIGTERM: Xvfb removes its socket and lock file, which a killed one leaves behind for every
      // later `--desktop auto` on this machine to probe.
      child.kill("SIGTERM");
      await child.status;
      await Deno.remove(`/tmp/.X11-unix/X${display}`).catch(() => {});
      await Deno.remove(`/tmp/.X${display}-lock`).catch(() => {});
    }
  },
});

Deno.test({
  name: "a display whose server crashed (its lock file left behind) is refused",
  ignore: ignoreWithoutDesktop(),
  async fn() {
    const { child, display } = await startXvfb("800x600");
    child.kill("SIGKILL");
    await child.status;
    try {
      // The crashed server's lock file still names its pid, which no longer exists.
      await Deno.stat(`/tmp/.X${display}-lock`);
      assert.throws(() => XConnection.open(`:${display}`), /Cannot open X display/);
    } finally {
      await Deno.remove(`/tmp/.X11-unix/X${display}`).catch(() => {});
      await Deno.remove(`/tmp/.X${display}-lock`).catch(() => {});
    }
  },
});
