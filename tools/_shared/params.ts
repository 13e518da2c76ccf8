/**
 * Parameter fragments shared by tool schemas, so each is described once.
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";

/**
 * Marks a parameter whose meaning the server states once (MCP initialize instructions):
 * tools/list leaves its description out of every tool that has it.
 */
export function shared(name: string): { shared: string } {
  return { shared: name };
}

/** The optional public session label (contract.md §1.1). */
export const sessionParam = z.string().max(200).optional().describe(
  "Session label for multi-call work; repeat it on each call (default: this connection's session)",
).meta(shared("session"));

/** A process id. */
export const pidParam = z.number().int().min(1).describe(
  "Process id of the target app (from list_windows or list_apps)",
).meta(shared("pid"));

/** A window id. */
export const windowIdParam = z.number().int().min(1).describe("Window id from list_windows").meta(
  shared("window_id"),
);

/** Where to write a screenshot instead of returning it inline. */
export const screenshotOutFileParam = z.string().min(1).optional().describe(
  "Write the PNG to this path (~ expands to the home directory) and return its path instead of inline image data",
).meta(shared("screenshot_out_file"));
