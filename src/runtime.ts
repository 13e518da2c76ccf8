/**
 * The composition root: back end, runtime state and registry, created once per
 * process and closed once.
 *
 * @module
 */
import { ConfigStore } from "./core/config.ts";
import { closePngWorker } from "./core/image/png_worker.ts";
import { ToolRegistry } from "./core/registry.ts";
import type { ListingOptions } from "./core/tool_listing.ts";
import { createAuthorizer } from "./core/permissions/authorizer.ts";
import { createLaunchPolicy } from "./core/permissions/launch_policy.ts";
import { type PermissionConfig, resolvePermissions } from "./core/permissions/config.ts";
import { type PermissionMode, RuntimeState } from "./core/runtime_state.ts";
import { createBackend, type DesktopMode } from "./platform/mod.ts";
import { allTools } from "../tools/mod.ts";

/** A running driver. */
export interface Runtime {
  readonly registry: ToolRegistry;
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
}

/** Starts the back end (and the embedded desktop when needed) and builds the registry. */
export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const backend = await createBackend(Deno.build.os, {
    desktop: options.desktop,
    waitForDisplay: options.waitForDisplay,
    log: options.log,
  });
  const config = new ConfigStore();
  if (config.loadWarning) options.log?.(config.loadWarning);
  const permissions = options.permissions ??
    resolvePermissions({
      mode: options.permissionMode ?? "standard",
      dangerouslyBypass: options.permissionMode === "unrestricted",
      env: () => undefined,
    });
  const state = new RuntimeState(
    config,
    permissions.mode,
    permissions.grants,
    createLaunchPolicy(permissions),
  );
  const registry = new ToolRegistry(allTools, backend, state, createAuthorizer(permissions), options.listing);
  state.sessions.startSweeper();
  let closed: Promise<void> | null = null;
  return {
    registry,
    close() {
      closed ??= state.sessions.close().then(() => backend.close()).finally(closePngWorker);
      return closed;
    },
  };
}
