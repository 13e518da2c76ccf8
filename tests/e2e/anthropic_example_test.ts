/**
 * `examples/anthropic_computer_toolset.ts`: the Anthropic SDK's abstract computer toolset with
 * cua-driver behind it (`cua-driver mcp --tools anthropic` over stdio), driven the way the SDK's
 * runner drives it, `tool_use` block in, `tool_result` block out. A left_click at a screenshot
 * pixel lands on the GTK3 fixture (its journal), and its result carries the SDK's acknowledgment
 * and then the driver's line; a point outside the screen comes back as an `is_error` result in the
 * driver's fixed phrase; the screenshot is an image block of the session's size; typing passes the
 * SDK's confirm hook.
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverArgs, driverEnv } from "../_helpers/driver.ts";
import { type JournalEntry, startFixture } from "../_helpers/fixture_app.ts";
import { waitFor, windowBox, x } from "../_helpers/x11_probe.ts";
import { CuaDriverComputerToolset } from "../../examples/anthropic_computer_toolset.ts";
import { decodePng } from "../../src/lib/image/png.ts";
import { fromBase64 } from "../../src/kernel/result.ts";
import { shotSizeFor } from "../../tools/_shared/session_screen.ts";
import { PHRASES } from "../../tools/anthropic/_phrases.ts";

const ignore = ignoreWithoutDesktop();

// deno-lint-ignore no-explicit-any
type Block = any;

Deno.test({
  name:
    "examples/anthropic_computer_toolset: the SDK's computer toolset drives the desktop through cua-driver",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using app = await startFixture(desktopEnv(), { x: 80, y: 70 });
    const confirmed: string[] = [];
    const computer = await CuaDriverComputerToolset.connect({
      command: Deno.execPath(),
      args: driverArgs(),
      env: driverEnv({ CUA_DRIVER_DESKTOP: "system" }),
      confirm: (ctx) => {
        confirmed.push(ctx.member);
        return true;
      },
    });
    try {
      let id = 0;
      const run = (name: string, input: Record<string, unknown>): Promise<Block> =>
        computer.toolResult(
          { type: "tool_use", id: `toolu_${++id}`, name, input, toolset_name: "computer" } as never,
        );
      const root = await x("xwininfo", "-root");
      const [rw, rh] = [Number(/Width:\s+(\d+)/.exec(root)![1]), Number(/Height:\s+(\d+)/.exec(root)![1])];
      const shot = shotSizeFor(rw, rh);

      assert.equal((await computer.served()).length, 17);
      assert.match(computer.instructions() ?? "", /model vendor's computer tools/);

      const screenshot = await run("screenshot", {});
      assert.equal(screenshot.is_error, undefined);
      const image = screenshot.content.find((b: Block) => b.type === "image");
      const png = decodePng(fromBase64(image.source.data));
      assert.deepEqual([png.width, png.height], [shot.width, shot.height]);

      const origin = await windowBox(app.xid);
      const w = app.widgets["btn-increment"];
      const coordinate = [
        Math.floor((origin.x + w.x + w.width / 2) * shot.width / rw),
        Math.floor((origin.y + w.y + w.height / 2) * shot.height / rh),
      ];
      const counter = ((await app.readJournal()).at(-1) as JournalEntry).counter as number;
      const click = await run("left_click", { coordinate });
      assert.equal(click.is_error, undefined, JSON.stringify(click));
      assert.equal(click.content[0].text, "Clicked.");
      assert.match(click.content[1].text, /^Effect: (confirmed|unverifiable) \(/);
      await waitFor("the counter", async () => {
        const last = (await app.readJournal()).at(-1) as JournalEntry;
        return last.counter === counter + 1 ? last : null;
      });

      const outside = await run("left_click", { coordinate: [shot.width + 10, 5] });
      assert.equal(outside.is_error, true);
      assert.equal(JSON.stringify(outside.content).includes(PHRASES.coordinate_out_of_bounds), true);

      const typed = await run("type", { text: "x" });
      assert.equal(typed.is_error, undefined, JSON.stringify(typed));
      assert.deepEqual(confirmed, ["screenshot", "left_click", "left_click", "type"]);
    } finally {
      await computer.close();
    }
  },
});
