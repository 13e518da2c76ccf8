/**
 * Bounded mode is scoped to the driver's desktop (issue 24): a process of an allowed app that
 * runs on another X display of the machine is in no listing and no call may target it, while
 * the same program on the driver's display is listed. Judged by pids the test started itself,
 * one on a second Xvfb's display and one on the driver's.
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverEnv } from "../_helpers/driver.ts";
import { McpLines, startXvfb } from "../_helpers/mcp_lines.ts";

Deno.test({
  name: "bounded mode lists and targets only the allowed app's processes on the driver's desktop",
  ignore: ignoreWithoutDesktop(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cua-bounded-desktop-" });
    const other = await startXvfb("640x480");
    const sleeper = (display: string) =>
      new Deno.Command("/bin/sleep", { args: ["600"], env: { DISPLAY: display }, clearEnv: true }).spawn();
    const elsewhere = sleeper(`:${other.display}`);
    const here = sleeper(desktopEnv().DISPLAY);
    try {
      const manifest = `${dir}/manifest.yaml`;
      await Deno.writeTextFile(
        manifest,
        `version: 3
expires_after: 1h
idle_timeout: 30m
allow:
  tools: [list_apps, list_windows]
resources:
  apps:
    - executable: sleep
`,
      );
      await using driver = new McpLines(driverEnv(), [
        "--desktop",
        "system",
        "--permission-mode",
        "bounded",
        "--capability-manifest",
        manifest,
        "--approve-capability-manifest",
      ]);
      await driver.initialize();
      const listed = await driver.call("list_apps", {});
      const pids = (listed.structuredContent.apps as { pid: number }[]).map((a) => a.pid);
      assert.ok(pids.includes(here.pid), `the driver's desktop's process is listed: ${pids}`);
      assert.equal(pids.includes(elsewhere.pid), false, "a process on another display is not listed");
      const targeted = await driver.call("list_windows", { pid: elsewhere.pid });
      assert.equal(targeted.isError, true, JSON.stringify(targeted).slice(0, 300));
      assert.equal(targeted.structuredContent.code, "bounded_resource_outside_manifest");
      assert.equal((await driver.call("list_windows", { pid: here.pid })).isError, undefined);
    } finally {
      for (const child of [elsewhere, here, other.child]) {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
        await child.status;
      }
      await Deno.remove(dir, { recursive: true });
    }
  },
});
