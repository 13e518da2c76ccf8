import assert from "node:assert/strict";
import { x11 } from "../../../../ffi/linux/x11.ts";
import { probeDisplay } from "./probe_x11.ts";

Deno.test({
  name: "probeDisplay says no X server listens on a local display whose socket does not exist",
  ignore: Deno.build.os !== "linux" || !x11.available(),
  fn() {
    const exists = (path: string) => {
      try {
        Deno.statSync(path);
        return true;
      } catch {
        return false;
      }
    };
    let number = 987;
    while (exists(`/tmp/.X11-unix/X${number}`) || exists(`/tmp/.X${number}-lock`)) number++;
    const probe = probeDisplay(`:${number}.0`);
    assert.equal(probe.connection, null);
    assert.equal(probe.check.ok, false);
    assert.equal(
      probe.check.detail,
      `No X server listens on DISPLAY=:${number}.0 (/tmp/.X11-unix/X${number} does not exist)`,
    );
  },
});
