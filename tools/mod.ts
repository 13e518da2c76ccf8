/**
 * Every tool, in `tools/list` order (the reference's Linux registration order), then the
 * unlisted tools transports call for their own requests, loaded:
 * the list itself is `tools/index.ts`, whose loaders a one-shot CLI call uses to load only
 * the tool it runs.
 *
 * @module
 */
import type { AnyTool } from "../src/kernel/tool.ts";
import { loadAllTools } from "./index.ts";

/** All tools in registration order. */
export const allTools: readonly AnyTool[] = await loadAllTools();
