import assert from "node:assert/strict";
import { DriverError } from "../../src/ports/errors.ts";
import { resolveDesktopPrograms } from "../../src/backends/linux/desktop/desktop_programs.ts";
import { processGroupMembers } from "../../src/backends/linux/desktop/desktop_process.ts";
import { EmbeddedDesktop } from "../../src/backends/linux/desktop/embedded_desktop.ts";
import { isAlive } from "../../src/backends/linux/os/proc_fs.ts";
import { e2eRequired } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";

/** The pids still running (a zombie waiting for its reaper counts as gone). */
async function alive(pids: readonly number[]): Promise<number[]> {
  const live = await Promise.all(pids.map((pid) => isAlive(pid)));
  return pids.filter((_, i) => live[i]);
}

function canStartDesktop(): boolean {
  if (Deno.build.os !== "linux") return false;
  try {
    resolveDesktopPrograms();
    return true;
  } catch {
    return false;
  }
}

const ignore = Deno.build.os !== "linux" || (!canStartDesktop() && !e2eRequired());

async function run(program: string, args: string[], env: Record<string, string>): Promise<string> {
  const output = await new Deno.Command(program, { args, env, stdin: "null" }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.ok(output.success, `${program} ${args.join(" ")} failed: ${stderr}`);
  return new TextDecoder().decode(output.stdout);
}

Deno.test({
  name: "EmbeddedDesktop runs Xvfb, openbox, a session bus and AT-SPI, and stop() removes every trace",
  ignore,
  async fn() {
    const desktop = await EmbeddedDesktop.start();
    const { display, env } = desktop;
    const pids = desktop.pids;
    try {
      assert.match(display, /^:\d+$/);
      assert.notEqual(display, Deno.env.get("DISPLAY"), "a second desktop, not the runner's");
      // Start-up time is a benchmark (scripts/bench_timing.ts).
      assert.ok(desktop.startupMs > 0, `start-up took ${desktop.startupMs} ms`);

      const info = await run("xdpyinfo", ["-display", display], env);
      assert.match(info, /dimensions:\s+1920x1080 pixels/);
      for (const extension of ["XTEST", "RANDR", "XInputExtension", "MIT-SHM"]) {
        assert.match(info, new RegExp(`^\\s+${extension}$`, "m"), `X extension ${extension}`);
      }

      const check = await run("xprop", ["-display", display, "-root", "_NET_SUPPORTING_WM_CHECK"], env);
      const wmWindow = /window id # (0x[0-9a-f]+)/.exec(check)?.[1];
      assert.ok(wmWindow, check);
      const wmName = await run("xprop", ["-display", display, "-id", wmWindow, "_NET_WM_NAME"], env);
      assert.match(wmName, /"Openbox"/);

      const owner = await run("dbus-send", [
        ...["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/"],
        ...["org.freedesktop.DBus.NameHasOwner", "string:org.a11y.Bus"],
      ], env);
      assert.match(owner, /boolean true/);

      await using app = await startFixture({ ...env }, { title: "CuaTestHarness second desktop" });
      assert.ok(app.xid > 0);
      assert.equal(app.title, "CuaTestHarness second desktop");
    } finally {
      await desktop.stop();
    }
    await desktop.stop();

    assert.deepEqual(await alive(pids), [], "no desktop process is left");
    assert.deepEqual(pids.flatMap(processGroupMembers), [], "no process is left in the desktop's groups");
    assert.throws(() => Deno.statSync(`/tmp/.X11-unix/X${display.slice(1)}`), "the X socket is gone");
    assert.throws(() => Deno.statSync(env.XDG_RUNTIME_DIR), "the temporary directory is gone");
  },
});

Deno.test({
  name: "EmbeddedDesktop honours width and height",
  ignore,
  async fn() {
    await using desktop = await EmbeddedDesktop.start({ width: 1280, height: 800, handleSignals: false });
    const info = await run("xdpyinfo", ["-display", desktop.display], desktop.env);
    assert.match(info, /dimensions:\s+1280x800 pixels/);
  },
});

Deno.test({
  name: "EmbeddedDesktop stops when its signal aborts, and refuses to start with an aborted one",
  ignore,
  async fn() {
    const controller = new AbortController();
    const desktop = await EmbeddedDesktop.start({ signal: controller.signal, handleSignals: false });
    controller.abort();
    assert.ok(desktop.stopped);
    await desktop.stop();
    assert.deepEqual(await alive(desktop.pids), []);

    await assert.rejects(
      EmbeddedDesktop.start({ signal: AbortSignal.abort() }),
      (error) => error instanceof DriverError && error.code === "aborted",
    );
  },
});

Deno.test("EmbeddedDesktop rejects an impossible screen size before starting anything", async () => {
  await assert.rejects(EmbeddedDesktop.start({ width: 0, height: 600 }), RangeError);
});
