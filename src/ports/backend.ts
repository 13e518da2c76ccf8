/**
 * The back-end interface every OS implements: one object holding each capability.
 * Names and shapes only; src/backends/mod.ts chooses the implementation.
 *
 * @module
 */

import type { AccessibilityBackend } from "./accessibility.ts";
import type { AppBackend } from "./apps.ts";
import type { ClipboardBackend } from "./clipboard.ts";
import type { AgentCursorBackend } from "./cursor.ts";
import type { HealthCheck, PermissionCheck, PermissionPrompts } from "./health.ts";
import type { InputBackend } from "./input.ts";
import type { PerceptionBackend } from "./perception.ts";
import type { ScreenBackend } from "./screen.ts";
import type { SystemBackend } from "./system.ts";
import type { WindowBackend } from "./windows.ts";

/** Everything the tools need from an OS. */
export interface Backend {
  readonly os: "linux" | "darwin" | "windows" | "fake";
  /** Human-readable description of the session ("X11 :99 (embedded)"). */
  readonly description: string;
  readonly screen: ScreenBackend;
  readonly windows: WindowBackend;
  readonly apps: AppBackend;
  readonly accessibility: AccessibilityBackend;
  readonly clipboard: ClipboardBackend;
  readonly input: InputBackend;
  /** The agent-cursor overlay. */
  readonly agentCursor: AgentCursorBackend;
  /** Processes, programs, package installs, local sockets and files. */
  readonly system: SystemBackend;
  /** Local text recognition on screenshots (parse_visual_regions); absent where not implemented. */
  readonly perception?: PerceptionBackend;
  /** Probes each facility the driver needs; a missing one is a failed check, not a throw. */
  permissions(): Promise<PermissionCheck[]>;
  /**
   * Raises the OS prompts for the missing grants. For a person at the machine
   * (`cua-driver permissions grant`), never for a tool call. Absent where the OS has no such prompts.
   */
  requestPermissions?(): Promise<PermissionPrompts>;
  /**
   * Runs the platform checks of health_report named in `names` (display, window_manager,
   * accessibility, capture, input); names it does not know are left out. A failed probe is
   * a `fail` check, not a throw.
   */
  health(names: readonly string[]): Promise<HealthCheck[]>;
  /**
   * Resolves once the desktop is reachable, connecting to it if it appeared since the
   * last call. Absent on back ends that are always ready.
   *
   * @throws {DriverError} `display_unavailable` with the remedy while there is no desktop.
   */
  ready?(): Promise<void>;
  /** Releases native resources. */
  close(): Promise<void>;
}
