/**
 * The X authority file (`$XAUTHORITY`, else `~/.Xauthority`): the cookie a client presents when
 * it connects, chosen as libXau's `XauGetBestAuthByAddr` chooses it for libxcb. Entries are
 * big-endian records: family (u16), then address, display number, auth name and auth data, each
 * a u16 length and its bytes.
 *
 * @module
 */

/** One entry of an authority file. */
export interface XauthEntry {
  family: number;
  address: Uint8Array;
  /** The display number as text; empty matches every display. */
  number: string;
  name: string;
  data: Uint8Array;
}

/** Address families of authority entries (Xauth.h, X.h). */
export const XauthFamily = {
  internet: 0,
  internet6: 6,
  /** A local connection (Unix socket or loopback); the address is the host's name. */
  local: 256,
  /** Matches every address. */
  wild: 65535,
} as const;

/** The only authorization the wire client speaks. */
export const MIT_COOKIE = "MIT-MAGIC-COOKIE-1";
/** What libxcb prefers when an entry of it matches (DES-based; not spoken here). */
const XDM_AUTHORIZATION = "XDM-AUTHORIZATION-1";

/** The entries of an authority file; a truncated last entry is left out, as libXau does. */
export function parseXauthority(bytes: Uint8Array): XauthEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = new TextDecoder("latin1");
  const entries: XauthEntry[] = [];
  let at = 0;
  const field = (): Uint8Array | null => {
    if (at + 2 > bytes.length) return null;
    const length = view.getUint16(at);
    if (at + 2 + length > bytes.length) return null;
    const value = bytes.subarray(at + 2, at + 2 + length);
    at += 2 + length;
    return value;
  };
  while (at + 2 <= bytes.length) {
    const family = view.getUint16(at);
    at += 2;
    const address = field(), number = field(), name = field(), data = field();
    if (!address || !number || !name || !data) break;
    entries.push({ family, address, number: text.decode(number), name: text.decode(name), data });
  }
  return entries;
}

/** What a connection to a display presents: its family and address as the entries spell them. */
export interface XauthTarget {
  family: number;
  address: Uint8Array;
  display: number;
}

/**
 * The cookie to present: the first matching MIT-MAGIC-COOKIE-1 entry, `"none"` when no entry
 * matches (the server may need none), or `"unsupported"` when libxcb would present another kind
 * (XDM-AUTHORIZATION-1), which only Xlib can.
 */
export function chooseCookie(
  entries: readonly XauthEntry[],
  target: XauthTarget,
): XauthEntry | "none" | "unsupported" {
  const display = String(target.display);
  let cookie: XauthEntry | null = null;
  for (const entry of entries) {
    const addressMatches = entry.family === XauthFamily.wild ||
      (entry.family === target.family && sameBytes(entry.address, target.address));
    if (!addressMatches || (entry.number !== "" && entry.number !== display)) continue;
    if (entry.name === XDM_AUTHORIZATION) return "unsupported";
    if (entry.name === MIT_COOKIE) cookie ??= entry;
  }
  return cookie ?? "none";
}

/** The authority file a client reads: `$XAUTHORITY`, else `$HOME/.Xauthority`; null when neither is set. */
export function xauthorityPath(env: (name: string) => string | undefined): string | null {
  const explicit = env("XAUTHORITY");
  if (explicit) return explicit;
  const home = env("HOME");
  return home ? `${home}/.Xauthority` : null;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
