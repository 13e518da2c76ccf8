import assert from "node:assert/strict";
import { ToolRegistry } from "../../kernel/registry.ts";
import { RuntimeState } from "../../kernel/runtime_state.ts";
import { FakeBackend } from "../../backends/fake/mod.ts";
import { systemFor } from "../../backends/mod.ts";
import { allTools } from "../../../tools/mod.ts";
import { DaemonClient } from "./client.ts";
import { serveDaemon } from "./server.ts";

Deno.test({
  name: "daemon on a custom --socket: health_report run through it probes that socket, not the default",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cua-daemon-health-" });
    const socketPath = `${dir}/custom.sock`;
    const { sockets } = await systemFor();
    // The fake desktop, with this OS's real local sockets (the probe connects to the daemon).
    const backend = new FakeBackend();
    Object.defineProperty(backend.system, "sockets", { value: sockets });
    const registry = new ToolRegistry(allTools, backend, new RuntimeState());
    const daemon = await serveDaemon(registry, { socketPath, sockets });
    const client = await DaemonClient.connect(sockets, socketPath);
    try {
      const result = await client.call("health_report", { include: ["daemon"] }, {
        lease: "health",
        transport: "daemon",
      });
      const checks =
        (result.structuredContent as { checks: { name: string; status: string; message: string }[] })
          .checks;
      const daemonCheck = checks.find((c) => c.name === "daemon")!;
      assert.match(daemonCheck.message, new RegExp(`is the daemon on ${socketPath.replaceAll(".", "\\.")}`));
      assert.equal(daemonCheck.status, "pass");
    } finally {
      client.close();
      await daemon.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
