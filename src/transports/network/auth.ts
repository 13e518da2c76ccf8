/**
 * Who may talk to the network listener: the bearer token (compared in constant
 * time), the bind address, and the Host/Origin checks that stop DNS rebinding.
 *
 * @module
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

/** Token length limits (contract.md §5.6). */
export const MIN_TOKEN_LENGTH = 32;
export const MAX_TOKEN_LENGTH = 4096;

/** A configuration the listener refuses to start with. */
export class NetworkConfigError extends Error {
  override name = "NetworkConfigError";
}

/**
 * Checks a configured token: 32 to 4096 characters, no whitespace or control characters.
 *
 * @throws {NetworkConfigError} naming what is wrong (never the token itself).
 */
export function validateToken(token: string | undefined): string {
  if (token === undefined || token === "") {
    throw new NetworkConfigError(
      "CUA_DRIVER_RS_MCP_HTTP_TOKEN is required when CUA_DRIVER_RS_MCP_HTTP_PORT is set",
    );
  }
  const length = [...token].length;
  if (length < MIN_TOKEN_LENGTH || length > MAX_TOKEN_LENGTH) {
    throw new NetworkConfigError(
      `CUA_DRIVER_RS_MCP_HTTP_TOKEN must be ${MIN_TOKEN_LENGTH} to ${MAX_TOKEN_LENGTH} characters, not ${length}`,
    );
  }
  // deno-lint-ignore no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(token)) {
    throw new NetworkConfigError(
      "CUA_DRIVER_RS_MCP_HTTP_TOKEN must not contain whitespace or control characters",
    );
  }
  return token;
}

/** True for 127.0.0.0/8, ::1, ::ffff:127.x and "localhost" (any case, optional trailing dot). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  if (isIP(bare) === 6) return bare === "::1" || /^::ffff:127\./.test(bare);
  return false;
}

/**
 * Checks the bind address against the token rule.
 *
 * @throws {NetworkConfigError} for a non-loopback bind without a token.
 */
export function checkBind(host: string, token: string | undefined): void {
  if (!isLoopbackHost(host) && !token) {
    throw new NetworkConfigError(`Refusing to listen on non-loopback address "${host}" without a token`);
  }
}

/** Compares a presented credential with the token in constant time (equal-length SHA-256 digests). */
export class BearerAuth {
  readonly #digest: Uint8Array;

  constructor(token: string) {
    this.#digest = sha256(token);
  }

  /** True when `header` is exactly `Bearer <token>` (scheme case-insensitive). */
  check(header: string | string[] | undefined | null): boolean {
    const value = Array.isArray(header) ? header[0] : header;
    const match = /^Bearer[ \t]+(.+)$/i.exec(value?.trim() ?? "");
    // Hash whatever was presented so the timing does not depend on where it differs.
    const presented = sha256(match?.[1] ?? "");
    return timingSafeEqual(presented, this.#digest) && match !== null;
  }
}

function sha256(text: string): Uint8Array {
  return new Uint8Array(createHash("sha256").update(text, "utf8").digest());
}

/**
 * Decides whether a Host (or HTTP/2 :authority) header names this listener: a
 * loopback name or IP with the listening port; for a non-loopback bind, also an
 * IP literal or the bind host itself. Anything else may be a DNS-rebinding page.
 */
export function hostAllowed(header: string | undefined, bindHost: string, port: number): boolean {
  if (!header) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(header.trim());
  if (!match) return false;
  const [, host, portText] = match;
  if (portText !== undefined && Number(portText) !== port) return false;
  if (portText === undefined && port !== 80) return false;
  if (isLoopbackHost(host)) return true;
  if (isLoopbackHost(bindHost)) return false;
  const bare = host.replace(/^\[|\]$/g, "");
  return isIP(bare) !== 0 || bare.toLowerCase() === bindHost.toLowerCase();
}
