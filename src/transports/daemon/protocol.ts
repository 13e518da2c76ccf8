/**
 * The daemon's wire protocol, shared by server and client: newline-delimited
 * JSON over a local socket (a Unix socket; a named pipe on Windows), one request object per line, one response line per
 * request (contract.md §5.4). Requests may carry an `id` the response echoes, so
 * a client can keep several calls in flight on one connection.
 *
 * @module
 */
import type { LocalSockets } from "../../ports/system.ts";

export { defaultSocketPath } from "../../kernel/daemon_probe.ts";

/** A request line. */
export interface DaemonRequest {
  id?: number | string;
  method: string;
  name?: string;
  args?: unknown;
  /** Session label for `call`. */
  session?: string;
  client_kind?: "cli" | "mcp_proxy" | "python_sdk" | "typescript_sdk" | "unknown";
}

/** A response line. */
export interface DaemonResponse {
  id?: number | string;
  ok: boolean;
  result?: unknown;
  error?: string;
  /** Process exit code a CLI should use for a failure. */
  exit_code?: number;
  /** The failure's code, when it has one (`input_too_large` for an oversized request line). */
  code?: string;
}

/** Exit codes the daemon reports (contract.md §5.4). */
export const DaemonExit = { error: 1, usage: 64, badRequest: 65 } as const;

/** The pid file next to a socket. */
export function pidFileFor(socketPath: string): string {
  return socketPath.replace(/\.sock$/, "") + ".pid";
}

/** Longest response line a client reads (screenshots travel base64 in one line). */
export const MAX_RESPONSE_LINE_BYTES = 256 * 1024 * 1024;

/** True when a daemon answers at `address`. */
export async function socketAnswers(sockets: LocalSockets, address: string): Promise<boolean> {
  try {
    (await sockets.connect(address)).close();
    return true;
  } catch {
    return false;
  }
}
