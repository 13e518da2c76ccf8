import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";

/** Clicks with xdotool, relative to `xid`: test-only, the driver never uses xdotool. */
async function xdotoolClick(env: Record<string, string>, xid: number, x: number, y: number): Promise<void> {
  const args = [
    "mousemove",
    "--window",
    String(xid),
    String(Math.round(x)),
    String(Math.round(y)),
    "click",
    "1",
  ];
  const output = await new Deno.Command("xdotool", { args, env, stdin: "null" }).output();
  assert.ok(output.success, `xdotool failed: ${new TextDecoder().decode(output.stderr)}`);
}

Deno.test({
  name: "gtk3 fixture journals counter=1 after a click on btn-increment",
  ignore: ignoreWithoutDesktop(),
  async fn() {
    const env = desktopEnv();
    await using app = await startFixture(env, { x: 40, y: 40 });
    assert.ok(app.xid > 0, "ready line carries the toplevel's X window id");
    assert.equal(app.title, "CuaTestHarness GTK3");
    const button = app.widgets["btn-increment"];
    assert.ok(
      button !== undefined && button.width > 0 && button.height > 0,
      "ready line carries widget geometry",
    );

    await xdotoolClick(env, app.xid, button.x + button.width / 2, button.y + button.height / 2);
    const entry = await app.waitFor((e) => e.event === "click" && e.counter === 1);
    assert.equal(entry.last_action, "increment");

    const journal = await app.readJournal();
    assert.equal(journal.filter((e) => e.event === "ready").length, 1);
    assert.equal(journal.at(-1)?.counter, 1);
  },
});

Deno.test({
  name: "gtk3 fixture writes an exit line and exits 0 on SIGTERM",
  ignore: ignoreWithoutDesktop(),
  async fn() {
    await using app = await startFixture(desktopEnv());
    Deno.kill(app.pid, "SIGTERM");
    await app.waitFor((e) => e.event === "exit");
    assert.equal((await app.status).code, 0);
    await app.stop();
    await app.stop();
    assert.throws(() => Deno.statSync(`/proc/${app.pid}/cmdline`), "the app process is gone");
  },
});

Deno.test({
  name: "gtk3 fixture journals typed text, a hotkey and a drag",
  ignore: ignoreWithoutDesktop(),
  async fn() {
    const env = desktopEnv();
    await using app = await startFixture(env, { x: 40, y: 40 });
    const xdotool = async (...args: string[]) => {
      const output = await new Deno.Command("xdotool", { args, env, stdin: "null" }).output();
      assert.ok(output.success, `xdotool ${args.join(" ")}: ${new TextDecoder().decode(output.stderr)}`);
    };
    const input = app.widgets["txt-input"];
    await xdotoolClick(env, app.xid, input.x + input.width / 2, input.y + input.height / 2);
    await app.waitFor((e) => e.focus === "txt-input");
    await xdotool("type", "--delay", "10", "hi");
    await app.waitFor((e) => e.mirror === "hi");
    await xdotool("key", "ctrl+shift+k");
    await app.waitFor((e) => e.last_hotkey === "ctrl+shift+k" && e.hotkeys === 1);

    const area = app.widgets["drag-area"];
    const at = (dx: number, dy: number) => [String(area.x + dx), String(area.y + dy)];
    await xdotool("mousemove", "--window", String(app.xid), ...at(10, 10), "mousedown", "1");
    await xdotool("mousemove", "--window", String(app.xid), ...at(60, 20));
    await xdotool("mousemove", "--window", String(app.xid), ...at(110, 30), "mouseup", "1");
    const drag = await app.waitFor((e) => e.event === "drag");
    assert.equal(drag.drag, "from 10,10 to 110,30");
    assert.equal(drag.drag_distance, 102);
  },
});
