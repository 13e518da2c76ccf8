/**
 * health_report's platform checks on Windows: display, window_manager (the desktop
 * window and the foreground), accessibility (which tree source answers), capture and
 * input.
 *
 * @module
 */
import { runHealthProbes } from "../../kernel/health_probes.ts";
import type { HealthCheck } from "../../ports/health.ts";
import type { ScreenBackend } from "../../ports/screen.ts";
import type { Win32Accessibility } from "./accessibility.ts";
import { foregroundWindow } from "./input/foreground.ts";
import { driverIntegrity, systemDescription, wineVersion } from "./system_info.ts";
import { isAppWindow, topLevelWindows } from "./win32/hwnd.ts";

/** What the checks read. */
export interface WindowsHealthDeps {
  screen: ScreenBackend;
  accessibility: Win32Accessibility;
}

const PROBES: Record<string, (deps: WindowsHealthDeps) => Promise<HealthCheck>> = {
  async display(deps) {
    const displays = await deps.screen.displays();
    const primary = displays[0];
    return {
      name: "display",
      status: displays.length > 0 ? "pass" : "fail",
      message: primary
        ? `${systemDescription()}: ${displays.length} display(s), primary ${primary.bounds.width}x${primary.bounds.height}`
        : "No display found",
      data: { displays: displays.length, wine: wineVersion() },
    };
  },
  window_manager() {
    const windows = topLevelWindows().filter(isAppWindow);
    return Promise.resolve({
      name: "window_manager",
      status: "pass",
      message: `${windows.length} app windows; foreground window ${foregroundWindow() || "none"}`,
    });
  },
  accessibility(deps) {
    const automation = deps.accessibility.automation();
    return Promise.resolve({
      name: "accessibility",
      status: "pass",
      message: automation
        ? "UI Automation available (cached subtrees where apps answer cache requests; child windows and MSAA otherwise)"
        : `Trees from child windows and MSAA (UI Automation unavailable: ${deps.accessibility.uiaUnavailableReason})`,
    });
  },
  async capture(deps) {
    const [display] = await deps.screen.displays();
    if (!display) return { name: "capture", status: "fail", message: "No display to capture" };
    const started = performance.now();
    const image = await deps.screen.captureDisplay(display.id);
    return {
      name: "capture",
      status: "pass",
      message: `GDI BitBlt of ${image.width}x${image.height} in ${
        (performance.now() - started).toFixed(1)
      } ms`,
    };
  },
  input() {
    const integrity = driverIntegrity();
    return Promise.resolve({
      name: "input",
      status: "pass",
      message: `Posted window messages (background) and SendInput (foreground); driver integrity ${
        integrity ?? "unknown"
      }`,
    });
  },
};

/** Runs the named checks (unknown names are ignored), in the order asked. */
export function windowsHealth(deps: WindowsHealthDeps, names: readonly string[]): Promise<HealthCheck[]> {
  return runHealthProbes(PROBES, deps, names);
}
