/**
 * The SASL handshake that opens a D-Bus connection (EXTERNAL mechanism).
 *
 * @module
 */
import { DBusError, DBusErrorName } from "./errors.ts";

const ASCII = new TextEncoder();
const LATIN1 = new TextDecoder("latin1");

/** Hex-encodes the ASCII decimal uid, as AUTH EXTERNAL expects ("0" → "30"). */
export function hexUid(uid: number): string {
  return [...String(uid)].map((c) => c.charCodeAt(0).toString(16)).join("");
}

/** The effective uid when the runtime lets us read it, else null. */
export function currentUid(): number | null {
  try {
    return Deno.uid();
  } catch {
    try {
      const status = Deno.readTextFileSync("/proc/self/status");
      const match = /^Uid:\s+\d+\s+(\d+)/m.exec(status);
      return match ? Number(match[1]) : null;
    } catch {
      return null;
    }
  }
}

/**
 * Runs `AUTH EXTERNAL` on a fresh socket, up to and excluding `BEGIN` (the caller
 * sends `BEGIN` together with its first message).
 *
 * @returns The server GUID from the `OK` line.
 * @throws {DBusError} `AuthFailed` when the server rejects us or hangs up.
 */
export async function authenticate(conn: Deno.Conn, uid: number | null): Promise<string> {
  // Without a uid, send an empty EXTERNAL response; the server takes the socket credentials.
  const initial = uid === null ? "AUTH EXTERNAL\r\n" : `AUTH EXTERNAL ${hexUid(uid)}\r\n`;
  await writeAll(conn, ASCII.encode("\0" + initial));
  const reader = new LineReader(conn);
  for (let round = 0; round < 4; round++) {
    const line = await reader.line();
    if (line.startsWith("OK ")) return line.slice(3).trim();
    if (line.startsWith("DATA")) {
      await writeAll(conn, ASCII.encode("DATA\r\n"));
      continue;
    }
    throw new DBusError(DBusErrorName.AUTH_FAILED, `Server refused AUTH EXTERNAL: "${line}"`);
  }
  throw new DBusError(DBusErrorName.AUTH_FAILED, "Authentication did not finish");
}

/** Writes every byte of `bytes`. */
export async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) off += await conn.write(bytes.subarray(off));
}

/** Reads CRLF-terminated lines one byte-chunk at a time (the server sends nothing unasked). */
class LineReader {
  #buf = "";
  constructor(private readonly conn: Deno.Conn) {}

  async line(): Promise<string> {
    const chunk = new Uint8Array(512);
    while (!this.#buf.includes("\r\n")) {
      const n = await this.conn.read(chunk);
      if (n === null) {
        throw new DBusError(DBusErrorName.AUTH_FAILED, "Server closed the connection during auth");
      }
      this.#buf += LATIN1.decode(chunk.subarray(0, n));
      if (this.#buf.length > 16384) throw new DBusError(DBusErrorName.AUTH_FAILED, "Auth line is too long");
    }
    const end = this.#buf.indexOf("\r\n");
    const line = this.#buf.slice(0, end);
    this.#buf = this.#buf.slice(end + 2);
    return line;
  }
}
