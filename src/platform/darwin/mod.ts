/**
 * The macOS back end: CoreGraphics capture and input, Accessibility (AXUIElement)
 * trees. Not implemented yet: every operation refuses with `unsupported_platform`.
 *
 * @module
 */
import type { Backend } from "../types.ts";
import { unsupportedBackend } from "../unsupported.ts";

/** Creates the macOS back end. */
export function createDarwinBackend(): Backend {
  return unsupportedBackend("darwin", "macOS support (CoreGraphics + AXUIElement through FFI) is planned");
}
