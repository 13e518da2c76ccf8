/**
 * The Windows back end: user32/gdi32 for windows, capture and input, UI Automation and
 * MSAA for accessibility, kernel32/shell32 for processes and launching. Runs on Windows
 * and, for everything but UI Automation's tree walk, under Wine.
 *
 * @module
 */
import { handle } from "../../../ffi/windows/_win.ts";
import { DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2, user32 } from "../../../ffi/windows/user32.ts";
import type { Backend } from "../../ports/backend.ts";
import type { AgentCursorBackend } from "../../ports/cursor.ts";
import type { HealthCheck, PermissionCheck } from "../../ports/health.ts";
import { Win32Accessibility } from "./accessibility.ts";
import { WindowsApps } from "./apps.ts";
import { windowsHealth } from "./health.ts";
import { Win32Input } from "./input.ts";
import { windowsPermissions } from "./permissions.ts";
import { systemDescription } from "./system_info.ts";
import { createWindowsSystem } from "./system.ts";
import { Win32Clipboard } from "./clipboard.ts";
import { Win32Screen } from "./screen.ts";
import { Win32Windows } from "./windows.ts";

/** Options for {@linkcode createWindowsBackend}. */
export interface WindowsBackendOptions {
  log?: (line: string) => void;
}

const NO_CURSOR: AgentCursorBackend = {
  unavailableReason: () => Promise.resolve("the agent cursor overlay is not implemented on Windows yet"),
  draw: () => {},
  hide: () => {},
  remove: () => {},
};

/** Creates the Windows back end. */
export function createWindowsBackend(options: WindowsBackendOptions = {}): Backend {
  // Per-monitor DPI awareness: every coordinate is a physical pixel, on every monitor.
  if (user32.symbols.SetProcessDpiAwarenessContext) {
    user32.symbols.SetProcessDpiAwarenessContext(handle(DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2));
  }
  const screen = new Win32Screen();
  const windows = new Win32Windows();
  const apps = new WindowsApps();
  const accessibility = new Win32Accessibility();
  const clipboard = new Win32Clipboard();
  const input = new Win32Input();
  return {
    os: "windows",
    description: systemDescription(),
    screen,
    windows,
    apps,
    accessibility,
    clipboard,
    input,
    system: createWindowsSystem(),
    agentCursor: NO_CURSOR,
    permissions(): Promise<PermissionCheck[]> {
      return windowsPermissions(accessibility, clipboard);
    },
    health(names: readonly string[]): Promise<HealthCheck[]> {
      return windowsHealth({ screen, accessibility }, names);
    },
    async close() {
      for (const step of [() => input.close(), () => accessibility.close()]) {
        try {
          await step();
        } catch (error) {
          options.log?.(`closing: ${(error as Error).message}`);
        }
      }
    },
  };
}

export { createWindowsSystem } from "./system.ts";
