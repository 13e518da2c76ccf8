/**
 * Which DevTools endpoint a call may use for a browser process: one this runtime
 * launched, or an existing profile's, admitted only with the launch grant
 * `--grant existing-profile` (standard mode) or in unrestricted mode, and only once
 * the port is proven to be served by that very process.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { ToolContext } from "../../kernel/tool.ts";
import { type DevToolsEndpoint, isChromiumBrowser, portOf, probeEndpoint } from "./endpoint.ts";
import { browsersOf } from "./slot.ts";

/**
 * Refuses unless the launcher allows attaching to existing browser profiles.
 *
 * @throws {DriverError} `browser_consent_required`.
 */
export function requireExistingProfileGrant(ctx: ToolContext, pid: number): void {
  const mode = ctx.state.permissionMode;
  if (mode === "unrestricted") return;
  if (mode === "standard" && ctx.state.grants.has("existing-profile")) return;
  throw new DriverError(
    "browser_consent_required",
    `Attaching to the existing browser profile of pid ${pid} needs the launcher's consent`,
    {
      pid,
      permission_mode: mode,
      hint: mode === "bounded"
        ? "bounded mode never attaches to existing profiles; use browser_prepare with allow_launch and an isolated profile"
        : "restart the driver with --grant existing-profile, or use browser_prepare with allow_launch and an isolated profile",
    },
  );
}

/**
 * The endpoint for `pid`: a prepared or admitted one, else (with consent) the port of an
 * existing browser started with --remote-debugging-port, once its ownership is proven.
 *
 * @param explicitPort a port named by the caller (legacy `page` cdp_port).
 * @throws {DriverError} `browser_route_unavailable` (not a Chromium browser),
 *   `browser_requires_setup` (no DevTools endpoint), `browser_consent_required`,
 *   `browser_endpoint_owner_mismatch`, `browser_reconnect_exhausted` (nothing answers).
 */
export async function endpointForProcess(
  ctx: ToolContext,
  pid: number,
  explicitPort?: number,
): Promise<DevToolsEndpoint> {
  const known = browsersOf(ctx.state).endpointFor(pid);
  if (known && (explicitPort === undefined || explicitPort === known.port)) return known;
  const argv = await ctx.backend.system.processCommandLine(pid);
  if (argv === null) {
    throw new DriverError("browser_route_unavailable", `No process ${pid}`, {
      pid,
      hint: "call list_windows for the browser's current pid",
    });
  }
  if (!isChromiumBrowser(argv)) {
    throw new DriverError(
      "browser_route_unavailable",
      `Process ${pid} (${argv[0]}) is not a Chromium-family browser's main process`,
      { pid, hint: "the browser tools drive Chromium-family browsers; use the desktop tools for this app" },
    );
  }
  const port = explicitPort ?? await portOf(argv);
  if (port === null) {
    throw new DriverError("browser_requires_setup", `The browser ${pid} has no DevTools endpoint`, {
      pid,
      hint: 'call browser_prepare with allow_launch: true and profile {mode: "isolated_new"} for a browser ' +
        "the driver can drive, or restart this one with --remote-debugging-port and --grant existing-profile",
    });
  }
  requireExistingProfileGrant(ctx, pid);
  const owned = await ctx.backend.system.ownsTcpListener(pid, port);
  if (owned !== true) {
    throw new DriverError(
      "browser_endpoint_owner_mismatch",
      owned === false
        ? `Port ${port} is not a DevTools endpoint of process ${pid}`
        : `Cannot prove that port ${port} belongs to process ${pid}`,
      { pid, port, hint: "name the browser's own pid, or omit the port" },
    );
  }
  const endpoint = await probeEndpoint(port);
  if (!endpoint) {
    throw new DriverError("browser_reconnect_exhausted", `Nothing answers DevTools on port ${port}`, {
      pid,
      port,
      hint: "the browser may be shutting down; call browser_prepare again",
    });
  }
  browsersOf(ctx.state).admitted.set(pid, endpoint);
  return endpoint;
}
