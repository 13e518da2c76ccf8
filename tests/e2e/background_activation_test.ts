/**
 * Background keyboard input never activates or focuses anything, not even for a moment:
 * an independent client (focus_watch.py) listens for PropertyNotify on the root's
 * `_NET_ACTIVE_WINDOW` and for core FocusIn/FocusOut on both windows for the whole call,
 * while the fixture's own journal proves the keys landed.
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { describeFocusEvents, watchFocus } from "../_helpers/focus_watch.ts";
import { startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";
import { activeWindow, x } from "../_helpers/x11_probe.ts";

Deno.test({
  name: "background hotkey, press_key and type_text land without a transient activation or focus change",
  ignore: ignoreWithoutDesktop(),
  async fn(t) {
    const env = desktopEnv();
    await using driver = await startTestDriver();
    await using target = await startFixture(env, { title: "Activation target", x: 20, y: 20 });
    await using front = await startFixture(env, { title: "Activation front", x: 120, y: 60 });
    await x("xdotool", "windowactivate", "--sync", String(front.xid));
    assert.equal(await activeWindow(), front.xid);
    const win = { kind: "window", pid: target.pid, window_id: target.xid };

    const state = await driver.ok("get_window_state", { pid: target.pid, window_id: target.xid });
    const entry = (state.elements as Structured[]).find((e) => e.label === "txt-input");
    assert.ok(entry, "the snapshot lists txt-input");
    const cases: [string, Record<string, unknown>, (e: Record<string, unknown>) => boolean][] = [
      ["hotkey", { target: win, keys: ["ctrl", "shift", "k"] }, (e) => e.last_hotkey === "ctrl+shift+k"],
      ["press_key", { target: win, key: "End" }, (e) => e.last_key === "End"],
      ["type_text", { element_token: entry.element_token, text: "bg" }, (e) => e.mirror === "bg"],
    ];
    for (const [tool, args, landed] of cases) {
      await t.step(`${tool} leaves activation and focus alone throughout`, async () => {
        const count = (await target.readJournal()).length;
        const watch = await watchFocus(env, [target.xid, front.xid]);
        const result = await driver.call(tool, { delivery_mode: "background", ...args });
        const events = await watch.stop();
        assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
        const after = (await target.readJournal()).slice(count);
        assert.ok(after.some(landed), `${tool} landed in the target: ${JSON.stringify(after.at(-1))}`);
        assert.equal(watch.activeAtStart, front.xid);
        assert.deepEqual(
          events,
          [],
          `no activation or focus change during ${tool}: ${describeFocusEvents(events)}`,
        );
        assert.equal(await activeWindow(), front.xid);
      });
    }
  },
});
