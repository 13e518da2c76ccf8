/**
 * The README's first steps give a working MCP configuration: `npm start` runs
 * `bin/cua-driver demo`, whose output ends with the client configuration for this clone
 * (cua-driver is not on PATH then). The official MCP SDK client, started with exactly that
 * command and arguments and a PATH without this clone, lists the tools and answers a call.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverEnv } from "../_helpers/driver.ts";

const LAUNCHER = fileURLToPath(new URL("../../bin/cua-driver", import.meta.url));

Deno.test({
  name: "the demo prints an MCP client configuration that the MCP SDK client starts as it is",
  ignore: ignoreWithoutDesktop(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cua-demo-" });
    try {
      const env = driverEnv({ PATH: "/usr/local/bin:/usr/bin:/bin" });
      const demo = await new Deno.Command(LAUNCHER, {
        args: ["demo"],
        cwd: dir,
        env,
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const out = new TextDecoder().decode(demo.stdout);
      assert.equal(demo.code, 0, `${out}\n${new TextDecoder().decode(demo.stderr)}`);
      const line = out.split("\n").find((l) => l.startsWith('{"mcpServers"'));
      assert.ok(line, `the demo prints a configuration:\n${out.slice(-600)}`);
      const server = JSON.parse(line).mcpServers["cua-driver"] as { command: string; args: string[] };
      assert.equal(server.command, LAUNCHER);

      const client = new Client({ name: "cua-readme-test", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command: server.command, args: server.args, env }));
      try {
        const { tools } = await client.listTools();
        assert.ok(tools.some((t: { name: string }) => t.name === "get_window_state"));
        const size = await client.callTool({ name: "get_screen_size", arguments: {} });
        assert.ok(((size.structuredContent as { width: number }).width ?? 0) > 0, JSON.stringify(size));
      } finally {
        await client.close();
      }
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
