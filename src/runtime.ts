/**
 * The composition root: back end, runtime state and registry, created once per
 * process and closed once.
 *
 * @module
 */
import { ConfigStore } from "./kernel/config.ts";
import { releaseProcessResources } from "./lib/process_resources.ts";
import { ToolRegistry } from "./kernel/registry.ts";
import type { ListingOptions } from "./kernel/tool_listing.ts";
import { createAuthorizer } from "./features/permissions/authorizer.ts";
import { createLaunchPolicy } from "./features/permissions/launch_policy.ts";
import { createResourceScope } from "./features/permissions/resource_scope.ts";
import { type PermissionConfig, resolvePermissions } from "./features/permissions/config.ts";
import { type PermissionMode, RuntimeState } from "./kernel/runtime_state.ts";
import type { AnyTool } from "./kernel/tool.ts";
import { createBackend, type DesktopMode } from "./backends/mod.ts";
import type { PermissionPrompts } from "./ports/health.ts";
import { BROWSERS } from "./features/browser/slot.ts";
import { RECORDER } from "./features/recording/slot.ts";
import { AGENT_CURSORS } from "./features/agent_cursor/slot.ts";

/** A running driver. */
export interface Runtime {
  readonly registry: ToolRegistry;
  /** Raises the OS permission prompts (a person's command, never a tool call); null where the OS has none. */
  requestPermissions(): Promise<PermissionPrompts | null>;
  close(): Promise<void>;
}

/** Options for {@linkcode startRuntime}. */
export interface RuntimeOptions {
  desktop: DesktopMode;
  /** Servers: start without a reachable desktop and connect to it when it appears. */
  waitForDisplay?: boolean;
  /** Which tools tools/list shows (profile, legacy tools). */
  listing?: ListingOptions;
  /** The launcher's permissions; `permissionMode` alone is shorthand for a mode without manifest. */
  permissions?: PermissionConfig;
  permissionMode?: PermissionMode;
  log?: (line: string) => void;
  /** The tools to serve (default: every tool, loaded now); a one-shot CLI call passes its one. */
  tools?: readonly AnyTool[];
  /**
   * Ends idle sessions periodically (default true). A one-shot CLI call ends its sessions when
   * it closes, and skips the timer (whose first use loads Deno's Node timers).
   */
  sweepSessions?: boolean;
  /** A one-shot call: the back end sets up only what the call uses (see BackendOptions.oneShot). */
  oneShot?: boolean;
}

/** Starts the back end (and the embedded desktop when needed) and builds the registry. */
export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const backend = await createBackend(Deno.build.os, {
    desktop: options.desktop,
    waitForDisplay: options.waitForDisplay,
    oneShot: options.oneShot,
    log: options.log,
  });
  const config = new ConfigStore();
  if (config.loadWarning) options.log?.(config.loadWarning);
  const permissions = options.permissions ??
    await resolvePermissions({
      mode: options.permissionMode ?? "standard",
      dangerouslyBypass: options.permissionMode === "unrestricted",
      env: () => undefined,
    });
  const state = new RuntimeState(
    config,
    permissions.mode,
    permissions.grants,
    createLaunchPolicy(permissions, (name) => backend.system.resolveProgram?.(name) ?? null),
    createResourceScope(permissions, backend.system),
    // Each feature's runtime-wide state, created when a tool that wants it first runs.
    [AGENT_CURSORS, BROWSERS, RECORDER],
  );
  const tools = options.tools ?? (await import("../tools/mod.ts")).allTools;
  const registry = new ToolRegistry(
    tools,
    backend,
    state,
    createAuthorizer(permissions, backend.system),
    options.listing,
  );
  if (options.sweepSessions !== false) state.sessions.startSweeper();
  let closed: Promise<void> | null = null;
  return {
    registry,
    requestPermissions: () => backend.requestPermissions?.() ?? Promise.resolve(null),
    close() {
      closed ??= state.sessions.close().then(() => backend.close()).finally(releaseProcessResources);
      return closed;
    },
  };
}
