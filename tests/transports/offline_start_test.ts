/**
 * After setup nothing needs the network: the driver started exactly as the suite starts it
 * (tests/_helpers/driver.ts: `deno run --cached-only`, the cleared environment keeping only
 * the desktop and the cache settings) serves MCP and a screenshot with the network cut, and
 * so does the `cua-driver` launcher from `/`.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverArgs, driverEnv } from "../_helpers/driver.ts";
import { assertMcpScreenshot } from "../_helpers/mcp_screenshot.ts";
import { offline, reachesRegistry } from "../_helpers/offline.ts";
import { VERSION } from "../../src/version.ts";

const ignore = ignoreWithoutDesktop();
const LAUNCHER = fileURLToPath(new URL("../../bin/cua_driver.cjs", import.meta.url));

Deno.test({
  name: "offline: the wrapper cuts the network (a fetch of the npm registry fails)",
  async fn() {
    assert.equal(await reachesRegistry(driverEnv()), false);
  },
  ignore,
});

Deno.test({
  name: "offline: the suite's driver start serves MCP tools and a screenshot with the network unreachable",
  ignore,
  async fn() {
    const run = await offline(Deno.execPath(), driverArgs("mcp", "--desktop", "system"), driverEnv());
    console.log(`network cut by ${run.how}`);
    const answer = await assertMcpScreenshot(run.command, run.args, run.env, {
      title: "Offline start fixture",
    });
    assert.equal(answer.serverName, "cua-driver");
    assert.ok(answer.toolNames.includes("get_window_state"));
  },
});

Deno.test({
  name:
    "offline: the cua-driver launcher prints its version from / and serves MCP with the network unreachable",
  ignore,
  async fn() {
    // As an MCP client runs it: a PATH lookup of `cua-driver` (here a symlink, like npm's bin link).
    const binDir = await Deno.makeTempDir({ prefix: "cua-bin-" });
    try {
      await Deno.symlink(LAUNCHER, `${binDir}/cua-driver`);
      const env = driverEnv({ PATH: `${binDir}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}` });
      const version = await offline("cua-driver", ["--version"], env);
      const out = await new Deno.Command(version.command, {
        args: version.args,
        env: version.env,
        clearEnv: true,
        cwd: "/",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, stderr);
      assert.equal(new TextDecoder().decode(out.stdout).trim(), `cua-driver ${VERSION}`);
      assert.doesNotMatch(stderr, /Download/, "nothing was fetched");

      const mcp = await offline("cua-driver", ["mcp", "--desktop", "system"], env);
      await assertMcpScreenshot(mcp.command, mcp.args, mcp.env, { cwd: "/", title: "Launcher fixture" });
    } finally {
      await Deno.remove(binDir, { recursive: true });
    }
  },
});
