/**
 * A one-shot CLI call without DISPLAY starts a private desktop that ends with the call, and
 * every app on it with it (tests/e2e/embedded_desktop_test.ts checks that stop() leaves no
 * trace): the call says so on stderr and names serve and call.
 */
import assert from "node:assert/strict";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { denoEnv, runDriver } from "../_helpers/driver.ts";

Deno.test({
  name: "a one-shot call without DISPLAY says its private desktop ends with it and points to serve and call",
  ignore: ignoreWithoutDesktop(),
  async fn() {
    const config = await Deno.makeTempDir({ prefix: "cua-test-config-" });
    try {
      const { code, stderr } = await runDriver(["get_screen_size"], {
        env: denoEnv({ CUA_DRIVER_CONFIG_DIR: config }),
      });
      assert.equal(code, 0, stderr);
      const display = /started embedded desktop :(\d+)/.exec(stderr)?.[1];
      assert.ok(display, stderr);
      assert.match(stderr, /ends with this call/);
      assert.match(stderr, /cua-driver serve &.*cua-driver call <tool>/);
    } finally {
      await Deno.remove(config, { recursive: true }).catch(() => {});
    }
  },
});
