/**
 * Launching a Chromium-family browser with an isolated profile and an owned
 * DevTools endpoint on loopback (the browser picks the port; we read it from
 * `DevToolsActivePort` in the profile).
 *
 * @module
 */
import { join } from "node:path";
import type { StopKind, SystemBackend } from "../../ports/system.ts";
import { DriverError } from "../../ports/errors.ts";
import { activePort, type DevToolsEndpoint, probeEndpoint } from "./endpoint.ts";

/**
 * Binaries tried in order when `CUA_DRIVER_BROWSER` does not name one, as the OS's program
 * search names them (Windows finds chrome and msedge through App Paths; Edge comes with Windows).
 */
const CANDIDATES = [
  "chromium",
  "chromium-browser",
  "google-chrome",
  "google-chrome-stable",
  "chrome",
  "msedge",
];
const READY_TIMEOUT_MS = 20_000;

/** A browser this runtime launched. */
export interface LaunchedBrowser {
  readonly pid: number;
  readonly binary: string;
  readonly profileDir: string;
  /** True for isolated_new profiles, removed when the browser is closed. */
  readonly temporaryProfile: boolean;
  readonly endpoint: DevToolsEndpoint;
  /** Resolves when the process has exited (and was reaped). */
  readonly exited: Promise<void>;
  /** Asks it to quit or kills it; ignores a process that is already gone. */
  stop(kind: StopKind): void;
}

/** The switches every launch gets: an isolated, quiet profile with a loopback DevTools endpoint. */
export function launchArgs(profileDir: string, elevated: boolean): string[] {
  const args = [
    `--user-data-dir=${profileDir}`,
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--disable-gpu",
    "--password-store=basic",
    "--force-renderer-accessibility",
  ];
  // Chromium refuses to run as root with its sandbox on.
  if (elevated) args.unshift("--no-sandbox");
  return args;
}

/**
 * The browser binary: `CUA_DRIVER_BROWSER`, else the first Chromium-family program on PATH.
 *
 * @throws {DriverError} `browser_route_unavailable` when there is none.
 */
export async function findBrowser(system: SystemBackend): Promise<string> {
  const wanted = Deno.env.get("CUA_DRIVER_BROWSER");
  for (const name of wanted ? [wanted] : CANDIDATES) {
    const path = await system.findExecutable(name);
    if (path) return path;
  }
  throw new DriverError("browser_route_unavailable", "No Chromium-family browser is installed", {
    tried: wanted ? [wanted] : CANDIDATES,
    hint: "install chromium, or set CUA_DRIVER_BROWSER to a Chromium-family browser binary",
  });
}

/**
 * Starts a browser on `profileDir` and waits for its DevTools endpoint.
 *
 * @throws {DriverError} `browser_route_unavailable` when the browser exits or never
 *   opens its endpoint.
 */
export async function launchBrowser(
  system: SystemBackend,
  binary: string,
  profileDir: string,
  temporaryProfile: boolean,
  signal: AbortSignal,
): Promise<LaunchedBrowser> {
  // A stale file from an earlier run of a named profile would name a dead port.
  await Deno.remove(join(profileDir, "DevToolsActivePort")).catch(() => {});
  const child = await system.spawn([binary, ...launchArgs(profileDir, system.isElevated()), "about:blank"], {
    env: { ACCESSIBILITY_ENABLED: "1", NO_AT_BRIDGE: "0" },
  });
  let alive = true;
  const exited = child.status.then(() => void (alive = false), () => void (alive = false));
  const stop = (kind: StopKind) => {
    if (alive) child.stop(kind);
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (alive && Date.now() < deadline && !signal.aborted) {
    const port = await activePort(profileDir);
    const endpoint = port === null ? null : await probeEndpoint(port);
    if (endpoint) {
      return { pid: child.pid, binary, profileDir, temporaryProfile, endpoint, exited, stop };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  stop("kill");
  await exited;
  throw new DriverError(
    "browser_route_unavailable",
    alive ? "The browser did not open its DevTools endpoint in time" : "The browser exited during start-up",
    { binary, hint: "run the browser by hand to see its error output, or set CUA_DRIVER_BROWSER" },
  );
}

/** Closes a launched browser: asks it to quit, kills it after 3 s; removes a temporary profile. */
export async function stopBrowser(browser: LaunchedBrowser): Promise<void> {
  browser.stop("terminate");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, 3_000)));
  await Promise.race([browser.exited, timeout]);
  clearTimeout(timer);
  browser.stop("kill");
  await browser.exited;
  if (browser.temporaryProfile) {
    // Helper processes may still write into the profile for a moment after the main one exits.
    for (let attempt = 0; attempt < 20; attempt++) {
      if (
        await Deno.remove(browser.profileDir, { recursive: true }).then(
          () => true,
          (e) => e instanceof Deno.errors.NotFound,
        )
      ) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
