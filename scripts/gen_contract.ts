/**
 * Regenerates tests/fixtures/tools_list.json from the registry. Run after an
 * intended change to a tool's schema or metadata, and review the diff.
 */
import { ToolCatalog } from "../src/kernel/registry.ts";
import { allTools } from "../tools/mod.ts";

const path = new URL("../tests/fixtures/tools_list.json", import.meta.url);
await Deno.writeTextFile(path, JSON.stringify(new ToolCatalog(allTools).list(), null, 2) + "\n");
console.log(`wrote ${path.pathname}`);
