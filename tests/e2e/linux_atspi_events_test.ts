/**
 * AT-SPI event watches against the GTK3 fixture: a watch of the application wakes when the
 * application reports a state or text change, which is what lets a read-back answer as soon
 * as the change happened instead of at the next poll (see
 * src/backends/linux/atspi/event_watch.ts). The state after each wake is read back from the
 * app, and the fixture's own journal confirms it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv, e2eRequired, hasDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { AtspiAccessibility } from "../../src/backends/linux/accessibility.ts";
import type { AxNode } from "../../src/ports/accessibility.ts";

const ignore = Deno.build.os !== "linux" ||
  (!(hasDesktop() && Deno.env.get("DBUS_SESSION_BUS_ADDRESS")) && !e2eRequired());
const LIMITS = { maxNodes: 5000, maxDepth: 64 };
/** A fail-safe only: each wait ends at the app's event. */
const EVENT_TIMEOUT_MS = 20_000;

Deno.test({
  name: "AtspiAccessibility.watch wakes on the app's own state and text events",
  ignore,
  async fn(t) {
    const env = desktopEnv();
    await using app = await startFixture(env, { title: "Event Watch", x: 60, y: 60 });
    const ax = new AtspiAccessibility({
      windowBounds: () => Promise.resolve(null),
      sessionBusAddress: env.DBUS_SESSION_BUS_ADDRESS,
    });
    try {
      const find = async (name: string): Promise<AxNode> => {
        // The app registers its accessible objects right after its window maps.
        for (let attempt = 0;; attempt++) {
          const tree = await ax.tree(app.pid, app.xid, LIMITS, AbortSignal.timeout(15_000));
          const node = tree.nodes.find((n) => n.name === name);
          if (node) return node;
          if (attempt === 50) throw new Error(`no ${name} in ${tree.nodes.length} nodes: ${tree.error}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };

      await t.step("a check box toggled through its action wakes the watch", async () => {
        const box = await find("chk-agree");
        const before = (await ax.state(box.ref)).checked;
        const watch = await ax.watch(box.ref);
        try {
          assert.equal(await ax.doAction(box.ref, "click"), true);
          for (;;) {
            assert.equal(await watch.next(EVENT_TIMEOUT_MS), true, "an event came before the fail-safe");
            if ((await ax.state(box.ref)).checked !== before) break;
          }
          // The app's own StateChanged for this box says what it now is (a read-back can end on it).
          while (watch.reportedStates?.get("checked") !== !before) {
            assert.equal(await watch.next(EVENT_TIMEOUT_MS), true, "the box's StateChanged came");
          }
        } finally {
          watch.close();
        }
        await app.waitFor((e) => e.agreed === !before);
      });

      await t.step("a text inserted into an entry wakes the watch", async () => {
        const entry = await find("txt-input");
        const watch = await ax.watch(entry.ref);
        try {
          assert.equal(await ax.setText(entry.ref, "watched"), true);
          for (;;) {
            assert.equal(await watch.next(EVENT_TIMEOUT_MS), true, "an event came before the fail-safe");
            if (await ax.text(entry.ref) === "watched") break;
          }
        } finally {
          watch.close();
        }
        await app.waitFor((e) => e.mirror === "watched");
      });

      await t.step("a closed watch answers at once and stays closed", async () => {
        const box = await find("chk-agree");
        const watch = await ax.watch(box.ref);
        watch.close();
        watch.close();
        assert.equal(await watch.next(EVENT_TIMEOUT_MS), false);
      });
    } finally {
      await ax.close();
    }
  },
});
