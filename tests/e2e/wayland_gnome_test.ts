/**
 * GNOME's compositor (headless mutter) as the session: the driver names it, types through mutter's
 * RemoteDesktop D-Bus API into the focused window (judged by the GTK3 fixture's journal), and
 * refuses what a plain Wayland client cannot do there (no window list, no screencopy, no pointer,
 * no character outside mutter's keymap) with structured errors and the remedy, instead of an empty
 * list or a black screenshot. Skipped, with the reason, where mutter is not installed.
 *
 * @module
 */
import assert from "node:assert/strict";
import { denoEnv } from "../_helpers/driver.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { type Json, McpLines } from "../_helpers/mcp_lines.ts";

function unavailable(): string | null {
  try {
    Deno.statSync("/usr/bin/mutter");
    return null;
  } catch {
    return "/usr/bin/mutter is not installed (scripts/setup.sh installs it)";
  }
}
const why = unavailable();
if (why) console.error(`wayland_gnome_test: skipped: ${why}`);

Deno.test({
  name: "wayland (mutter): the GNOME session is named and what it lacks is refused with the remedy",
  ignore: why !== null,
  sanitizeResources: false,
  async fn() {
    const runtimeDir = await Deno.makeTempDir({ prefix: "cua-mutter-" });
    await Deno.chmod(runtimeDir, 0o700);
    const base = {
      PATH: "/usr/sbin:/usr/bin:/sbin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      XDG_RUNTIME_DIR: runtimeDir,
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${runtimeDir}/bus`,
    };
    const spawn = (program: string, args: string[]) =>
      new Deno.Command(program, { args, env: base, clearEnv: true, stdout: "null", stderr: "null" }).spawn();
    const bus = spawn("dbus-daemon", ["--session", `--address=${base.DBUS_SESSION_BUS_ADDRESS}`, "--nofork"]);
    let mutter: Deno.ChildProcess | null = null;
    try {
      const waitFor = async (path: string) => {
        const deadline = performance.now() + 30_000;
        while (!(await Deno.stat(path).then((s) => s.isSocket, () => false))) {
          if (performance.now() > deadline) throw new Error(`${path} did not appear`);
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      };
      await waitFor(`${runtimeDir}/bus`);
      mutter = spawn("mutter", [
        "--headless",
        "--wayland",
        "--no-x11",
        "--virtual-monitor",
        "1920x1080",
        "--wayland-display",
        "wayland-mutter",
      ]);
      await waitFor(`${runtimeDir}/wayland-mutter`);
      const env = denoEnv({ ...base, WAYLAND_DISPLAY: "wayland-mutter", CUA_DRIVER_CONFIG_DIR: runtimeDir });
      await using mcp = new McpLines(env, ["--desktop", "auto"]);
      await mcp.initialize();
      const health = (await mcp.call("health_report", { include: ["display", "capture", "input"] }))
        .structuredContent;
      const check = (name: string) => health.checks.find((c: Json) => c.name === name);
      assert.equal(check("display").data.family, "gnome", JSON.stringify(check("display")));
      assert.equal(check("display").data.session, "wayland");
      assert.equal(check("capture").status, "fail");
      assert.match(check("capture").hint, /ScreenCast/);
      assert.equal(check("input").status, "fail");
      assert.match(check("input").hint, /RemoteDesktop/);
      assert.notEqual(health.status, "ok");

      const listed = await mcp.fails("list_windows", {}, "unsupported_platform");
      assert.match(listed.message, /lists no windows/);
      await mcp.fails("get_desktop_state", {}, "unsupported_platform");
      // Keys go through mutter's RemoteDesktop to the focused window: the fixture's focused button.
      await using app = await startFixture({
        ...base,
        WAYLAND_DISPLAY: "wayland-mutter",
        DISPLAY: "",
        GDK_BACKEND: "wayland",
        NO_AT_BRIDGE: "1",
      }, { title: "GNOME fixture" });
      await app.waitFor((e) => e.focus === "btn-increment");
      const pressed = await mcp.call("press_key", { target: { kind: "desktop" }, key: "space" });
      assert.equal(pressed.isError, undefined, JSON.stringify(pressed.structuredContent));
      await app.waitFor((e) => e.counter === 1);
      const nonAscii = await mcp.fails(
        "type_text",
        { target: { kind: "desktop" }, text: "é" },
        "invalid_arguments",
      );
      assert.match(nonAscii.message, /nothing was sent/);

      const permissions = (await mcp.call("check_permissions", {})).structuredContent.checks as Json[];
      const capture = permissions.find((c) => c.name === "screen_capture");
      assert.equal(capture.ok, false);
      assert.match(capture.remedy, /ScreenCast/);
      const { code, stderr } = await mcp.close();
      assert.equal(code, 0, stderr);
      assert.match(stderr, /using Wayland session wayland-mutter \(mutter/);
    } finally {
      for (const child of [mutter, bus]) {
        if (!child) continue;
        try {
          child.kill("SIGTERM");
        } catch {
          // Already exited.
        }
        await child.status;
      }
      await Deno.remove(runtimeDir, { recursive: true }).catch(() => {});
    }
  },
});
