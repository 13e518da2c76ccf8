/**
 * Robustness of `cua-driver mcp` (a real stdio subprocess, raw JSON-RPC lines): every
 * bad input gets a clear structured answer and the very next call still works: malformed
 * JSON, wrong types, unknown tools, a window that vanished between calls, a dead pid,
 * and an X server that dies and comes back on the same display number.
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { denoEnv, driverEnv } from "../_helpers/driver.ts";
import { type Json, McpLines, startXvfb } from "../_helpers/mcp_lines.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { x } from "../_helpers/x11_probe.ts";

const ignore = ignoreWithoutDesktop();

async function screenSize(env: Record<string, string>): Promise<{ width: number; height: number }> {
  const text = await x("xdpyinfo", "-display", env.DISPLAY);
  const match = /dimensions:\s+(\d+)x(\d+) pixels/.exec(text)!;
  return { width: Number(match[1]), height: Number(match[2]) };
}

Deno.test({
  name: "mcp server answers each bad input with a structured error and keeps serving",
  ignore,
  async fn(t) {
    const env = driverEnv();
    const screen = await screenSize(desktopEnv());
    await using mcp = new McpLines(env);
    await mcp.initialize();
    const healthy = async () => {
      const size = await mcp.call("get_screen_size", {});
      assert.equal(size.isError, undefined);
      assert.deepEqual(
        { width: size.structuredContent.width, height: size.structuredContent.height },
        screen,
      );
    };

    await t.step("malformed JSON-RPC gets protocol errors", async () => {
      for (
        const line of ["{not json", '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"get_']
      ) {
        assert.deepEqual((await mcp.raw(line)).error, { code: -32700, message: "Parse error" });
        await healthy();
      }
      assert.equal((await mcp.raw(new Uint8Array([0xff, 0xfe, 0x7b]))).error.code, -32700, "invalid UTF-8");
      await healthy();
      assert.equal((await mcp.raw('"just a string"')).error.code, -32600);
      assert.equal((await mcp.raw('{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}')).error.code, -32600);
      assert.equal((await mcp.request("tools/call", { name: 42 })).error.code, -32602);
      assert.equal((await mcp.request("no/such/method", {})).error.code, -32601);
      await healthy();
    });

    await t.step("wrong argument types name the field", async () => {
      const cases: [string, unknown, string][] = [
        ["get_window_state", { pid: "nope", window_id: 1 }, "pid"],
        ["get_window_state", { pid: 1.5, window_id: 4 }, "pid"],
        ["get_window_state", { pid: 4, window_id: -3 }, "window_id"],
        ["list_windows", [], "(root)"],
        ["list_windows", { on_screen_only: "yes" }, "on_screen_only"],
        ["list_windows", { bogus: true }, "bogus"],
        ["clipboard_write", { text: "x".repeat((1 << 20) + 1) }, "text"],
        ["clipboard_write", { image_path: "relative.png" }, "image_path"],
        ["zoom", { window_id: 5, x1: "a", y1: 0, x2: 1, y2: 1 }, "x1"],
      ];
      for (const [name, args, field] of cases) {
        const error = await mcp.fails(name, args, "invalid_arguments");
        assert.equal(error.field, field, `${name} ${JSON.stringify(args).slice(0, 80)}`);
        assert.ok(error.hint, "a hint");
        await healthy();
      }
    });

    await t.step("an unknown tool is unknown_tool with a suggestion", async () => {
      const error = await mcp.fails("get_windw_state", {}, "unknown_tool");
      assert.match(error.hint, /get_window_state/);
      await healthy();
    });

    await t.step("a window that vanished between calls is window_target_not_found", async () => {
      const fixture = await startFixture(env, { title: "Bad input fixture", x: 900, y: 100 });
      const args = { pid: fixture.pid, window_id: fixture.xid, include_screenshot: false };
      const before = await mcp.call("get_window_state", args);
      assert.match(before.content[0].text, /counter=0/);
      await fixture.stop();
      await mcp.fails("get_window_state", args, "window_target_not_found");
      await mcp.fails(
        "bring_to_front",
        { pid: fixture.pid, window_id: fixture.xid },
        "window_target_not_found",
      );
      const list = await mcp.call("list_windows", {});
      assert.ok(!list.structuredContent.windows.some((w: Json) => w.window_id === fixture.xid));
      await mcp.fails("get_window_state", { pid: 1, window_id: 2 ** 40 }, "window_target_not_found");
      await healthy();
    });

    await t.step("a dead pid is refused by every tool that takes one", async () => {
      const gone = new Deno.Command("true").spawn();
      await gone.status;
      await mcp.fails("kill_app", { pid: gone.pid }, "process_not_found");
      await mcp.fails("bring_to_front", { pid: gone.pid }, "window_target_not_found");
      const list = await mcp.call("list_windows", { pid: gone.pid });
      assert.deepEqual(list.structuredContent.windows, []);
      await healthy();
    });

    await t.step("other refusals: no screenshot context, unwritable output file", async () => {
      await mcp.fails("zoom", { window_id: 5, x1: 0, y1: 0, x2: 10, y2: 10 }, "screenshot_context_missing");
      const fixture = await startFixture(env, { title: "Bad input fixture 2", x: 900, y: 100 });
      try {
        await mcp.fails("get_window_state", {
          pid: fixture.pid,
          window_id: fixture.xid,
          screenshot_out_file: "/nonexistent-dir/shot.png",
        }, "file_error");
      } finally {
        await fixture.stop();
      }
      await healthy();
    });

    await t.step("after all that, tools/list answers and stdin EOF ends the process cleanly", async () => {
      const list = await mcp.request("tools/list", {});
      assert.ok(list.result.tools.length >= 15);
      const { code, stderr } = await mcp.close();
      assert.equal(code, 0, stderr);
      assert.doesNotMatch(stderr, /internal_error|Uncaught|panicked/);
    });
  },
});

Deno.test({
  name: "mcp server survives losing its X server and reconnects when one is back on the same display",
  ignore,
  async fn() {
    let xvfb = await startXvfb("800x600");
    const n = xvfb.display;
    try {
      const env = denoEnv({
        DISPLAY: `:${n}`,
        CUA_DRIVER_CONFIG_DIR: await Deno.makeTempDir({ prefix: "cua-test-config-" }),
      });
      await using mcp = new McpLines(env);
      await mcp.initialize();
      const size = async () => (await mcp.call("get_screen_size", {})).structuredContent;
      assert.deepEqual(await size(), { width: 800, height: 600, scale_factor: 1, display_id: "0" });

      xvfb.child.kill("SIGKILL");
      await xvfb.child.status;
      for (const tool of ["get_screen_size", "get_cursor_position", "list_windows", "get_desktop_state"]) {
        const error = await mcp.fails(tool, {}, "display_unavailable");
        assert.ok(error.hint, `${tool}: a hint`);
      }
      const list = await mcp.request("tools/list", {});
      assert.ok(list.result.tools.length >= 15, "still serving tools/list");

      // A crashed server leaves its socket and lock behind; a new one on :n replaces them.
      await Deno.remove(`/tmp/.X11-unix/X${n}`).catch(() => {});
      await Deno.remove(`/tmp/.X${n}-lock`).catch(() => {});
      xvfb = await startXvfb("1024x768", n);
      assert.deepEqual(
        await size(),
        { width: 1024, height: 768, scale_factor: 1, display_id: "0" },
        "reconnected",
      );
      assert.deepEqual((await mcp.call("list_windows", {})).structuredContent, { windows: [] });
      const moved = await new Deno.Command("xdotool", {
        args: ["mousemove", "--sync", "300", "200"],
        env: { DISPLAY: `:${n}` },
        stdout: "null",
        stderr: "null",
      }).output();
      assert.ok(moved.success, "xdotool moved the pointer on the new server");
      const cursor = (await mcp.call("get_cursor_position", {})).structuredContent;
      assert.deepEqual([cursor.x, cursor.y], [300, 200], "the pointer of the new server");
      const { code, stderr } = await mcp.close();
      assert.equal(code, 0, stderr);
      await Deno.remove(env.CUA_DRIVER_CONFIG_DIR, { recursive: true });
    } finally {
      try {
        xvfb.child.kill("SIGTERM");
      } catch {
        // Already gone.
      }
      await xvfb.child.status;
    }
  },
});
