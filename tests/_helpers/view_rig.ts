/**
 * The live view's test rig: `cua-driver serve` with its network listener (MCP at /mcp, the view
 * at /view), an MCP client over streamable HTTP (the official SDK), and a headless Chromium
 * with its own DevTools port, driven through the independent CDP oracle.
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startDaemon } from "./daemon.ts";
import { driverEnv } from "./driver.ts";
import { freePort } from "./free_port.ts";

export { freePort };

/** The listener's token in these tests. */
export const VIEW_TOKEN = "live-view-token-0123456789abcdefghijklmnopq";

/**
 * fetch() on a connection pool of its own: requests to /view must not leave pooled connections
 * the MCP client's next request could pick up (over HTTP a TCP connection is an MCP session).
 */
const viewClient = Deno.createHttpClient({});
export function viewFetch(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, client: viewClient } as RequestInit);
}

/** A running serve with its listener. */
export interface ViewServer extends AsyncDisposable {
  readonly port: number;
  readonly base: string;
  /** The live-view URL serve printed on stderr. */
  readonly printedUrl: string;
  readonly socket: string;
  readonly env: Record<string, string>;
  /** An MCP client over HTTP, connected. */
  readonly mcp: Client;
}

/** Starts serve with MCP over HTTP and connects an MCP client. */
export async function startViewServer(): Promise<ViewServer> {
  const port = freePort();
  const env = driverEnv({
    CUA_DRIVER_RS_MCP_HTTP_PORT: String(port),
    CUA_DRIVER_RS_MCP_HTTP_TOKEN: VIEW_TOKEN,
  });
  const serve = await startDaemon([], env);
  const printed = /live view: (\S+)/.exec(serve.log)?.[1];
  if (!printed) throw new Error(`serve printed no live-view URL: ${serve.log}`);
  const mcp = new Client({ name: "cua-view-test", version: "1.0.0" });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${VIEW_TOKEN}` } },
    }),
  );
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    printedUrl: printed,
    socket: serve.socket,
    env,
    mcp,
    async [Symbol.asyncDispose]() {
      await mcp.close().catch(() => {});
      await serve.stop();
    },
  };
}

/** A headless Chromium with a DevTools port. */
export interface HeadlessChromium extends AsyncDisposable {
  readonly cdpPort: number;
}

/**
 * Starts Debian's Chromium headless on a new profile, with the flags this closed network needs,
 * showing `url` (a file: URL must be given here: DevTools may not open one in a new tab).
 */
export async function startChromium(url = "about:blank"): Promise<HeadlessChromium> {
  const cdpPort = freePort();
  const profile = await Deno.makeTempDir({ prefix: "cua-view-chromium-" });
  const child = new Deno.Command("/usr/bin/chromium", {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
      `--remote-debugging-port=${cdpPort}`,
      "--window-size=1400,900",
      url,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${cdpPort}/json/version`);
      await response.body?.cancel();
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    const exited = await Promise.race([child.status.then(() => true), delay(50).then(() => false)]);
    if (exited) throw new Error("chromium exited before its DevTools port answered");
  }
  return {
    cdpPort,
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
      await child.status;
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

/** Waits `ms` (only between polls of a condition). */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it returns a value other than undefined/false; throws with `what` after `limitMs`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  limitMs = 15_000,
): Promise<T> {
  const deadline = performance.now() + limitMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value as T;
    } catch (error) {
      last = error;
    }
    if (performance.now() > deadline) {
      throw new Error(`Timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
    }
    await delay(25);
  }
}
