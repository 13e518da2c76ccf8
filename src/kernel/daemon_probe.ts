/**
 * Is a daemon answering on a socket? One `metadata` request (contract.md §5.4) with a
 * short budget, for health_report. Reads only: no session is opened.
 *
 * @module
 */
import type { LocalConnection, LocalSockets } from "../ports/system.ts";

/** The daemon's address: `$CUA_DRIVER_SOCKET`, else the OS default (`cua-driver.sock` in the cache directory). */
export function defaultSocketPath(sockets: LocalSockets): string {
  return Deno.env.get("CUA_DRIVER_SOCKET") ?? sockets.defaultAddress();
}

/** What {@linkcode probeDaemon} found. */
export interface DaemonProbe {
  socket: string;
  socket_exists: boolean;
  answering: boolean;
  pid: number | null;
  driver_version: string | null;
  permission_mode: string | null;
  /** Why it is not answering, when a socket file exists. */
  error: string | null;
}

let servedSocket: string | null = null;

/**
 * Records the socket this process serves as a daemon (`serve --socket PATH`), so that
 * health_report run inside it looks at that socket and not the default one.
 *
 * @param path The served socket, or null when the daemon stopped.
 */
export function setServedSocket(path: string | null): void {
  servedSocket = path;
}

/** The socket to probe: the one this process serves, else the default one. */
export function probedSocketPath(sockets: LocalSockets): string {
  return servedSocket ?? defaultSocketPath(sockets);
}

/** Sends `metadata` to the daemon on `socketPath` and waits at most `timeoutMs` for the answer. */
export async function probeDaemon(
  sockets: LocalSockets,
  socketPath = probedSocketPath(sockets),
  timeoutMs = 750,
): Promise<DaemonProbe> {
  const probe: DaemonProbe = {
    socket: socketPath,
    socket_exists: false,
    answering: false,
    pid: null,
    driver_version: null,
    permission_mode: null,
    error: null,
  };
  probe.socket_exists = sockets.exists(socketPath);
  if (!probe.socket_exists) return probe;
  let conn: LocalConnection | null = null;
  const timer = setTimeout(() => conn?.close(), timeoutMs);
  try {
    conn = await sockets.connect(socketPath);
    await conn.write(new TextEncoder().encode(JSON.stringify({ id: "health", method: "metadata" }) + "\n"));
    const line = await readLine(conn);
    const response = JSON.parse(line);
    if (response?.ok !== true) throw new Error(String(response?.error ?? "the daemon refused metadata"));
    const result = response.result ?? {};
    probe.answering = true;
    probe.pid = typeof result.pid === "number" ? result.pid : null;
    probe.driver_version = typeof result.driver_version === "string" ? result.driver_version : null;
    probe.permission_mode = typeof result.permission_mode === "string" ? result.permission_mode : null;
  } catch (error) {
    probe.error = error instanceof Deno.errors.BadResource || error instanceof Deno.errors.Interrupted
      ? `no answer within ${timeoutMs} ms`
      : (error as Error).message;
  } finally {
    clearTimeout(timer);
    try {
      conn?.close();
    } catch {
      // Closed by the timer.
    }
  }
  return probe;
}

async function readLine(conn: LocalConnection): Promise<string> {
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(64 * 1024);
  let text = "";
  while (!text.includes("\n")) {
    const n = await conn.read(buffer);
    if (n === null) throw new Error("the daemon closed the connection without answering");
    text += decoder.decode(buffer.subarray(0, n), { stream: true });
  }
  return text.slice(0, text.indexOf("\n"));
}
