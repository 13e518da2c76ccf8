/**
 * The program works as one bundled file: `deno bundle` of src/main.ts runs the
 * CLI and answers MCP on the shared desktop with nothing beside it.
 */
import assert from "node:assert/strict";
import { bundle } from "../../scripts/bundle.ts";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverEnv } from "../_helpers/driver.ts";

Deno.test({
  name: "bundle runs the CLI and MCP from a single file in an empty directory",
  ignore: ignoreWithoutDesktop(),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cua-bundle-" });
    try {
      const file = await bundle(`${dir}/cua-driver.js`);
      const run = async (args: string[], stdin?: string) => {
        const child = new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", "--quiet", file, ...args],
          cwd: dir,
          env: { ...driverEnv(), DENO_NO_PACKAGE_JSON: "1" },
          clearEnv: true,
          stdin: stdin === undefined ? "null" : "piped",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        if (stdin !== undefined) {
          const writer = child.stdin.getWriter();
          await writer.write(new TextEncoder().encode(stdin));
          await writer.close();
        }
        const out = await child.output();
        return {
          code: out.code,
          stdout: new TextDecoder().decode(out.stdout),
          stderr: new TextDecoder().decode(out.stderr),
        };
      };
      const version = await run(["--version"]);
      assert.match(version.stdout, /^cua-driver \d+\.\d+\.\d+/);
      const size = await run(["get_screen_size", "--desktop", "system"]);
      assert.equal(size.code, 0, size.stderr);
      assert.equal(JSON.parse(size.stdout).width, 1920);
      const mcp = await run(
        ["mcp", "--desktop", "system"],
        [
          '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
          '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
        ].join("\n") + "\n",
      );
      const [init, list] = mcp.stdout.trim().split("\n").map((l) => JSON.parse(l));
      assert.equal(init.result.serverInfo.name, "cua-driver");
      assert.ok(list.result.tools.length >= 14);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
