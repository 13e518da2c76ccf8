/**
 * After setup nothing needs the network: the driver started exactly as the suite starts it
 * (tests/_helpers/driver.ts: `deno run --cached-only`, the cleared environment keeping only
 * the desktop and the cache settings) serves MCP and a screenshot with the network cut, and
 * so does the `cua-driver` command that `npm install -g .` puts on PATH, run from `/`.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverArgs, driverEnv } from "../_helpers/driver.ts";
import { assertMcpScreenshot } from "../_helpers/mcp_screenshot.ts";
import { offline, reachesRegistry, runOffline } from "../_helpers/offline.ts";
import { VERSION } from "../../src/version.ts";

const ignore = ignoreWithoutDesktop();
const REPO = fileURLToPath(new URL("../..", import.meta.url));
const LAUNCHER = fileURLToPath(new URL("../../bin/cua-driver", import.meta.url));

Deno.test({
  name: "offline: the wrapper cuts the network (a fetch of the npm registry fails)",
  ignore,
  async fn() {
    assert.equal(await reachesRegistry(driverEnv()), false);
  },
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
  name: "offline: `npm install -g .` puts cua-driver on PATH; from / it prints its version and serves MCP",
  ignore,
  async fn() {
    // As a user installs it and an MCP client runs it: npm's global bin link, then a PATH lookup.
    const prefix = await Deno.makeTempDir({ prefix: "cua-npm-global-" });
    try {
      const env = driverEnv({ PATH: `${prefix}/bin:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}` });
      const npmArgs = [
        "install",
        "--global",
        "--prefix",
        prefix,
        "--no-audit",
        "--no-fund",
        "--offline",
        REPO,
      ];
      const installed = await runOffline(await offline("npm", npmArgs, env), REPO);
      assert.equal(installed.code, 0, installed.stderr);
      assert.equal(await Deno.realPath(`${prefix}/bin/cua-driver`), LAUNCHER, "npm linked the launcher");

      const version = await runOffline(await offline("cua-driver", ["--version"], env), "/");
      assert.equal(version.code, 0, version.stderr);
      assert.equal(version.stdout.trim(), `cua-driver ${VERSION}`);
      assert.doesNotMatch(version.stderr, /Download/, "nothing was fetched");

      const manifest = await runOffline(await offline("cua-driver", ["manifest"], env), "/");
      assert.equal(manifest.code, 0, manifest.stderr);
      assert.equal(JSON.parse(manifest.stdout).mcp_invocation.command, `${prefix}/bin/cua-driver`);

      const mcp = await offline("cua-driver", ["mcp", "--desktop", "system"], env);
      await assertMcpScreenshot(mcp.command, mcp.args, mcp.env, { cwd: "/", title: "Launcher fixture" });
    } finally {
      await Deno.remove(prefix, { recursive: true });
    }
  },
});
