/**
 * Parameter fragments shared by tool schemas, so each is described once.
 *
 * @module
 */
import { z } from "zod";

/** The optional public session label (contract.md §1.1). */
export const sessionParam = z.string().max(200).optional().describe(
  "For multi-call work, prefer a short public session label and repeat it on every call that accepts it. " +
    "Omit it to use the authenticated transport's implicit lifecycle session.",
);

/** A process id. */
export const pidParam = z.number().int().min(1).describe(
  "Process id of the target app (from list_windows or list_apps)",
);

/** A window id. */
export const windowIdParam = z.number().int().min(1).describe("Window id from list_windows");

/** Where to write a screenshot instead of returning it inline. */
export const screenshotOutFileParam = z.string().min(1).optional().describe(
  "Write the PNG to this path (~ expands to the home directory) and return its path instead of inline image data",
);
