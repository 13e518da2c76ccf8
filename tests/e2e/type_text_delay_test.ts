/**
 * type_text's delay_ms holds on the element route too (issue 24): given an element_token and a
 * delay, the text arrives as keystrokes, one character at a time, and not as one accessibility
 * insert. Judged by the fixture's own journal: each change of its entry adds one character,
 * and the changes are spread over at least one delay.
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";

const DELAY_MS = 200;

Deno.test({
  name: "type_text with delay_ms into an element_token types one character per delay",
  ignore: ignoreWithoutDesktop(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using app = await startFixture(desktopEnv(), { title: "Paced typing 24" });
    const driver = await startTestDriver();
    try {
      const state = await driver.ok("get_window_state", {
        pid: app.pid,
        window_id: app.xid,
        include_screenshot: false,
      });
      const entry = (state.elements as Structured[]).find((e) => e.label === "txt-input");
      assert.ok(entry, "txt-input is in the tree");
      const result = await driver.ok("type_text", {
        element_token: entry.element_token,
        text: "wxyz",
        delay_ms: DELAY_MS,
      });
      await app.waitFor((e) => e.event === "text" && e.mirror === "wxyz", 10_000);
      const changes = (await app.readJournal()).filter((e) => e.event === "text");
      assert.deepEqual(
        changes.map((e) => e.mirror),
        ["w", "wx", "wxy", "wxyz"],
        `one character per change: ${JSON.stringify(result).slice(0, 400)}`,
      );
      const span = Number(changes.at(-1)!.t) - Number(changes[0].t);
      assert.ok(span >= DELAY_MS, `the characters came ${span} ms apart in all`);
    } finally {
      await driver.close();
    }
  },
});
