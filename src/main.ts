/**
 * The single entry point for every mode: `deno run -A src/main.ts <args>`
 * behaves exactly like the compiled executable. Only the CLI's argument handling is
 * loaded up front; each command loads what it needs (a one-shot tool call: that tool,
 * the registry and this OS's back end; `serve`: gRPC too).
 *
 * @module
 */
import { runCli } from "./transports/cli/mod.ts";
import { loadTool, toolNames } from "../tools/index.ts";

if (import.meta.main) {
  const code = await runCli(Deno.args, {
    toolNames,
    loadTool,
    async catalog(profile) {
      const { ToolCatalog } = await import("./kernel/registry.ts");
      if (profile) return new ToolCatalog(await (await import("../tools/profiles.ts")).profileTools(profile));
      return new ToolCatalog((await import("../tools/mod.ts")).allTools);
    },
    async profileTools(profile) {
      return await (await import("../tools/profiles.ts")).profileTools(profile);
    },
    preloadRuntime() {
      // Failures surface when startRuntime and the permission resolver import the same modules.
      import("./runtime.ts").catch(() => {});
      import("./features/permissions/config.ts").catch(() => {});
      import("./backends/mod.ts").then(({ preloadBackend }) => preloadBackend()).catch(() => {});
    },
    async startRuntime(options) {
      const { startRuntime } = await import("./runtime.ts");
      return await startRuntime({ ...options, log: (line) => console.error(`cua-driver: ${line}`) });
    },
    async runDemo(registry, args) {
      return await (await import("./demo.ts")).runDemo(registry, args);
    },
    async sockets() {
      return await (await import("./backends/mod.ts")).localSocketsFor();
    },
    async serveExtras(registry) {
      const { networkConfigFromEnv, startNetworkServer } = await import("./transports/network/server.ts");
      const config = networkConfigFromEnv((name) => Deno.env.get(name));
      if (!config) return null;
      const server = await startNetworkServer({ registry, ...config });
      return {
        describe:
          `MCP at ${server.url}/mcp and gRPC cua.env.v1 on ${server.url}; live view: ${server.viewUrl}`,
        close: () => server.close(),
      };
    },
  });
  Deno.exit(code);
}
