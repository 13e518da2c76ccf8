/**
 * A driver killed mid-gesture leaves nothing pressed once a new driver has attached (issue 24):
 * SIGKILL during a foreground drag (the user's `Virtual core XTEST pointer` holds button 1),
 * during a background drag (the dead driver's private master holds it) and during a foreground
 * type_text of capitals (the `Virtual core XTEST keyboard` holds Shift), then a new driver
 * starts. Judged by `xinput query-state`, run by the test from another client: every button and
 * key of every device is up; before the restart it shows the press, so the test can fail. The new
 * driver's health_report says what it released.
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverEnv } from "../_helpers/driver.ts";
import { type FixtureApp, startFixture } from "../_helpers/fixture_app.ts";
import { McpLines } from "../_helpers/mcp_lines.ts";
import { waitFor, x } from "../_helpers/x11_probe.ts";

const ignore = ignoreWithoutDesktop() || Deno.build.os !== "linux";

/** What `xinput query-state` shows down on each device, by device name (an independent X client). */
async function heldEverywhere(): Promise<Record<string, string[]>> {
  const held: Record<string, string[]> = {};
  const ids = (await x("xinput", "list", "--id-only")).split("\n").map((l) => l.trim()).filter(Boolean);
  for (const id of ids) {
    const state = await x("xinput", "query-state", id).catch(() => "");
    const down = [...state.matchAll(/(button|key)\[(\d+)\]=down/g)].map((m) => `${m[1]} ${m[2]}`);
    if (down.length) held[`${id} ${(await x("xinput", "list", "--name-only", id)).trim()}`] = down;
  }
  return held;
}

/** Starts a driver over MCP stdio and observes the fixture (pixel targets need the screenshot's scale). */
async function startDriver(app: FixtureApp): Promise<{ driver: McpLines; scale: number }> {
  const driver = new McpLines(driverEnv(), ["--desktop", "system"]);
  await driver.initialize();
  const state = await driver.call("get_window_state", { pid: app.pid, window_id: app.xid });
  const scale = state.structuredContent?.screenshot_scale;
  assert.equal(typeof scale, "number", JSON.stringify(state).slice(0, 400));
  return { driver, scale };
}

/** Kills the driver with SIGKILL once `pressed` shows on some device, mid-call. */
async function killMidCall(
  driver: McpLines,
  tool: string,
  args: Record<string, unknown>,
  pressed: (held: Record<string, string[]>) => boolean,
): Promise<Record<string, string[]>> {
  const call = driver.call(tool, args).then((answer) => ({ answer }), (error) => ({ error }));
  const held = await waitFor(`${tool} to press`, async () => {
    const now = await heldEverywhere();
    if (pressed(now)) return now;
    const ended = await Promise.race([call, Promise.resolve(null)]);
    if (ended) throw new Error(`${tool} ended before pressing: ${JSON.stringify(ended).slice(0, 400)}`);
    return null;
  }, 20_000);
  Deno.kill(driver.pid, "SIGKILL");
  await call;
  await driver.close();
  return held;
}

Deno.test({
  name: "a driver killed mid-drag or mid-typing leaves every button and key up once a new driver attaches",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using app = await startFixture(desktopEnv(), { title: "Held input 24", x: 80, y: 80 });
    assert.deepEqual(await heldEverywhere(), {}, "nothing is held before the test");
    const swatch = app.widgets["swatch"] ?? app.widgets["btn-increment"];
    const entry = app.widgets["txt-input"];
    /** A slow drag across the swatch (10 s), so the kill lands while button 1 is down. */
    const dragAcross = (mode: string, scale: number) => ({
      pid: app.pid,
      window_id: app.xid,
      from_x: Math.round((swatch.x + 4) * scale),
      from_y: Math.round((swatch.y + 4) * scale),
      to_x: Math.round((swatch.x + swatch.width - 4) * scale),
      to_y: Math.round((swatch.y + swatch.height - 4) * scale),
      duration_ms: 10_000,
      steps: 200,
      delivery_mode: mode,
    });
    const cases = [
      {
        label: "foreground drag",
        tool: "drag",
        args: (scale: number) => dragAcross("foreground", scale),
        pressed: (held: Record<string, string[]>) =>
          Object.entries(held).some(([name, down]) =>
            /Virtual core XTEST pointer/.test(name) && down.includes("button 1")
          ),
      },
      {
        label: "background drag",
        tool: "drag",
        args: (scale: number) => dragAcross("background", scale),
        pressed: (held: Record<string, string[]>) =>
          Object.entries(held).some(([name, down]) => /cua-agent-/.test(name) && down.includes("button 1")),
      },
      {
        label: "foreground type_text",
        tool: "type_text",
        args: (scale: number) => ({
          target: { kind: "window", pid: app.pid, window_id: app.xid },
          x: Math.round((entry.x + entry.width / 2) * scale),
          y: Math.round((entry.y + entry.height / 2) * scale),
          text: "HELD".repeat(10),
          delay_ms: 500,
          delivery_mode: "foreground",
        }),
        pressed: (held: Record<string, string[]>) =>
          Object.entries(held).some(([name, down]) =>
            /Virtual core XTEST keyboard/.test(name) && down.length > 0
          ),
      },
    ];
    for (const scenario of cases) {
      await t.step(scenario.label, async () => {
        const first = await startDriver(app);
        const held = await killMidCall(
          first.driver,
          scenario.tool,
          scenario.args(first.scale),
          scenario.pressed,
        );
        assert.ok(scenario.pressed(held), `${scenario.label}: the press showed before the kill`);
        // Still held with no driver attached: the kill, not a release, is what the next check sees.
        assert.ok(scenario.pressed(await heldEverywhere()), `${scenario.label}: still held after the kill`);
        await using second = new McpLines(driverEnv(), ["--desktop", "system"]);
        await second.initialize();
        const health = await second.call("health_report", { include: ["input"] });
        assert.deepEqual(await heldEverywhere(), {}, `${scenario.label}: every button and key is up`);
        const input = health.structuredContent.checks.find((c: { name: string }) => c.name === "input");
        const reset = input?.data?.held_input_reset;
        assert.ok(
          reset && reset.released.length > 0,
          `${scenario.label}: ${JSON.stringify(health).slice(0, 1500)}`,
        );
        assert.match(input.message, /released \d+ button/);
      });
    }
  },
});
