/**
 * The tools a vocabulary profile serves: `--tools anthropic` the members of Anthropic's
 * `computer_toolset_20260801`, `--tools openai` OpenAI's `computer` tool. Each is a registry
 * built from this selection instead of the driver's own tools (their names would collide:
 * `scroll`, `zoom`, `double_click`); the members run the driver's own tools inside.
 *
 * @module
 */
import type { AnyTool } from "../src/kernel/tool.ts";
import type { VocabularyProfile } from "../src/kernel/tool_listing.ts";
import { anthropicLoaders } from "./anthropic/index.ts";

/** Loads the tools of a vocabulary profile, in their listing order. */
export async function profileTools(profile: VocabularyProfile): Promise<AnyTool[]> {
  const loaders = profile === "anthropic"
    ? Object.values(anthropicLoaders)
    : [() => import("./openai/computer.ts")];
  return (await Promise.all(loaders.map((load) => load()))).map((m) => m.default);
}
