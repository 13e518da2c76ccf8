/**
 * A WebSocket client (RFC 6455, text messages) on a plain TCP socket with `TCP_NODELAY`,
 * for the DevTools protocol. Not the built-in `WebSocket`: Deno 2.9.3's leaves Nagle's algorithm
 * on, and a CDP message of a few KB then waits for the peer's delayed ACK (bench/results.md,
 * "Design measurements"). Here each frame goes out in one write on a no-delay socket.
 *
 * Only what a DevTools endpoint needs: `ws://` URLs, text and binary data frames
 * (fragmented or not), ping/pong and the closing handshake; no extensions.
 *
 * @module
 */

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
const READ_CHUNK = 1 << 16;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The socket could not open, or the peer broke the protocol. */
export class WsError extends Error {
  override name = "WsError";
}

/** An open WebSocket. Messages arrive through `onmessage`, in order. */
export class WsClient {
  /** Called with each complete text (or binary, decoded as UTF-8) message. */
  onmessage: (data: string) => void = () => {};
  /** Called once when the connection is gone, whoever closed it. */
  onclose: () => void = () => {};
  readonly #conn: Deno.TcpConn;
  #writing: Promise<void> = Promise.resolve();
  #closed = false;
  #closeSent = false;
  readonly #done: Promise<void>;

  private constructor(conn: Deno.TcpConn, leftover: Uint8Array) {
    this.#conn = conn;
    this.#done = this.#readLoop(leftover);
  }

  /**
   * Opens `url` (`ws://host:port/path`) and completes the opening handshake.
   *
   * @throws {WsError} when the URL is not `ws://`, the socket cannot open within `timeoutMs`,
   *   or the server refuses the upgrade.
   */
  static async connect(url: string, timeoutMs = 5_000): Promise<WsClient> {
    const parsed = new URL(url);
    if (parsed.protocol !== "ws:") throw new WsError(`Only ws:// URLs are supported, not ${url}`);
    const signal = AbortSignal.timeout(timeoutMs);
    let conn: Deno.TcpConn;
    try {
      conn = await Deno.connect({
        hostname: parsed.hostname.replace(/^\[|\]$/g, ""),
        port: Number(parsed.port || 80),
        signal,
      });
    } catch (error) {
      throw new WsError(`Cannot connect to ${url}: ${(error as Error).message}`, { cause: error });
    }
    // A server that accepts but never answers the upgrade is cut off.
    const timer = setTimeout(() => conn.close(), timeoutMs);
    try {
      conn.setNoDelay(true);
      const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
      await writeAll(
        conn,
        encoder.encode(
          `GET ${parsed.pathname}${parsed.search} HTTP/1.1\r\nHost: ${parsed.host}\r\n` +
            `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\n` +
            `Sec-WebSocket-Version: 13\r\n\r\n`,
        ),
      );
      const { head, rest } = await readHead(conn);
      const [status, ...lines] = head.split("\r\n");
      if (!/^HTTP\/1\.1 101\b/.test(status)) throw new WsError(`${url} refused the upgrade: ${status}`);
      const accept = lines.find((line) => /^sec-websocket-accept:/i.test(line))?.split(":")[1]?.trim();
      if (accept !== await acceptKey(key)) {
        throw new WsError(`${url} answered with a wrong Sec-WebSocket-Accept`);
      }
      clearTimeout(timer);
      return new WsClient(conn, rest);
    } catch (error) {
      clearTimeout(timer);
      try {
        conn.close();
      } catch {
        // Already closed.
      }
      if (error instanceof WsError) throw error;
      throw new WsError(`Cannot open ${url}: ${(error as Error).message}`, { cause: error });
    }
  }

  /** True once the connection is gone. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Sends one text message (dropped silently once closed: `onclose` has said so). */
  send(text: string): void {
    if (this.#closed || this.#closeSent) return;
    this.#write(frame(0x1, encoder.encode(text)));
  }

  /** Starts the closing handshake and resolves once the connection is gone. */
  async close(): Promise<void> {
    if (!this.#closed && !this.#closeSent) {
      this.#closeSent = true;
      this.#write(frame(0x8, new Uint8Array([0x03, 0xe8]))); // 1000: normal closure
      // A peer that never answers the close is cut off.
      const timer = setTimeout(() => this.#shutdown(), 1_000);
      await this.#done;
      clearTimeout(timer);
    }
    await this.#done;
  }

  /** Writes are chained so that frames never interleave. */
  #write(bytes: Uint8Array): void {
    this.#writing = this.#writing.then(() => writeAll(this.#conn, bytes)).catch(() => this.#shutdown());
  }

  #shutdown(): void {
    try {
      this.#conn.close();
    } catch {
      // Already closed.
    }
  }

  async #readLoop(leftover: Uint8Array): Promise<void> {
    let buffer = new Uint8Array(Math.max(READ_CHUNK * 4, leftover.length * 2));
    buffer.set(leftover);
    let start = 0;
    let end = leftover.length;
    const fragments: Uint8Array[] = [];
    try {
      // Frames that came with the handshake wait until the caller has set `onmessage`
      // (a later task: the caller's continuation after connect() runs before it).
      if (end > 0) await new Promise((resolve) => setTimeout(resolve, 0));
      while (true) {
        // Parse every complete frame in the buffer; `want` is the size of an incomplete one.
        let want = 0;
        while (true) {
          const header = parseHeader(buffer, start, end);
          if (header === null) break;
          const payloadEnd = header.payloadAt + header.length;
          if (payloadEnd > end) {
            want = payloadEnd - start;
            break;
          }
          const payload = buffer.subarray(header.payloadAt, payloadEnd);
          start = payloadEnd;
          if (header.opcode >= 0x8) {
            if (header.opcode === 0x8) return; // the peer closes; our close (if any) was sent
            if (header.opcode === 0x9) this.#write(frame(0xa, payload.slice()));
            continue;
          }
          if (!header.fin) {
            fragments.push(payload.slice());
            continue;
          }
          let message: Uint8Array = payload;
          if (fragments.length > 0) {
            fragments.push(payload);
            message = concat(fragments);
            fragments.length = 0;
          }
          this.onmessage(decoder.decode(message));
        }
        if (buffer.length - end < READ_CHUNK || want > buffer.length - start) {
          // Move the unparsed bytes to the front, into a larger buffer when a whole frame
          // (or a full read chunk after them) would not fit.
          const pending = end - start;
          const size = Math.max(want, pending) + READ_CHUNK;
          if (size > buffer.length) {
            const grown = new Uint8Array(Math.max(size, buffer.length * 2));
            grown.set(buffer.subarray(start, end));
            buffer = grown;
          } else buffer.copyWithin(0, start, end);
          start = 0;
          end = pending;
        }
        const read = await this.#conn.read(buffer.subarray(end));
        if (read === null) return;
        end += read;
      }
    } catch {
      // A reset or a closed socket ends the connection like a close frame does.
    } finally {
      this.#closed = true;
      this.#shutdown();
      try {
        this.onclose();
      } catch {
        // The listener's failure must not escape the read loop.
      }
    }
  }
}

/** One frame header at `at`, or null when more bytes are needed. */
function parseHeader(
  buffer: Uint8Array,
  at: number,
  end: number,
): { fin: boolean; opcode: number; length: number; payloadAt: number } | null {
  if (end - at < 2) return null;
  const b0 = buffer[at], b1 = buffer[at + 1];
  if (b1 & 0x80) throw new WsError("The server sent a masked frame");
  let length = b1 & 0x7f;
  let payloadAt = at + 2;
  if (length === 126) {
    if (end - at < 4) return null;
    length = (buffer[at + 2] << 8) | buffer[at + 3];
    payloadAt = at + 4;
  } else if (length === 127) {
    if (end - at < 10) return null;
    const view = new DataView(buffer.buffer, buffer.byteOffset + at + 2, 8);
    length = Number(view.getBigUint64(0));
    payloadAt = at + 10;
  }
  return { fin: (b0 & 0x80) !== 0, opcode: b0 & 0x0f, length, payloadAt };
}

/** A masked client frame (FIN set) holding `payload`, ready to write in one call. */
function frame(opcode: number, payload: Uint8Array): Uint8Array {
  const length = payload.length;
  const extra = length < 126 ? 0 : length < 65536 ? 2 : 8;
  const out = new Uint8Array(2 + extra + 4 + length);
  out[0] = 0x80 | opcode;
  if (extra === 0) out[1] = 0x80 | length;
  else if (extra === 2) {
    out[1] = 0x80 | 126;
    out[2] = length >> 8;
    out[3] = length & 0xff;
  } else {
    out[1] = 0x80 | 127;
    new DataView(out.buffer).setBigUint64(2, BigInt(length));
  }
  const maskAt = 2 + extra;
  const mask = crypto.getRandomValues(out.subarray(maskAt, maskAt + 4));
  const body = out.subarray(maskAt + 4);
  for (let i = 0; i < length; i++) body[i] = payload[i] ^ mask[i & 3];
  return out;
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

/** Reads the HTTP response head; returns it and the bytes after it. */
async function readHead(conn: Deno.Conn): Promise<{ head: string; rest: Uint8Array }> {
  let buffer = new Uint8Array(0);
  const chunk = new Uint8Array(4096);
  while (true) {
    const read = await conn.read(chunk);
    if (read === null) throw new WsError("The server closed the connection during the handshake");
    buffer = concat([buffer, chunk.subarray(0, read)]);
    for (let i = 3; i < buffer.length; i++) {
      if (buffer[i] === 10 && buffer[i - 1] === 13 && buffer[i - 2] === 10 && buffer[i - 3] === 13) {
        return { head: decoder.decode(buffer.subarray(0, i - 3)), rest: buffer.slice(i + 1) };
      }
    }
    if (buffer.length > 65536) throw new WsError("The upgrade answer is too long");
  }
}

async function acceptKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", encoder.encode(key + GUID));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) out.set(part, at), at += part.length;
  return out;
}
