/**
 * Which toolkit draws an app, as far as input routing cares: Chromium and Electron
 * renderers drop input posted to their process in the background, and build their
 * web content's accessibility tree only for clients that ask (AXManualAccessibility).
 *
 * @module
 */
import type { Toolkit } from "../types.ts";
import type { DarwinContext } from "./context.ts";
import { runningApp } from "./workspace.ts";

/** Bundle id prefixes of Chromium-based browsers. */
const CHROMIUM_PREFIXES = [
  "com.google.Chrome",
  "org.chromium.",
  "com.microsoft.edgemac",
  "com.brave.",
  "com.vivaldi.",
];

/** True when an app bundle is a Chromium browser or an Electron app. */
export function isChromiumApp(bundleId: string | null, bundlePath: string | null): boolean {
  if (bundleId !== null && CHROMIUM_PREFIXES.some((prefix) => bundleId.startsWith(prefix))) return true;
  if (bundlePath === null) return false;
  try {
    Deno.statSync(`${bundlePath}/Contents/Frameworks/Electron Framework.framework`);
    return true;
  } catch {
    return false;
  }
}

/** The toolkit of a running app: "chromium" for Chromium/Electron, else "unknown" (AppKit and others). */
export function appToolkit(ctx: DarwinContext, pid: number): Toolkit {
  const app = runningApp(ctx, pid);
  return app && isChromiumApp(app.bundleId, app.bundlePath) ? "chromium" : "unknown";
}
