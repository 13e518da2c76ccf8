/**
 * The single entry point for every mode: `deno run -A src/main.ts <args>`
 * behaves exactly like the compiled executable.
 *
 * @module
 */
import { ToolCatalog } from "./core/registry.ts";
import { runDemo } from "./demo.ts";
import { startRuntime } from "./runtime.ts";
import { runCli } from "./transports/cli.ts";
import { networkConfigFromEnv, startNetworkServer } from "./transports/grpc/server.ts";
import { allTools } from "../tools/mod.ts";

if (import.meta.main) {
  const code = await runCli(Deno.args, {
    catalog: new ToolCatalog(allTools),
    startRuntime: (options) =>
      startRuntime({ ...options, log: (line) => console.error(`cua-driver: ${line}`) }),
    runDemo,
    async serveExtras(registry) {
      const config = networkConfigFromEnv((name) => Deno.env.get(name));
      if (!config) return null;
      const server = await startNetworkServer({ registry, ...config });
      return {
        describe: `MCP at ${server.url}/mcp and gRPC cua.env.v1 on ${server.url}`,
        close: () => server.close(),
      };
    },
  });
  Deno.exit(code);
}
