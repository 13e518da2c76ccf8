/**
 * A foreground click on a button scrolled out of its view (btn-far, below the 60 rows of
 * the fixture's scroll-tall) first brings it into view, then clicks it, and says so: the
 * fixture's own journal counts the click and shows the view scrolled.
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { describeResult, startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";
import { x } from "../_helpers/x11_probe.ts";

Deno.test({
  name: "a foreground click on a button scrolled out of view scrolls it into view first",
  ignore: ignoreWithoutDesktop(),
  async fn() {
    const env = desktopEnv();
    await using driver = await startTestDriver();
    await using app = await startFixture(env, { title: "Scrolled out", x: 30, y: 30 });
    await using front = await startFixture(env, { title: "Scrolled out front", x: 700, y: 30 });
    await x("xdotool", "windowactivate", "--sync", String(front.xid));
    // Off-screen rows fold into a hidden group; a query lists what it matches.
    const state = await driver.ok("get_window_state", { pid: app.pid, window_id: app.xid, query: "btn-far" });
    const far = (state.elements as Structured[]).find((e) => e.label === "btn-far");
    assert.ok(far, "the snapshot lists btn-far");
    assert.equal((await app.readJournal()).at(-1)!.scroll_offset, 0, "btn-far starts out of view");

    const result = await driver.call("click", {
      element_token: far.element_token,
      delivery_mode: "foreground",
    });
    assert.notEqual(result.isError, true, describeResult(result));
    const clicked = await app.waitFor((e) => e.far_clicks === 1);
    assert.ok(Number(clicked.scroll_offset) > 0, "the view scrolled to the button");
    assert.match(describeResult(result), /scrolled .*into view/);
  },
});
