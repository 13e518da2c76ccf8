/**
 * `cua-driver mcp` started on a display where nothing listens: it still answers
 * initialize, tools/list, health_report and check_permissions (the tools that explain the
 * problem), refuses desktop tools with `display_unavailable` and the remedy, and uses the
 * display on the first call after an X server appears there.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { denoEnv } from "../_helpers/driver.ts";
import { type Json, McpLines, startXvfb } from "../_helpers/mcp_lines.ts";

const ignore = ignoreWithoutDesktop();

Deno.test({
  name: "mcp server on a dead display answers the diagnostic tools and connects once the display appears",
  ignore,
  async fn() {
    // A display number nobody uses: Xvfb picks a free one, then it goes away.
    const probe = await startXvfb("640x480");
    const n = probe.display;
    probe.child.kill("SIGTERM");
    await probe.child.status;
    await Deno.remove(`/tmp/.X11-unix/X${n}`).catch(() => {});
    await Deno.remove(`/tmp/.X${n}-lock`).catch(() => {});

    const env = denoEnv({
      DISPLAY: `:${n}`,
      CUA_DRIVER_CONFIG_DIR: await Deno.makeTempDir({ prefix: "cua-test-config-" }),
    });
    let xvfb: Awaited<ReturnType<typeof startXvfb>> | null = null;
    try {
      for (const desktop of ["system", "auto"]) {
        await using mcp = new McpLines(env, ["--desktop", desktop]);
        await mcp.initialize();
        const list = await mcp.request("tools/list", {});
        assert.ok(list.result.tools.some((t: Json) => t.name === "click"), "tools/list answers");

        const health = (await mcp.call("health_report", {})).structuredContent;
        assert.equal(health.overall, "failed");
        const display = health.checks.find((c: Json) => c.name === "display");
        assert.equal(display.status, "fail");
        assert.match(display.message, new RegExp(`:${n}`), "names the display");
        assert.ok(display.hint, "says what to do");

        const permissions = await mcp.call("check_permissions", {});
        const displayCheck = permissions.structuredContent.checks.find((c: Json) => c.name === "display");
        assert.equal(displayCheck.ok, false);
        assert.match(displayCheck.detail, new RegExp(`DISPLAY=:${n}`));
        assert.ok(displayCheck.remedy);

        for (const tool of ["get_screen_size", "list_windows", "get_desktop_state"]) {
          const error = await mcp.fails(tool, {}, "display_unavailable");
          assert.match(error.hint, /keeps running/, `${tool}: says a retry can work`);
        }
        assert.equal((await mcp.call("get_config", {})).isError, undefined, "configuration works");
        const { code } = await mcp.close();
        assert.equal(code, 0);
      }

      await using mcp = new McpLines(env, ["--desktop", "system"]);
      await mcp.initialize();
      await mcp.fails("get_screen_size", {}, "display_unavailable");
      xvfb = await startXvfb("1024x768", n);
      const size = await mcp.call("get_screen_size", {});
      assert.equal(size.isError, undefined, JSON.stringify(size.structuredContent));
      assert.deepEqual([size.structuredContent.width, size.structuredContent.height], [1024, 768]);
      const moved = await new Deno.Command("xdotool", {
        args: ["mousemove", "--sync", "300", "200"],
        env: { DISPLAY: `:${n}` },
        stdout: "null",
        stderr: "null",
      }).output();
      assert.ok(moved.success, "xdotool moved the pointer on the new server");
      const cursor = (await mcp.call("get_cursor_position", {})).structuredContent;
      assert.deepEqual([cursor.x, cursor.y], [300, 200], "the pointer of the server that appeared");
      const health = (await mcp.call("health_report", { include: ["display"] })).structuredContent;
      assert.equal(health.checks.find((c: Json) => c.name === "display").status, "pass");
      const { code, stderr } = await mcp.close();
      assert.equal(code, 0, stderr);
    } finally {
      if (xvfb) {
        xvfb.child.kill("SIGTERM");
        await xvfb.child.status;
      }
      await Deno.remove(env.CUA_DRIVER_CONFIG_DIR, { recursive: true });
    }
  },
});
