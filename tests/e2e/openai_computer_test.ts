/**
 * `--tools openai` conformance on the GTK3 fixture: the registry serves exactly OpenAI's `computer`
 * tool; a batch of every action type (click, double_click, scroll, type, keypress, move, drag,
 * wait, screenshot) lands in order, judged by the fixture's journal and the X server's pointer,
 * and answers with a screenshot of the session's size; invalid shapes refuse the whole batch with
 * nothing run; a batch stops at its first failing action, says which, keeps what ran before it and
 * runs nothing after it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { type JournalEntry, startFixture } from "../_helpers/fixture_app.ts";
import { describeResult, pngOf, startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";
import { waitFor, windowBox, x } from "../_helpers/x11_probe.ts";
import { profileTools } from "../../tools/profiles.ts";
import { PHRASES } from "../../tools/anthropic/_phrases.ts";
import { shotSizeFor } from "../../tools/_shared/session_screen.ts";

const ignore = ignoreWithoutDesktop();

Deno.test({
  name: "openai profile: the computer tool runs action batches in order and stops at the first failure",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const tools = await profileTools("openai");
    await using driver = await startTestDriver({ tools, listing: { profile: "openai" } });
    await using app = await startFixture(desktopEnv(), { x: 70, y: 50 });
    const root = await x("xwininfo", "-root");
    const [rw, rh] = [Number(/Width:\s+(\d+)/.exec(root)![1]), Number(/Height:\s+(\d+)/.exec(root)![1])];
    const shot = shotSizeFor(rw, rh);
    const origin = await windowBox(app.xid);
    const at = (name: string, dx = 0): { x: number; y: number } => {
      const w = app.widgets[name];
      return {
        x: Math.floor((origin.x + w.x + Math.floor(w.width / 2) + dx) * shot.width / rw),
        y: Math.floor((origin.y + w.y + Math.floor(w.height / 2)) * shot.height / rh),
      };
    };
    const latest = async () => (await app.readJournal()).at(-1) as JournalEntry;
    const until = (what: string, test: (e: JournalEntry) => boolean) =>
      waitFor(what, async () => (test(await latest()) ? await latest() : null), 10_000);

    await t.step("tools/list is the computer tool alone", () => {
      assert.deepEqual(driver.list().map((tool) => tool.name), ["computer"]);
    });

    await t.step("a batch of every action lands in order and ends with a screenshot", async () => {
      const before = await latest();
      const result = await driver.call("computer", {
        actions: [
          { type: "click", button: "left", ...at("btn-increment") },
          { type: "double_click", ...at("btn-double") },
          { type: "click", ...at("txt-input") },
          { type: "type", text: "abc" },
          { type: "keypress", keys: ["BACKSPACE"] },
          { type: "keypress", keys: ["CTRL", "A"] },
          { type: "scroll", ...at("scroll-tall"), scroll_x: 0, scroll_y: 300 },
          { type: "drag", path: [at("drag-area", -40), at("drag-area"), at("drag-area", 40)] },
          { type: "move", ...at("btn-reset") },
          { type: "wait", duration: 50 },
          { type: "screenshot" },
        ],
      }, 60_000);
      assert.equal(result.isError, undefined, describeResult(result));
      const out = result.structuredContent as Structured;
      assert.equal(out.status, "completed");
      assert.equal(out.completed, 11);
      assert.deepEqual(out.steps.map((s: Structured) => s.type), [
        "click",
        "double_click",
        "click",
        "type",
        "keypress",
        "keypress",
        "scroll",
        "drag",
        "move",
        "wait",
        "screenshot",
      ]);
      const image = pngOf(result);
      assert.deepEqual([image.width, image.height], [shot.width, shot.height]);
      const after = await until(
        "every action's effect",
        (e) =>
          e.counter === (before.counter as number) + 1 &&
          e.double_clicks === (before.double_clicks as number) + 1 &&
          e.mirror === "ab" && e.last_hotkey === "ctrl+a" && (e.scroll_offset as number) > 0 &&
          e.drags === (before.drags as number) + 1,
      );
      assert.ok(after);
      const pointer = await x("xdotool", "getmouselocation");
      const target = at("btn-reset");
      assert.ok(
        Math.abs(Math.floor(Number(/x:(\d+)/.exec(pointer)![1]) * shot.width / rw) - target.x) <= 1,
        pointer,
      );
    });

    await t.step("a batch stops at its first failing action and says so", async () => {
      const counter = (await latest()).counter as number;
      const result = await driver.call("computer", {
        actions: [
          { type: "click", ...at("btn-increment") },
          { type: "click", x: shot.width + 5, y: 10 },
          { type: "click", ...at("btn-increment") },
        ],
      });
      assert.equal(result.isError, true);
      const out = result.structuredContent as Structured;
      assert.equal(out.status, "stopped");
      assert.equal(out.completed, 1);
      assert.deepEqual(out.failed, {
        index: 1,
        type: "click",
        code: "coordinate_out_of_bounds",
        message: PHRASES.coordinate_out_of_bounds,
      });
      assert.match(
        describeResult(result),
        /^Action 2 of 3 \(click\) failed: .* The actions after it were not run\./,
      );
      pngOf(result); // the screenshot after the batch is still there
      await until("the first click", (e) => e.counter === counter + 1);
      // Had the third click run, it would be in the journal before anything sent after the batch:
      // once a later click elsewhere has landed, the counter must still be counter + 1.
      const clicks = (await latest()).clicks as number;
      await driver.call("computer", { actions: [{ type: "click", ...at("btn-clicktarget") }] });
      const later = await until("a later click", (e) => e.clicks === clicks + 1);
      assert.equal(later.counter, counter + 1);
    });

    await t.step("invalid shapes refuse the whole batch with nothing run", async () => {
      for (
        const actions of [
          [],
          [{ type: "click", ...at("btn-increment") }, { type: "teleport" }],
          [{ type: "click", x: 1 }],
          [{ type: "keypress", keys: [] }],
          [{ type: "drag", path: [{ x: 1, y: 1 }] }],
        ]
      ) {
        const before = (await app.readJournal()).length;
        const result = await driver.call("computer", { actions });
        assert.equal(result.isError, true, JSON.stringify(actions));
        assert.equal((result.structuredContent as Structured).code, "invalid_arguments");
        assert.equal((await app.readJournal()).length, before);
      }
      const back = await driver.call("computer", {
        actions: [{ type: "click", button: "back", x: 5, y: 5 }],
      });
      assert.equal((back.structuredContent as Structured).failed.code, "unsupported_platform");
    });
  },
});
