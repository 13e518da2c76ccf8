/**
 * X11Windows.get without the stacking order (`{ zIndex: false }`, what get_window_state's
 * window check asks for) reads the same window as the full lookup, judged against xwininfo and
 * the fixture's own pid and title, and leaves only zIndex out.
 */
import assert from "node:assert/strict";
import { XConnection } from "../../src/backends/linux/x11/connection.ts";
import { X11Windows } from "../../src/backends/linux/windows.ts";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";

/** The window's client area in root coordinates, from xwininfo (an independent reader). */
async function xwininfo(xid: number): Promise<{ x: number; y: number; width: number; height: number }> {
  const out = await new Deno.Command("xwininfo", { args: ["-id", String(xid)] }).output();
  assert.ok(out.success, "xwininfo reads the window");
  const text = new TextDecoder().decode(out.stdout);
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(-?\\d+)`).exec(text)![1]);
  return {
    x: field("Absolute upper-left X"),
    y: field("Absolute upper-left Y"),
    width: field("Width"),
    height: field("Height"),
  };
}

Deno.test({
  name: "X11Windows.get without zIndex reads the same window as the full lookup, minus its stacking place",
  ignore: ignoreWithoutDesktop(),
  async fn() {
    await using app = await startFixture(desktopEnv(), { title: "CuaLookup GTK3" });
    using connection = XConnection.open();
    const windows = new X11Windows(() => connection);
    const full = await windows.get(app.xid);
    const light = await windows.get(app.xid, { zIndex: false });
    assert.ok(full && light, "the window exists");
    assert.equal(typeof full.zIndex, "number", "the full lookup places the window in the stacking order");
    assert.equal(light.zIndex, null, "the light lookup leaves the stacking order out");
    assert.deepEqual({ ...light, zIndex: full.zIndex }, full, "every other field is the same");
    assert.equal(light.pid, app.pid, "the fixture's own pid");
    assert.equal(light.title, app.title, "the fixture's own title");
    assert.deepEqual(light.bounds, await xwininfo(app.xid), "xwininfo's geometry");
    assert.equal(await windows.get(0x7ffffff, { zIndex: false }), null, "a window that does not exist");
  },
});
