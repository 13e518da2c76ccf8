import assert from "node:assert/strict";
import { loadAllTools, loadTool, toolLoaders, toolNames } from "./index.ts";
import { allTools } from "./mod.ts";

Deno.test("toolLoaders load each tool under its own name, in the registration order of allTools", async () => {
  assert.deepEqual(toolNames, allTools.map((tool) => tool.name));
  for (const name of toolNames) {
    const tool = await loadTool(name);
    assert.equal(tool?.name, name, `${name} loads the tool named ${name}`);
    assert.equal(tool, allTools[toolNames.indexOf(name)], "the same module instance");
  }
  assert.deepEqual((await loadAllTools()).map((tool) => tool.name), toolNames);
});

Deno.test("loadTool answers undefined for names that are not tools", async () => {
  for (const name of ["no_such_tool", "toString", "__proto__", "constructor", ""]) {
    assert.equal(await loadTool(name), undefined, JSON.stringify(name));
  }
  assert.equal(Object.keys(toolLoaders).length, toolNames.length);
});

Deno.test("only run_actions and replay_trajectory run other tools (a one-shot call loads all for them)", () => {
  assert.deepEqual(allTools.filter((tool) => tool.runsOtherTools).map((tool) => tool.name).sort(), [
    "replay_trajectory",
    "run_actions",
  ]);
});
