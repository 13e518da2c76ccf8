/**
 * kill_app and launch_app as an app's own lifecycle sees them. kill_app asks first: the
 * fixture (tests/fixtures/gtk3_untitled_dialog.py, launched by the driver) journals its
 * dialog's answer, its main window's close request and its own exit, which a SIGKILL never
 * lets it write; force:true still kills at once. A second launch_app of mousepad, which hands
 * the launch to its running instance and exits, reports that instance (its pid owns the
 * windows reported, read with xprop) instead of "no window yet".
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { FIXTURE_PYTHON } from "../_helpers/fixture_app.ts";
import { startTestDriver, type Structured, type TestDriver } from "../_helpers/in_process_driver.ts";
import { waitFor, x } from "../_helpers/x11_probe.ts";

const ignore = ignoreWithoutDesktop();
const SCRIPT = fileURLToPath(new URL("../fixtures/gtk3_untitled_dialog.py", import.meta.url));

async function events(path: string): Promise<Structured[]> {
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
}

function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

/** Launches the fixture through the driver and waits for its ready line. */
async function launchFixture(driver: TestDriver, journal: string): Promise<number> {
  const launched = await driver.ok("launch_app", {
    launch_path: FIXTURE_PYTHON,
    additional_arguments: [SCRIPT, "--events", journal],
  });
  await waitFor("the fixture's ready line", async () => {
    return (await events(journal)).find((e) => e.event === "ready") ?? null;
  }, 20_000);
  return launched.pid as number;
}

Deno.test({
  name: "kill_app closes an app's dialog and windows first, and force:true kills at once",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // Standard mode launches GUI apps only (a Python script is an interpreter's argument), and
    // kill_app ends only what launch_app started: the fixture is launched in unrestricted mode.
    await using driver = await startTestDriver({ permissionMode: "unrestricted" });
    const dir = await Deno.makeTempDir({ prefix: "cua-kill-polite-" });
    const pids: number[] = [];
    try {
      const polite = `${dir}/polite.jsonl`;
      const pid = await launchFixture(driver, polite);
      pids.push(pid);
      const killed = await driver.ok("kill_app", { pid });
      assert.equal(killed.ended, "quit");
      assert.equal(killed.forced, false);
      assert.ok(!isAlive(pid), "the app has exited when kill_app returns");
      const journal = await events(polite);
      assert.ok(
        journal.some((e) => e.event === "answered"),
        `the dialog was closed: ${JSON.stringify(journal)}`,
      );
      assert.ok(journal.some((e) => e.event === "close-requested"), JSON.stringify(journal));
      assert.deepEqual(journal.at(-1), { event: "exit", how: "closed" });

      const forced = `${dir}/forced.jsonl`;
      const second = await launchFixture(driver, forced);
      pids.push(second);
      const force = await driver.ok("kill_app", { pid: second, force: true });
      assert.equal(force.ended, "killed");
      await waitFor("the forced app to be gone", () => Promise.resolve(isAlive(second) ? null : true), 5_000);
      assert.ok(!(await events(forced)).some((e) => e.event === "exit"), "SIGKILL leaves no exit line");
    } finally {
      for (const pid of pids) if (isAlive(pid)) await driver.call("kill_app", { pid, force: true });
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "a second launch_app of mousepad reports the running instance it handed the launch to",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using driver = await startTestDriver();
    const first = await driver.ok("launch_app", { launch_path: "mousepad" });
    const pid = first.pid as number;
    try {
      await waitFor("mousepad's window", async () => {
        const windows = (await driver.ok("list_windows", { pid })).windows as Structured[];
        return windows.length ? windows : null;
      }, 15_000);
      const second = await driver.call("launch_app", { launch_path: "mousepad" });
      const out = second.structuredContent as Structured;
      assert.equal(second.isError, undefined, JSON.stringify(out));
      assert.equal(out.existing_instance, true, JSON.stringify(second.content));
      assert.equal(out.pid, pid);
      assert.equal(out.running, true);
      assert.ok(out.windows.length > 0);
      for (const window of out.windows as Structured[]) {
        const prop = await x("xprop", "-id", String(window.window_id), "_NET_WM_PID");
        assert.equal(Number(/= (\d+)/.exec(prop)?.[1]), pid, prop);
      }
      assert.ok(isAlive(pid), "the first mousepad still runs");
    } finally {
      await driver.call("kill_app", { pid, force: true });
    }
  },
});
