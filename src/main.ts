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
import { allTools } from "../tools/mod.ts";

if (import.meta.main) {
  const code = await runCli(Deno.args, {
    catalog: new ToolCatalog(allTools),
    startRuntime: (options) =>
      startRuntime({ ...options, log: (line) => console.error(`cua-driver: ${line}`) }),
    runDemo,
    serveExtras: () => Promise.resolve(null),
  });
  Deno.exit(code);
}
