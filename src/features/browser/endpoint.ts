/**
 * Finding a browser's DevTools endpoint: the port a Chromium process was started with
 * (its command line or `DevToolsActivePort` file). Proof that the loopback listener on
 * that port belongs to that very process comes from the back end
 * (`SystemBackend.ownsTcpListener`).
 *
 * @module
 */
import { join } from "node:path";

/** A DevTools endpoint on loopback. */
export interface DevToolsEndpoint {
  /** Always 127.0.0.1: the driver never talks to a remote endpoint. */
  host: "127.0.0.1";
  port: number;
  /** `ws://127.0.0.1:<port>/devtools/browser/<id>`. */
  browserWsUrl: string;
  /** `Chrome/156.0...` from /json/version. */
  product: string;
}

/** What a process's command line says about DevTools. */
export interface DevToolsFlags {
  /** The port flag's value (0 = chosen by the browser), or null without the flag. */
  port: number | null;
  userDataDir: string | null;
}

/** A Chromium-family executable by its file name, with `/` or `\` before it and `.exe` on Windows. */
const CHROMIUM_BINARY =
  /(^|[\\/])(chromium|chromium-browser|chrome|google-chrome[\w-]*|brave[\w-]*|msedge|microsoft-edge[\w-]*)(\.exe)?$/i;

/** True when argv is a Chromium-family browser's main process (not a renderer or helper). */
export function isChromiumBrowser(argv: readonly string[]): boolean {
  if (!argv.length || !CHROMIUM_BINARY.test(argv[0])) return false;
  return !argv.some((arg) => arg.startsWith("--type="));
}

/** Reads the DevTools flags from argv. */
export function devToolsFlags(argv: readonly string[]): DevToolsFlags {
  let port: number | null = null;
  let userDataDir: string | null = null;
  for (const arg of argv) {
    const portMatch = /^--remote-debugging-port=(\d+)$/.exec(arg);
    if (portMatch) port = Number(portMatch[1]);
    const dirMatch = /^--user-data-dir=(.+)$/.exec(arg);
    if (dirMatch) userDataDir = dirMatch[1];
  }
  return { port, userDataDir };
}

/** The port in `<userDataDir>/DevToolsActivePort`, or null when the file is absent. */
export async function activePort(userDataDir: string): Promise<number | null> {
  try {
    const first = (await Deno.readTextFile(join(userDataDir, "DevToolsActivePort"))).split("\n")[0];
    const port = Number(first);
    return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
  } catch {
    return null;
  }
}

/** The default profile directory of a Chromium binary, for a browser started without --user-data-dir. */
function defaultProfileDir(binary: string): string {
  const config = Deno.env.get("XDG_CONFIG_HOME") ?? join(Deno.env.get("HOME") ?? "/", ".config");
  const name = /google-chrome/i.test(binary)
    ? "google-chrome"
    : /brave/i.test(binary)
    ? "BraveSoftware/Brave-Browser"
    : "chromium";
  return join(config, name);
}

/** The DevTools port a running browser listens on, from its flags; null when it has none. */
export async function portOf(argv: readonly string[]): Promise<number | null> {
  const flags = devToolsFlags(argv);
  if (flags.port === null) return null;
  if (flags.port > 0) return flags.port;
  return await activePort(flags.userDataDir ?? defaultProfileDir(argv[0]));
}

/**
 * Asks an endpoint for its browser WebSocket URL.
 *
 * @returns The endpoint, or null when nothing answers on that port.
 */
export async function probeEndpoint(port: number, timeoutMs = 3_000): Promise<DevToolsEndpoint | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/json/version`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    const version = await response.json() as { Browser?: string; webSocketDebuggerUrl?: string };
    if (!version.webSocketDebuggerUrl) return null;
    // The URL names the host the browser thinks it is on; we always dial loopback.
    const path = new URL(version.webSocketDebuggerUrl).pathname;
    return {
      host: "127.0.0.1",
      port,
      browserWsUrl: `ws://127.0.0.1:${port}${path}`,
      product: version.Browser ?? "unknown",
    };
  } catch {
    return null;
  }
}
