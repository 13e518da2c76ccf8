/**
 * A small client of the X11 protocol itself, over the display's socket, for questions a call
 * can ask without loading Xlib: the screen's size and root from the connection setup, and
 * requests with replies (the monitors and the pointer of `wire_screen.ts`). Xlib stays the
 * driver's connection for everything else (costs: bench/results.md, "Design measurements").
 *
 * It speaks only what it needs: a local display (`:N`, `unix:N`) or a TCP one over IPv4
 * (`host:N`), no cookie or an MIT-MAGIC-COOKIE-1 from the authority file, little-endian, replies
 * in order. {@linkcode XWire.connect} resolves null when it cannot connect the way Xlib would (no
 * socket file, an IPv6 peer, another kind of cookie, refused): the caller then uses Xlib, whose
 * errors say why. Like Xlib it waits for a server that accepts and does not answer (no timer:
 * a process's first timer loads Deno's timer code).
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import {
  chooseCookie,
  MIT_COOKIE,
  parseXauthority,
  XauthFamily,
  xauthorityPath,
  type XauthTarget,
} from "./xauthority.ts";

/** The default screen of a display, from the connection setup. */
export interface WireScreen {
  root: number;
  width: number;
  height: number;
  widthMm: number;
  heightMm: number;
}

/** Where a display name points. */
export interface DisplayAddress {
  /** The Unix socket of a local display; null for TCP. */
  socket: string | null;
  /** The TCP host; null for a local display. */
  host: string | null;
  display: number;
  screen: number;
}

/** A protocol error the server answered a request with. */
export class XWireError extends Error {
  constructor(readonly errorCode: number, readonly majorOpcode: number, readonly minorOpcode: number) {
    super(`X protocol error ${errorCode} (request ${majorOpcode}.${minorOpcode})`);
    this.name = "XWireError";
  }
}

const encoder = new TextEncoder();

/**
 * A display name's socket or host (the one parse of a display name: the server-reset retry and
 * the display probe use it too); null for a form this client does not speak (Xlib does).
 */
export function parseDisplayName(name: string): DisplayAddress | null {
  const local = /^(?:unix)?:(\d+)(?:\.(\d+))?$/.exec(name);
  if (local) {
    const display = Number(local[1]);
    return { socket: `/tmp/.X11-unix/X${display}`, host: null, display, screen: Number(local[2] ?? 0) };
  }
  const tcp = /^([A-Za-z0-9][A-Za-z0-9.-]*):(\d+)(?:\.(\d+))?$/.exec(name);
  if (tcp) return { socket: null, host: tcp[1], display: Number(tcp[2]), screen: Number(tcp[3] ?? 0) };
  return null;
}

/** One open connection; requests are sent one batch at a time. */
export class XWire {
  readonly #conn: Deno.Conn;
  readonly #input: Reader;
  #sequence = 0;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;
  readonly #extensions = new Map<string, Promise<number | null>>();

  private constructor(conn: Deno.Conn, input: Reader, readonly name: string, readonly screen: WireScreen) {
    this.#conn = conn;
    this.#input = input;
  }

  /**
   * Connects to `name` as Xlib would (same socket, same cookie); null when this client cannot
   * (see the module comment), never an exception.
   */
  static async connect(
    name: string,
    env: (name: string) => string | undefined = (key) => Deno.env.get(key),
  ): Promise<XWire | null> {
    const address = parseDisplayName(name);
    if (!address) return null;
    let conn: Deno.Conn;
    try {
      conn = address.socket
        ? await Deno.connect({ transport: "unix", path: address.socket })
        : await Deno.connect({ hostname: address.host!, port: 6000 + address.display });
    } catch {
      return null;
    }
    try {
      const target = authTarget(address, conn);
      const cookie = target ? readCookie(target, env) : "unsupported";
      const input = new Reader(conn, name);
      const screen = cookie === "unsupported" ? null : await setup(conn, input, address.screen, cookie);
      if (screen) return new XWire(conn, input, name, screen);
    } catch {
      // Refused, closed or silent: Xlib decides, and says why.
    }
    closeQuietly(conn);
    return null;
  }

  /** False once closed or after the connection failed. */
  get open(): boolean {
    return !this.#closed;
  }

  /**
   * Sends `requests` (each a whole request, every one of which has a reply) in one write and
   * returns their replies in order, each a view of the reply's bytes.
   *
   * @throws {XWireError} when the server answers one with an error.
   */
  async requests(...requests: Uint8Array[]): Promise<DataView[]> {
    const answers = await this.answers(...requests);
    const failure = answers.find((answer) => answer instanceof XWireError);
    if (failure) throw failure;
    return answers as DataView[];
  }

  /**
   * {@linkcode requests}, with the server's error for a request in its place instead of thrown
   * (for a batch whose later requests may be unknown to an older server).
   */
  answers(...requests: Uint8Array[]): Promise<(DataView | XWireError)[]> {
    const run = this.#queue.then(() => this.#exchange(requests));
    this.#queue = run.catch(() => {});
    return run;
  }

  /** The major opcode of extension `name`; null when the server lacks it. Asked once. */
  extension(name: string): Promise<number | null> {
    let known = this.#extensions.get(name);
    if (!known) {
      const bytes = encoder.encode(name);
      const request = new Uint8Array(8 + pad4(bytes.length));
      const view = new DataView(request.buffer);
      request[0] = 98; // QueryExtension
      view.setUint16(2, request.length / 4, true);
      view.setUint16(4, bytes.length, true);
      request.set(bytes, 8);
      known = this.requests(request).then(([reply]) => reply.getUint8(8) ? reply.getUint8(9) : null);
      this.#extensions.set(name, known);
    }
    return known;
  }

  /** The names of `atoms`, in one batch. */
  async atomNames(atoms: readonly number[]): Promise<string[]> {
    if (atoms.length === 0) return [];
    const replies = await this.requests(...atoms.map((atom) => {
      const request = new Uint8Array(8);
      const view = new DataView(request.buffer);
      request[0] = 17; // GetAtomName
      view.setUint16(2, 2, true);
      view.setUint32(4, atom, true);
      return request;
    }));
    const text = new TextDecoder("latin1");
    return replies.map((reply) => {
      const length = reply.getUint16(8, true);
      return text.decode(new Uint8Array(reply.buffer, reply.byteOffset + 32, length));
    });
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeQuietly(this.#conn);
  }

  async #exchange(requests: Uint8Array[]): Promise<(DataView | XWireError)[]> {
    if (this.#closed) throw lost(this.name);
    const batch = new Uint8Array(requests.reduce((sum, request) => sum + request.length, 0));
    const sequences: number[] = [];
    let offset = 0;
    for (const request of requests) {
      batch.set(request, offset);
      offset += request.length;
      this.#sequence = (this.#sequence + 1) & 0xffff;
      sequences.push(this.#sequence);
    }
    try {
      await writeAll(this.#conn, batch);
      return await this.#answers(sequences, requests);
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /** Reads the reply (or error) of each request of the batch; events, none selected, are skipped. */
  async #answers(sequences: number[], requests: Uint8Array[]): Promise<(DataView | XWireError)[]> {
    const replies: (DataView | XWireError)[] = [];
    while (replies.length < sequences.length) {
      const head = await this.#input.peek(32);
      const kind = head.getUint8(0);
      const length = kind === 1 || kind === 35 ? 32 + head.getUint32(4, true) * 4 : 32;
      const packet = await this.#input.take(length);
      const index = sequences.indexOf(packet.getUint16(2, true));
      if (kind === 1 && index === replies.length) replies.push(packet);
      else if (kind === 0 && index === replies.length) {
        const request = requests[index];
        replies.push(new XWireError(packet.getUint8(1), request[0], request[1]));
      }
    }
    return replies;
  }
}

/** Buffered reads of a connection. */
class Reader {
  #buffer = new Uint8Array(4096);
  #filled = 0;

  constructor(readonly conn: Deno.Conn, readonly name: string) {}

  /** A view of the next `length` bytes, left unread (waits until they are there). */
  async peek(length: number): Promise<DataView> {
    if (this.#buffer.length < length) {
      const bigger = new Uint8Array(Math.max(length, this.#buffer.length * 2));
      bigger.set(this.#buffer.subarray(0, this.#filled));
      this.#buffer = bigger;
    }
    while (this.#filled < length) {
      const count = await this.conn.read(this.#buffer.subarray(this.#filled));
      if (count === null) throw lost(this.name);
      this.#filled += count;
    }
    return new DataView(this.#buffer.buffer, 0, length);
  }

  /** The next `length` bytes, as a copy of their own. */
  async take(length: number): Promise<DataView> {
    await this.peek(length);
    const copy = this.#buffer.slice(0, length);
    this.#buffer.copyWithin(0, length, this.#filled);
    this.#filled -= length;
    return new DataView(copy.buffer);
  }
}

/** Sends the connection setup; the requested screen's record, or null when refused or absent. */
async function setup(
  conn: Deno.Conn,
  input: Reader,
  screenNumber: number,
  cookie: Uint8Array | null,
): Promise<WireScreen | null> {
  const authName = cookie ? encoder.encode(MIT_COOKIE) : new Uint8Array(0);
  const authData = cookie ?? new Uint8Array(0);
  const request = new Uint8Array(12 + pad4(authName.length) + pad4(authData.length));
  const view = new DataView(request.buffer);
  request[0] = 0x6c; // 'l': little-endian
  view.setUint16(2, 11, true); // protocol 11.0
  view.setUint16(6, authName.length, true);
  view.setUint16(8, authData.length, true);
  request.set(authName, 12);
  request.set(authData, 12 + pad4(authName.length));
  await writeAll(conn, request);
  const head = await input.peek(8);
  const status = head.getUint8(0);
  const reply = await input.take(8 + head.getUint16(6, true) * 4);
  // 0: refused, 2: the server wants more authentication than a cookie.
  return status === 1 ? setupScreen(reply, screenNumber) : null;
}

/** The default screen's record in a setup reply; null when the display has no such screen. */
function setupScreen(reply: DataView, screenNumber: number): WireScreen | null {
  const vendorLength = reply.getUint16(24, true);
  const screens = reply.getUint8(28);
  const formats = reply.getUint8(29);
  if (screenNumber >= screens) return null;
  let at = 40 + pad4(vendorLength) + formats * 8;
  for (let i = 0; i < screenNumber; i++) {
    const depths = reply.getUint8(at + 39);
    at += 40;
    for (let d = 0; d < depths; d++) at += 8 + reply.getUint16(at + 2, true) * 24;
  }
  return {
    root: reply.getUint32(at, true),
    width: reply.getUint16(at + 20, true),
    height: reply.getUint16(at + 22, true),
    widthMm: reply.getUint16(at + 24, true),
    heightMm: reply.getUint16(at + 26, true),
  };
}

/**
 * How the authority file names this connection, as libxcb does: a Unix socket or the loopback
 * address is the local host by name, another IPv4 address itself; null for IPv6 (left to Xlib).
 */
function authTarget(address: DisplayAddress, conn: Deno.Conn): XauthTarget | null {
  const local = (): XauthTarget => ({
    family: XauthFamily.local,
    address: encoder.encode(Deno.hostname()),
    display: address.display,
  });
  if (address.socket) return local();
  const remote = conn.remoteAddr as Deno.NetAddr;
  const ipv4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(remote.hostname);
  if (!ipv4) return null;
  if (remote.hostname === "127.0.0.1") return local();
  return {
    family: XauthFamily.internet,
    address: new Uint8Array(ipv4.slice(1).map(Number)),
    display: address.display,
  };
}

/** The cookie to present: its bytes, null for none, or "unsupported". */
function readCookie(
  target: XauthTarget,
  env: (name: string) => string | undefined,
): Uint8Array | null | "unsupported" {
  const path = xauthorityPath(env);
  let bytes: Uint8Array;
  try {
    if (!path) return null;
    bytes = Deno.readFileSync(path);
  } catch {
    return null; // no file: connect without a cookie, as Xlib does
  }
  const chosen = chooseCookie(parseXauthority(bytes), target);
  return chosen === "none" ? null : chosen === "unsupported" ? "unsupported" : chosen.data;
}

function lost(name: string): DriverError {
  return new DriverError("display_unavailable", `Lost the connection to X display "${name}"`, {
    hint: "the X server went away; the next call reconnects if it is back",
  });
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await conn.write(bytes.subarray(written));
}

function pad4(length: number): number {
  return (length + 3) & ~3;
}
