/**
 * The macOS back end: CoreGraphics for displays, capture and posted events,
 * Accessibility (AXUIElement) for trees, element actions and window control, the
 * Objective-C runtime for NSWorkspace and NSPasteboard, libproc for processes. Every
 * call goes through one {@linkcode Frameworks} value: the real frameworks on a Mac,
 * a scripted fake in unit tests on any OS.
 *
 * @module
 */
import type { Backend } from "../../ports/backend.ts";
import type { HealthCheck, PermissionCheck, PermissionPrompts } from "../../ports/health.ts";
import type { SystemBackend } from "../../ports/system.ts";
import { DarwinAccessibility } from "./accessibility.ts";
import { DarwinApps, type DarwinAppsOptions } from "./apps.ts";
import { AxClient } from "./ax_client.ts";
import { DarwinClipboard } from "./clipboard.ts";
import { DarwinContext } from "./context.ts";
import { type Frameworks, systemFrameworks } from "./frameworks.ts";
import { darwinHealth } from "./health.ts";
import { DarwinInput } from "./input.ts";
import { darwinPermissions, requestPermissions } from "./permissions.ts";
import { DarwinScreen } from "./screen.ts";
import type { CommandRunner } from "./screencapture.ts";
import { settled } from "./settled.ts";
import { createDarwinSystem } from "./system.ts";
import { DarwinWindows } from "./windows.ts";

/** Options for {@linkcode createDarwinBackend}. */
export interface DarwinBackendOptions {
  /** The framework tables (default: the real ones, opened on first use). */
  frameworks?: Frameworks;
  apps?: DarwinAppsOptions;
  /** Runs screencapture, and says whether it is installed (default: the real tool). */
  screencapture?: { run: CommandRunner; installed: () => boolean };
}

/** The macOS system facility alone (processes, programs, sockets), without a back end. */
export function createDarwinSystemFacility(frameworks: Frameworks = systemFrameworks()): SystemBackend {
  return createDarwinSystem(new DarwinContext(frameworks));
}

/** Creates the macOS back end. Opens nothing until a facility is first used. */
export function createDarwinBackend(options: DarwinBackendOptions = {}): Backend {
  const ctx = new DarwinContext(options.frameworks ?? systemFrameworks());
  const ax = new AxClient(ctx);
  const screen = new DarwinScreen(ctx, {
    run: options.screencapture?.run,
    hasScreencapture: options.screencapture?.installed,
  });
  const windows = new DarwinWindows(ctx, ax);
  const apps = new DarwinApps(ctx, options.apps);
  const accessibility = new DarwinAccessibility(ctx, ax);
  const clipboard = new DarwinClipboard(ctx);
  const input = new DarwinInput(ctx, ax, windows);
  return {
    os: "darwin",
    description: "macOS (CoreGraphics + Accessibility)",
    screen,
    windows,
    apps,
    accessibility,
    clipboard,
    input,
    system: createDarwinSystem(ctx),
    agentCursor: {
      unavailableReason: () =>
        Promise.resolve(
          "the agent cursor overlay is not implemented on macOS: it needs an AppKit window on a main-thread run loop",
        ),
      draw: () => {},
      hide: () => {},
      remove: () => {},
    },
    permissions(): Promise<PermissionCheck[]> {
      return darwinPermissions(ctx, () => screen.route());
    },
    requestPermissions(): Promise<PermissionPrompts> {
      return settled(() => {
        const { prompted, notes } = requestPermissions(ctx);
        return { prompted, notes };
      });
    },
    health(names: readonly string[]): Promise<HealthCheck[]> {
      return darwinHealth({ ctx, ax, screen }, names);
    },
    async close() {
      await input.close();
      accessibility.close();
      ax.close();
      ctx.close();
    },
  };
}
