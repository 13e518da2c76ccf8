/**
 * One FFI error path end to end: a native library that cannot be opened (its override
 * variable points at nothing) answers `library_unavailable` naming the library and the
 * package that provides it, for a tool call and for the driver's start-up, and the app
 * the call aimed at received nothing.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverEnv, runDriver } from "../_helpers/driver.ts";
import { startFixture } from "../_helpers/fixture_app.ts";

const ignore = ignoreWithoutDesktop();

function isolatedEnv(extra: Record<string, string>): Record<string, string> {
  const socketDir = Deno.makeTempDirSync({ prefix: "cua-test-sock-" });
  return driverEnv({ CUA_DRIVER_SOCKET: join(socketDir, "none.sock"), ...extra });
}

Deno.test({
  name: "library_unavailable names the library and its package when libXtst cannot be opened",
  ignore,
  async fn() {
    await using app = await startFixture(desktopEnv(), { title: "Library fixture", x: 80, y: 80 });
    const env = isolatedEnv({ CUA_DRIVER_LIB_XTST: "/nonexistent/libXtst.so.6" });
    const args = JSON.stringify({ pid: app.pid, window_id: app.xid, key: "a" });
    const { code, stdout, stderr } = await runDriver(["press_key", args, "--desktop", "system"], { env });
    assert.equal(code, 1, `${stdout}\n${stderr}`);
    const envelope = JSON.parse(stderr.slice(stderr.indexOf("{")));
    assert.equal(envelope.code, "library_unavailable", stderr);
    assert.equal(envelope.library, "Xtst");
    assert.equal(envelope.package, "libxtst6");
    assert.deepEqual(envelope.tried, ["/nonexistent/libXtst.so.6"]);
    assert.match(envelope.hint, /libxtst6/);
    // Nothing reached the app: it counted no key press.
    const journal = await app.readJournal();
    assert.ok(
      journal.length > 0 && journal.every((e) => e.key_presses === 0),
      JSON.stringify(journal.at(-1)),
    );
  },
});

Deno.test({
  name:
    "library_unavailable without libX11: the CLI says which package provides it; screen queries need none",
  ignore,
  async fn() {
    const env = isolatedEnv({ CUA_DRIVER_LIB_X11: "/nonexistent/libX11.so.6" });
    const { code, stderr } = await runDriver(["list_windows", "{}", "--desktop", "system"], { env });
    assert.equal(code, 1, stderr);
    assert.match(stderr, /Cannot load X11 \(package libx11-6\)/);
    assert.match(stderr, /install the libx11-6 package, or set CUA_DRIVER_LIB_X11/);
    // A one-shot call asks the screen's size and the pointer over the X protocol itself (x11/wire.ts):
    // no libX11.
    const size = await runDriver(["get_screen_size", "{}", "--desktop", "system"], { env });
    assert.equal(size.code, 0, size.stderr);
    const info = await new Deno.Command("xdpyinfo", { stdout: "piped" }).output();
    const [, width, height] = /dimensions:\s+(\d+)x(\d+) pixels/.exec(new TextDecoder().decode(info.stdout))!;
    assert.deepEqual(
      [JSON.parse(size.stdout).width, JSON.parse(size.stdout).height],
      [Number(width), Number(height)],
    );
    const pointer = await runDriver(["get_cursor_position", "{}", "--desktop", "system"], { env });
    assert.equal(pointer.code, 0, pointer.stderr);
    const location = new TextDecoder().decode(
      (await new Deno.Command("xdotool", { args: ["getmouselocation"], stdout: "piped" }).output()).stdout,
    );
    const [, px, py] = /x:(\d+) y:(\d+)/.exec(location)!;
    assert.deepEqual([JSON.parse(pointer.stdout).x, JSON.parse(pointer.stdout).y], [Number(px), Number(py)]);
  },
});
