/**
 * The program works as one bundled file, the artifact CI can build here (`deno compile`
 * needs a runtime download these machines cannot make): scripts/bundle.ts builds it with
 * the network unreachable (setup cached the esbuild that `deno bundle` uses), and the
 * file, run in an empty directory with an empty Deno cache and no network, prints its
 * version, runs a tool from the CLI, serves MCP and takes a screenshot.
 */
import assert from "node:assert/strict";
import { CACHED_ONLY } from "../../scripts/deno_child.ts";
import { VERSION } from "../../src/version.ts";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverEnv } from "../_helpers/driver.ts";
import { assertMcpScreenshot } from "../_helpers/mcp_screenshot.ts";
import { offline, runOffline } from "../_helpers/offline.ts";

Deno.test({
  name: "bundle runs the CLI and MCP with a screenshot from a single file, offline, in an empty directory",
  ignore: ignoreWithoutDesktop(),
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "cua-bundle-" });
    const dir = await Deno.makeTempDir({ prefix: "cua-bundle-run-" });
    const denoDir = await Deno.makeTempDir({ prefix: "cua-bundle-deno-dir-" });
    try {
      // Built from setup's cache alone, as `deno task bundle` does.
      const file = `${out}/cua-driver.js`;
      const built = await runOffline(
        await offline(
          Deno.execPath(),
          ["run", "-A", ...CACHED_ONLY, "scripts/bundle.ts", "--output", file],
          driverEnv(),
        ),
        new URL("../../", import.meta.url).pathname,
      );
      assert.equal(built.code, 0, `scripts/bundle.ts offline: ${built.stderr}`);
      // Nothing beside the file, no cache to fall back on, no network.
      const env = { ...driverEnv(), DENO_DIR: denoDir };
      const run = async (args: string[]) =>
        runOffline(
          await offline(Deno.execPath(), ["run", "-A", "--quiet", ...CACHED_ONLY, file, ...args], env),
          dir,
        );
      const version = await run(["--version"]);
      assert.equal(version.code, 0, version.stderr);
      assert.equal(version.stdout.trim(), `cua-driver ${VERSION}`);
      const size = await run(["get_screen_size", "--desktop", "system"]);
      assert.equal(size.code, 0, size.stderr);
      assert.equal(JSON.parse(size.stdout).width, 1920);

      const mcp = await offline(
        Deno.execPath(),
        ["run", "-A", "--quiet", ...CACHED_ONLY, file, "mcp", "--desktop", "system"],
        env,
      );
      const answer = await assertMcpScreenshot(mcp.command, mcp.args, mcp.env, {
        cwd: dir,
        title: "Bundle fixture",
        swatch: "#8a2be2",
      });
      assert.equal(answer.serverName, "cua-driver");
      assert.ok(answer.toolNames.length >= 50, `${answer.toolNames.length} tools`);
      assert.deepEqual([...Deno.readDirSync(dir)], [], "the run directory stays empty");
    } finally {
      for (const path of [out, dir, denoDir]) await Deno.remove(path, { recursive: true });
    }
  },
});
