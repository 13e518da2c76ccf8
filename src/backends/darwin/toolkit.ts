/**
 * Which toolkit draws an app, as far as input routing cares: Chromium and Electron
 * renderers drop input posted to their process in the background, and build their
 * web content's accessibility tree only for clients that ask (AXManualAccessibility).
 *
 * @module
 */
import type { Toolkit } from "../../ports/input.ts";
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

function bundles(bundlePath: string, framework: string): boolean {
  try {
    Deno.statSync(`${bundlePath}/Contents/Frameworks/${framework}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * The toolkit of an app bundle: "chromium" for Chromium browsers and Electron apps, "qt"
 * for a bundle carrying QtCore, "appkit" for any other app bundle; "unknown" without one.
 */
export function bundleToolkit(bundleId: string | null, bundlePath: string | null): Toolkit {
  if (bundleId !== null && CHROMIUM_PREFIXES.some((prefix) => bundleId.startsWith(prefix))) return "chromium";
  if (bundlePath === null) return "unknown";
  if (bundles(bundlePath, "Electron Framework.framework")) return "chromium";
  if (bundles(bundlePath, "QtCore.framework")) return "qt";
  return "appkit";
}

/** The toolkit of a running app (see {@linkcode bundleToolkit}). */
export function appToolkit(ctx: DarwinContext, pid: number): Toolkit {
  const app = runningApp(ctx, pid);
  return app ? bundleToolkit(app.bundleId, app.bundlePath) : "unknown";
}
