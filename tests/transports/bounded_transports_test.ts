/**
 * A bounded-mode runtime refuses everything outside its capability manifest under
 * every network transport: MCP over HTTP, DriverService.CallTool, and the
 * ComputerService RPCs that read the desktop directly.
 */
import assert from "node:assert/strict";
import { resolvePermissions } from "../../src/features/permissions/config.ts";
import { startRuntime } from "../../src/runtime.ts";
import { startNetworkServer } from "../../src/transports/network/server.ts";
import { e2eRequired, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { hasGrpcJs, startGrpcNodeClient } from "../_helpers/grpc_node_client.ts";

const TOKEN = "bounded-test-token-0123456789abcdefghijkl";

Deno.test({
  name: "bounded mode holds under MCP HTTP, gRPC CallTool and ComputerService",
  ignore: ignoreWithoutDesktop() || (!hasGrpcJs() && !e2eRequired()),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const manifest = await Deno.makeTempFile({ suffix: ".yaml" });
    await Deno.writeTextFile(
      manifest,
      "version: 3\nexpires_after: 1h\nidle_timeout: 30m\nallow:\n  tools: [get_screen_size]\n",
    );
    const permissions = await resolvePermissions({
      mode: "bounded",
      manifestPath: manifest,
      approveManifest: true,
      env: () => undefined,
    });
    Deno.env.set("CUA_DRIVER_CONFIG_DIR", await Deno.makeTempDir());
    const runtime = await startRuntime({ desktop: "system", permissions });
    const server = await startNetworkServer({ registry: runtime.registry, token: TOKEN, port: 0 });
    const client = await startGrpcNodeClient(`127.0.0.1:${server.port}`, TOKEN);
    try {
      const mcp = async (name: string) => {
        const response = await fetch(`${server.url}/mcp`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${TOKEN}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name, arguments: {} },
          }),
        });
        return (await response.json()).result;
      };
      assert.equal((await mcp("get_screen_size")).structuredContent.width, 1920);
      const deniedMcp = await mcp("list_windows");
      assert.equal(deniedMcp.isError, true);
      assert.equal(deniedMcp.structuredContent.code, "permission_denied");

      const call = await client.call("DriverService", "CallTool", {
        name: "get_desktop_state",
        argumentsJson: "{}",
      });
      assert.equal(call.ok, true, call.message);
      assert.equal(call.response.isError, true);
      assert.equal(JSON.parse(call.response.structuredJson).code, "permission_denied");

      for (const method of ["Screenshot", "GetCursorPosition"]) {
        const answer = await client.call(
          "ComputerService",
          method,
          method === "Screenshot" ? { displayId: "primary" } : {},
        );
        assert.equal(answer.ok, false, `${method} must be refused`);
        assert.equal(answer.code, 7, `${method}: ${answer.message}`); // PERMISSION_DENIED
        assert.equal(answer.errorInfo?.reason, "ERROR_REASON_PERMISSION_DENIED");
      }
      const displays = await client.call("ComputerService", "ListDisplays");
      assert.equal(displays.ok, true, "ListDisplays stands for get_screen_size, which the manifest allows");
    } finally {
      await client[Symbol.asyncDispose]();
      await server.close();
      await runtime.close();
      await Deno.remove(manifest);
    }
  },
});
