/**
 * SkyLight (private): the window server's own event calls. AppKit accepts a posted
 * mouse event in a background window only when it carries a window-local point, which
 * only `CGEventSetWindowLocation` sets; `SLEventPostToPid` posts to one process the way
 * the public `CGEventPostToPid` does, through the window server's activity path.
 *
 * Both are private, so both are optional: where a macOS lacks them the driver posts with
 * `CGEventPostToPid` and says so (the route is named in the action's result).
 *
 * @module
 */
import { openLibrary } from "../_open.ts";
import { CGPOINT } from "./geometry.ts";

/** SkyLight symbols used by the driver (all optional: private API). */
export const SKYLIGHT_SYMBOLS = {
  // void SLEventPostToPid(pid_t pid, CGEventRef event)
  SLEventPostToPid: { parameters: ["i32", "pointer"], result: "void", optional: true },
  // void CGEventSetWindowLocation(CGEventRef event, CGPoint windowLocation)   (points, window-local)
  CGEventSetWindowLocation: { parameters: ["pointer", CGPOINT], result: "void", optional: true },
} as const satisfies Deno.ForeignLibraryInterface;

/** SkyLight, opened on first use. */
export const skyLight = openLibrary(
  "SkyLight",
  ["/System/Library/PrivateFrameworks/SkyLight.framework/SkyLight"],
  SKYLIGHT_SYMBOLS,
);
