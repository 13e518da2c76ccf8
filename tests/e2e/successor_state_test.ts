/**
 * `return_state` on action tools, end to end. A click (by element token) that opens a dialog
 * returns, with `return_state: "diff"`, the dialog's window and its elements with fresh tokens, and
 * clicking one of those tokens lands (the fixture's journal). Typing into the GTK3 fixture's entry
 * with a diff returns the entry among the changed elements with its new value, the diff is a
 * fraction of a full observation, and `"full"` lists every element of the window with tokens
 * that resolve.
 *
 * @module
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { spawnJournalProcess } from "../_helpers/journal_process.ts";
import { describeResult, startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";
import { waitFor } from "../_helpers/x11_probe.ts";

const ignore = ignoreWithoutDesktop();
const DIALOG_FIXTURE = fileURLToPath(new URL("../fixtures/gtk3_dialog_harness.py", import.meta.url));

async function windowOf(driver: Awaited<ReturnType<typeof startTestDriver>>, pid: number): Promise<number> {
  return await waitFor("the fixture's window", async () => {
    const windows = (await driver.ok("list_windows")).windows as Structured[];
    return windows.find((w) => w.pid === pid && w.is_on_screen)?.window_id ?? null;
  }, 10_000);
}

Deno.test({
  name: "return_state diff: a click that opens a dialog returns its elements, and their tokens work",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using driver = await startTestDriver();
    const app = await spawnJournalProcess(DIALOG_FIXTURE, [], desktopEnv());
    try {
      const ready = await app.ready(15_000, "Dialog fixture");
      const pid = Number(ready.pid);
      const windowId = await windowOf(driver, pid);
      const state = await waitFor("the open button", async () => {
        const read = await driver.ok("get_window_state", {
          pid,
          window_id: windowId,
          include_screenshot: false,
        });
        return (read.elements as Structured[]).some((e) => e.label === "btn-open-dialog") ? read : null;
      }, 10_000);
      const open = (state.elements as Structured[]).find((e) => e.label === "btn-open-dialog")!;

      const result = await driver.call("click", { element_token: open.element_token, return_state: "diff" });
      assert.equal(result.isError, undefined, describeResult(result));
      await waitFor(
        "the dialog",
        async () => (await app.readJournal()).some((e) => e.event === "dialog_opened") ? true : null,
      );
      const successor = (result.structuredContent as Structured).successor_state as Structured;
      assert.equal(successor.mode, "diff");
      assert.equal(successor.base_snapshot_id, state.snapshot_id);
      const opened = successor.opened_windows as Structured[];
      assert.ok(opened?.length === 1, `one opened window: ${JSON.stringify(successor).slice(0, 400)}`);
      const yes = (opened[0].elements as Structured[]).find((e) => e.label === "dlg-yes");
      assert.ok(yes, `the dialog's elements: ${JSON.stringify(opened[0].elements).slice(0, 400)}`);
      assert.ok(String(yes.element_token).startsWith(`${opened[0].snapshot_id}:`));
      assert.ok((opened[0].elements as Structured[]).some((e) => e.label === "dlg-no"));

      const answer = await driver.call("click", { element_token: yes.element_token });
      assert.equal(answer.isError, undefined, describeResult(answer));
      const response = await waitFor(
        "the dialog's answer",
        async () => (await app.readJournal()).find((e) => e.event === "dialog_response") ?? null,
      );
      assert.equal(response.answer, "yes");

      const bad = await driver.call("click", { element_token: open.element_token, return_state: "some" });
      assert.equal((bad.structuredContent as Structured).code, "invalid_arguments");
      assert.equal((bad.structuredContent as Structured).field, "return_state");
    } finally {
      await app.stop();
    }
  },
});

Deno.test({
  name: "return_state diff on the GTK3 fixture: the typed entry changed, a fraction of a full observation",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using driver = await startTestDriver();
    await using app = await startFixture(desktopEnv());
    const windowId = await windowOf(driver, app.pid);
    const state = await driver.ok("get_window_state", {
      pid: app.pid,
      window_id: windowId,
      include_screenshot: false,
    });
    const entry = (state.elements as Structured[]).find((e) => e.label === "txt-input")!;
    const result = await driver.call("type_text", {
      element_token: entry.element_token,
      text: "diffed",
      return_state: "diff",
    });
    assert.equal(result.isError, undefined, describeResult(result));
    await app.waitFor((e) => e.mirror === "diffed");
    const diff = (result.structuredContent as Structured).successor_state as Structured;
    const changed = (diff.changed as Structured[]).find((e) =>
      e.label === "txt-input" || e.value === "diffed"
    );
    assert.ok(changed, `the entry changed: ${JSON.stringify(diff).slice(0, 600)}`);
    assert.equal(changed.value, "diffed");
    const diffBytes = JSON.stringify(diff).length, fullBytes = JSON.stringify(state).length;
    assert.ok(diffBytes * 5 < fullBytes, `diff ${diffBytes} bytes, full observation ${fullBytes} bytes`);

    // The changed entry's fresh token works: a set_value through it lands.
    const set = await driver.call("set_value", { element_token: changed.element_token, value: "again" });
    assert.equal(set.isError, undefined, describeResult(set));
    await app.waitFor((e) => e.mirror === "again");

    const full = await driver.call("press_key", {
      target: { kind: "window", pid: app.pid, window_id: windowId },
      key: "End",
      return_state: "full",
    });
    assert.equal(full.isError, undefined, describeResult(full));
    const all = (full.structuredContent as Structured).successor_state as Structured;
    assert.equal(all.mode, "full");
    assert.equal((all.elements as Structured[]).length, all.element_count);
    assert.ok(all.element_count >= state.element_count - 2, `${all.element_count} vs ${state.element_count}`);

    const desktop = await driver.call("move_cursor", {
      target: { kind: "desktop" },
      x: 5,
      y: 5,
      return_state: "diff",
    });
    assert.equal(((desktop.structuredContent as Structured).successor_state as Structured).available, false);
  },
});
