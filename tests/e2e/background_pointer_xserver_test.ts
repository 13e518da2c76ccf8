/**
 * The X server survives what background pointer input leaves behind: the target app killed
 * in the middle of a background drag, 20 times over (text view, slider, drawing area), and
 * Xvfb exits cleanly afterwards. Run on a private desktop so that a crash cannot take the
 * shared one down; judged by Xvfb itself (it answers a fresh client after every kill, and
 * prints no fatal error on the way down) and by the app's journal (it saw the press).
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { EmbeddedDesktop } from "../../src/backends/linux/desktop/embedded_desktop.ts";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverArgs, driverEnv } from "../_helpers/driver.ts";
import { type JournalEntry, startFixture } from "../_helpers/fixture_app.ts";

const ROUNDS = 20;

/** Widgets to drag in, and the journal entry that shows the app took the press. */
const TARGETS: { widget: string; pressed: (entry: JournalEntry) => boolean }[] = [
  { widget: "txt-notes", pressed: (e) => e.event === "focus" && e.focus === "txt-notes" },
  { widget: "sld-value", pressed: (e) => e.event === "slider" },
  { widget: "drag-area", pressed: (e) => e.event === "drag_press" },
];

/** What Xvfb prints when it crashes or aborts. */
const XVFB_FATAL = /Fatal server error|Caught signal|double free|Segmentation fault|corruption/;

async function serverAnswers(env: Readonly<Record<string, string>>): Promise<boolean> {
  const probe = await new Deno.Command("xdpyinfo", { env: { ...env }, stdout: "null", stderr: "null" })
    .output();
  return probe.success;
}

Deno.test({
  name: "background drag: killing the target mid-drag 20 times leaves Xvfb running, and it exits cleanly",
  ignore: ignoreWithoutDesktop(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const xvfbLines: string[] = [];
    const desktop = await EmbeddedDesktop.start({
      handleSignals: false,
      log: (line) => void (line.startsWith("[Xvfb]") && xvfbLines.push(line)),
    });
    const env = { ...driverEnv(), ...desktop.env };
    const client = new Client({ name: "cua-drag-kill", version: "1.0.0" });
    try {
      await client.connect(
        new StdioClientTransport({
          command: Deno.execPath(),
          args: driverArgs("mcp", "--desktop", "system"),
          env,
          stderr: "ignore",
        }),
      );
      const call = async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })) as {
          isError?: boolean;
          structuredContent?: Record<string, unknown>;
        };
      let survived = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const { widget, pressed } = TARGETS[round % TARGETS.length];
        await using app = await startFixture(desktop.env, { title: `Drag kill ${round}`, x: 40, y: 40 });
        const state = await call("get_window_state", { pid: app.pid, window_id: app.xid });
        assert.notEqual(state.isError, true, JSON.stringify(state.structuredContent));
        const scale = state.structuredContent!.screenshot_scale as number;
        const box = app.widgets[widget];
        const at = (dx: number, dy: number) => ({
          x: Math.round((box.x + dx) * scale),
          y: Math.round((box.y + dy) * scale),
        });
        const from = at(6, Math.round(box.height / 2)), to = at(box.width - 6, Math.round(box.height / 2));
        const drag = call("drag", {
          target: { kind: "window", pid: app.pid, window_id: app.xid },
          from_x: from.x,
          from_y: from.y,
          to_x: to.x,
          to_y: to.y,
          duration_ms: 3000,
          steps: 100,
        });
        await app.waitFor(pressed, 10_000);
        Deno.kill(app.pid, "SIGKILL");
        await app.status;
        await drag;
        assert.ok(
          await serverAnswers(desktop.env),
          `round ${round} (${widget}): Xvfb died: ${xvfbLines.join("\n")}`,
        );
        survived++;
      }
      assert.equal(survived, ROUNDS);
      assert.deepEqual(xvfbLines.filter((l) => XVFB_FATAL.test(l)), []);
    } finally {
      await client.close().catch(() => {});
      await desktop.stop();
    }
    // The driver removed its masters on exit; Xvfb went down on SIGTERM without an abort.
    assert.deepEqual(xvfbLines.filter((l) => XVFB_FATAL.test(l)), [], xvfbLines.join("\n"));
  },
});
