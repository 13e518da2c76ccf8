/**
 * D-Bus server addresses (`unix:path=/run/user/1000/bus,guid=...`).
 *
 * @module
 */

/** A connectable socket: a filesystem path or an abstract-namespace name. */
export interface SocketAddress {
  /** Path for `Deno.connect({ transport: "unix" })`; abstract names start with NUL. */
  path: string;
  /** The address entry it came from, for messages. */
  source: string;
}

/**
 * Parses an address string into the unix sockets it names, in order of preference.
 * Entries are separated by `;`; keys other than `path` and `abstract` (such as
 * `guid`) are ignored, and so are transports other than `unix`.
 *
 * @example
 * ```ts
 * import { parseAddress } from "./address.ts";
 * parseAddress("unix:abstract=/tmp/dbus-x,guid=1f"); // [{ path: "\0/tmp/dbus-x", ... }]
 * ```
 * @throws {TypeError} When no entry names a unix socket.
 */
export function parseAddress(address: string): SocketAddress[] {
  const out: SocketAddress[] = [];
  for (const entry of address.split(";")) {
    const colon = entry.indexOf(":");
    if (colon < 0 || entry.slice(0, colon) !== "unix") continue;
    const keys = new Map<string, string>();
    for (const pair of entry.slice(colon + 1).split(",")) {
      const eq = pair.indexOf("=");
      if (eq > 0) keys.set(pair.slice(0, eq), unescape(pair.slice(eq + 1)));
    }
    const path = keys.get("path");
    const abstract = keys.get("abstract");
    if (path !== undefined) out.push({ path, source: entry });
    else if (abstract !== undefined) out.push({ path: "\0" + abstract, source: entry });
  }
  if (out.length === 0) throw new TypeError(`No unix socket in D-Bus address "${address}"`);
  return out;
}

/** Undoes the address `%xx` escaping (on bytes, so multi-byte UTF-8 survives). */
function unescape(value: string): string {
  if (!value.includes("%")) return value;
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    if (value[i] === "%" && /^[0-9a-fA-F]{2}$/.test(value.slice(i + 1, i + 3))) {
      bytes.push(parseInt(value.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      for (const b of new TextEncoder().encode(value[i])) bytes.push(b);
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The session bus address from `DBUS_SESSION_BUS_ADDRESS`, or null when unset. */
export function sessionBusAddress(): string | null {
  return Deno.env.get("DBUS_SESSION_BUS_ADDRESS") || null;
}
