/**
 * The legacy `page` tool acts on the DOM without focusing the browser window: while its
 * click_element, insert_text and type_keystrokes run on a real Chromium behind a GTK3
 * window that holds the focus, an independent X client (focus_watch.py) sees no
 * `_NET_ACTIVE_WINDOW` change and no core focus event on either window, and the page's
 * own journal (read over a DevTools socket of the test's own) shows the effect.
 *
 * @module
 */
import assert from "node:assert/strict";
import { evalIn } from "../_helpers/cdp_oracle.ts";
import { desktopEnv, e2eRequired, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { describeFocusEvents, watchFocus } from "../_helpers/focus_watch.ts";
import { describeResult, startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";
import { startWebFixture } from "../_helpers/web_fixture.ts";
import { activeWindow, x } from "../_helpers/x11_probe.ts";

const hasChromium = await Deno.stat("/usr/bin/chromium").then(() => true, () => false);
const SESSION = "page-focus";

Deno.test({
  name: "legacy page click_element, insert_text and type_keystrokes never focus the browser window",
  ignore: ignoreWithoutDesktop() || (!hasChromium && !e2eRequired()),
  async fn(t) {
    const env = desktopEnv();
    Deno.env.set("CUA_DRIVER_ENABLE_LEGACY_PAGE_MUTATIONS", "1");
    await using site = startWebFixture();
    await using driver = await startTestDriver({ permissionMode: "unrestricted" });
    const ok = async (name: string, args: Record<string, unknown>): Promise<Structured> => {
      const result = await driver.call(name, { session: SESSION, ...args });
      assert.equal(result.isError, undefined, `${name}: ${describeResult(result)}`);
      assert.notEqual(result.structuredContent?.status, "refused", `${name}: ${describeResult(result)}`);
      return result.structuredContent as Structured;
    };
    try {
      const prepared = await ok("browser_prepare", { allow_launch: true, profile: { mode: "isolated_new" } });
      const { pid, window_id: windowId } = prepared;
      const port = prepared.endpoint.port as number;
      const bound = await ok("get_browser_state", { pid, window_id: windowId });
      await ok("browser_navigate", {
        target_id: bound.target_id,
        tab_id: bound.tabs[0].tab_id,
        url: site.origin,
      });
      await using front = await startFixture(env, { title: "Page focus front", x: 40, y: 40 });
      await x("xdotool", "windowactivate", "--sync", String(front.xid));
      assert.equal(await activeWindow(), front.xid);
      const page = { pid, window_id: windowId, target_url_contains: site.origin };
      const journal = async () =>
        (await evalIn(port, site.origin, "JSON.stringify(window.__journal)")) as string;
      const value = (id: string) =>
        evalIn(port, site.origin, `document.getElementById(${JSON.stringify(id)}).value`);

      const cases: [string, Record<string, unknown>, () => Promise<boolean>][] = [
        ["insert_text", { selector: "#name", text: "abc" }, async () => (await value("name")) === "abc"],
        [
          "type_keystrokes",
          { selector: "#comment", text: "xy" },
          async () => (await value("comment")) === "xy",
        ],
        [
          "click_element",
          { selector: "#agree" },
          async () => /"kind":"agree","checked":true/.test(await journal()),
        ],
      ];
      for (const [action, args, landed] of cases) {
        await t.step(`${action} lands in the page and leaves the focus on the front window`, async () => {
          await x("xdotool", "windowactivate", "--sync", String(front.xid));
          const watch = await watchFocus(env, [front.xid, windowId]);
          const result = await ok("page", { action, ...page, ...args });
          if (action === "click_element") assert.equal(result.input_route, "dom_event");
          const events = await watch.stop();
          assert.ok(await landed(), `${action} changed the page`);
          assert.deepEqual(events, [], `no activation or focus change: ${describeFocusEvents(events)}`);
          assert.equal(await activeWindow(), front.xid);
        });
      }
    } finally {
      await driver.call("end_session", { session: SESSION }).catch(() => {});
      Deno.env.delete("CUA_DRIVER_ENABLE_LEGACY_PAGE_MUTATIONS");
    }
  },
});
