/**
 * Attaching over SSH: a user desktop runs (Xvfb that needs its cookie, a session bus at
 * `$XDG_RUNTIME_DIR/bus`, AT-SPI, openbox, the fixture app), and the driver is started
 * with no DISPLAY, no XAUTHORITY and no bus address, as in an SSH shell. `--desktop auto`
 * and `--desktop system` find that desktop, list the app's window, read its tree and
 * click its button (judged by the app's journal).
 *
 * @module
 */
import assert from "node:assert/strict";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { denoEnv } from "../_helpers/driver.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { type Json, McpLines } from "../_helpers/mcp_lines.ts";
import { UserDesktop } from "../_helpers/user_desktop.ts";

const ignore = ignoreWithoutDesktop();

Deno.test({
  name: "desktop auto and system find a logged-in user desktop from an SSH-like shell and act on it",
  ignore,
  async fn() {
    await using desktop = await UserDesktop.start();
    await using app = await startFixture(desktop.env, { title: "CuaTestHarness user desktop" });
    // An SSH shell: the user's HOME and XDG_RUNTIME_DIR, nothing of the X session.
    const env = denoEnv({
      HOME: desktop.home,
      XDG_RUNTIME_DIR: desktop.runtimeDir,
      CUA_DRIVER_CONFIG_DIR: await Deno.makeTempDir({ prefix: "cua-test-config-" }),
    });
    try {
      let clicks = 0;
      for (const mode of ["auto", "system"]) {
        await using mcp = new McpLines(env, ["--desktop", mode]);
        await mcp.initialize();
        const listed = await mcp.call("list_windows", {});
        const windows = listed.structuredContent.windows as Json[];
        assert.ok(
          windows.some((w) => w.window_id === app.xid && w.pid === app.pid),
          `${mode}: the app's window is listed: ${JSON.stringify(windows).slice(0, 400)}`,
        );
        const health = (await mcp.call("health_report", { include: ["display", "accessibility"] }))
          .structuredContent;
        const display = health.checks.find((c: Json) => c.name === "display");
        assert.equal(display.data.display, desktop.display, `${mode}: drives ${desktop.display}`);
        assert.equal(display.data.embedded, false, `${mode}: not a private desktop`);

        const state = await mcp.call("get_window_state", {
          pid: app.pid,
          window_id: app.xid,
          include_screenshot: false,
        });
        const elements = state.structuredContent.elements as Json[];
        const button = elements.find((e) => e.label === "btn-increment");
        assert.ok(button, `${mode}: the tree has the app's button (AT-SPI reached through the found buses)`);
        const clicked = await mcp.call("click", { element_token: button.element_token });
        assert.equal(clicked.isError, undefined, JSON.stringify(clicked.structuredContent));
        clicks++;
        await app.waitFor((e) => e.counter === clicks);

        const permissions = (await mcp.call("check_permissions", {})).structuredContent;
        const atspi = permissions.checks.find((c: Json) => c.name === "atspi");
        assert.equal(atspi.ok, true, `${mode}: ${atspi.detail} ${atspi.remedy}`);
        const { code, stderr } = await mcp.close();
        assert.equal(code, 0, stderr);
        assert.match(
          stderr,
          new RegExp(`desktop ${mode}: attaching to ${desktop.display}`),
          "says what it chose",
        );
        assert.match(stderr, /AT-SPI bus is the one the session bus/, "and why");
      }
    } finally {
      await Deno.remove(env.CUA_DRIVER_CONFIG_DIR, { recursive: true });
    }
  },
});
