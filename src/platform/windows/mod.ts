/**
 * The Windows back end: user32/gdi32 capture and input, UI Automation trees.
 * Not implemented yet: every operation refuses with `unsupported_platform`.
 *
 * @module
 */
import type { Backend } from "../types.ts";
import { unsupportedBackend } from "../unsupported.ts";

/** Creates the Windows back end. */
export function createWindowsBackend(): Backend {
  return unsupportedBackend(
    "windows",
    "Windows support (user32, gdi32 and UI Automation through FFI) is planned",
  );
}
