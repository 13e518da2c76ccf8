/**
 * A client of the Wayland wire protocol over the compositor's Unix socket, with libc alone
 * (`ffi/linux/unix_fd.ts`): no libwayland-client. Chosen over libwayland through Deno.dlopen
 * because that needs hand-built `wl_interface`/`wl_message` tables for every extension anyway,
 * runs listeners as re-entrant callbacks inside a blocking dispatch, and adds a library; this
 * client is a few hundred lines, has no callbacks from native code, and mirrors the X11 wire
 * client (`../../linux/x11/wire.ts`).
 *
 * Messages (native byte order, little-endian on every architecture Deno runs on): u32 object id,
 * u32 `size << 16 | opcode`, then 4-aligned arguments (see `protocol.ts`); file descriptors travel
 * as SCM_RIGHTS ancillary data. Objects the server creates (ids >= 0xff000000) get their
 * interface from {@linkcode EVENT_NEW_ID} before their first event is parsed.
 *
 * One reader at a time: every waiter pumps through the same pending read, so concurrent calls
 * on one connection see each other's events.
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";
import { errno, FD, unixFd } from "../../../../ffi/linux/unix_fd.ts";
import { EVENT_NEW_ID, PROTOCOL } from "./protocol.ts";

/** An argument value: numbers for i/u/f/o/n, strings (null for a null string), bytes, fds. */
export type WireArg = number | string | null | Uint8Array | WireFd;

/** A file descriptor argument. */
export interface WireFd {
  fd: number;
}

/** One parsed event. */
export interface WireEvent {
  sender: number;
  iface: string;
  name: string;
  args: WireArg[];
}

/** One global the registry announced. */
export interface WireGlobal {
  name: number;
  iface: string;
  version: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Longest single wait on the socket, so a waiter re-checks its condition. */
const POLL_SLICE_MS = 100;
const MAX_FDS_PER_READ = 28;

function pointerOf(bytes: Uint8Array): bigint {
  return BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(bytes as Uint8Array<ArrayBuffer>)));
}

/** The socket path a WAYLAND_DISPLAY value names (absolute, or relative to XDG_RUNTIME_DIR). */
export function socketPath(display: string, runtimeDir: string | undefined): string | null {
  if (display.startsWith("/")) return display;
  return runtimeDir ? `${runtimeDir}/${display}` : null;
}

/** A connection to one compositor. */
export class WireConnection {
  #fd: number;
  #nextId = 2;
  readonly #objects = new Map<number, string>([[1, "wl_display"]]);
  readonly #handlers = new Map<number, (event: WireEvent) => void>();
  #input: Uint8Array = new Uint8Array(0);
  readonly #fds: number[] = [];
  #reading: Promise<void> | null = null;
  #failure: DriverError | null = null;
  #registry = 0;
  /** The globals, in announcement order. */
  readonly globals: WireGlobal[] = [];

  private constructor(fd: number, readonly path: string) {
    this.#fd = fd;
    this.#handlers.set(1, (event) => {
      if (event.name === "error") {
        const [object, code, message] = event.args;
        this.#failure ??= new DriverError(
          "native_call_failed",
          `Wayland protocol error on object ${object} (${this.#objects.get(object as number) ?? "?"}), ` +
            `code ${code}: ${message}`,
        );
      } else if (event.name === "delete_id") {
        this.#objects.delete(event.args[0] as number);
        this.#handlers.delete(event.args[0] as number);
      }
    });
  }

  /**
   * Connects to the socket at `path` and reads the globals.
   *
   * @throws {DriverError} `display_unavailable` when nothing accepts there.
   */
  static async open(path: string): Promise<WireConnection> {
    const lib = unixFd.symbols;
    const fd = lib.socket(FD.AF_UNIX, FD.SOCK_STREAM | FD.SOCK_CLOEXEC, 0);
    if (fd < 0) throw new DriverError("native_call_failed", `socket() failed: errno ${errno()}`);
    const address = new Uint8Array(110);
    new DataView(address.buffer).setUint16(0, FD.AF_UNIX, true);
    const bytes = encoder.encode(path);
    if (bytes.length >= 108) {
      lib.close(fd);
      throw new DriverError("display_unavailable", `The Wayland socket path is too long: ${path}`);
    }
    address.set(bytes, 2);
    if (lib.connect(fd, address, address.length) !== 0) {
      const code = errno();
      lib.close(fd);
      throw new DriverError(
        "display_unavailable",
        `No Wayland compositor accepts on ${path} (errno ${code})`,
        {
          hint: "check WAYLAND_DISPLAY and XDG_RUNTIME_DIR, or log in to the Wayland session",
        },
      );
    }
    const connection = new WireConnection(fd, path);
    try {
      connection.#registry = connection.newId("wl_registry");
      connection.listen(connection.#registry, (event) => {
        if (event.name !== "global") return;
        const [name, iface, version] = event.args as [number, string, number];
        connection.globals.push({ name, iface, version });
      });
      connection.request(1, "get_registry", [connection.#registry]);
      await connection.roundtrip();
    } catch (error) {
      connection.close();
      throw error;
    }
    return connection;
  }

  /** False once the compositor closed the connection or reported a protocol error. */
  get alive(): boolean {
    return this.#failure === null && this.#fd >= 0;
  }

  /** The advertised version of global `iface`, or 0 when the compositor has none. */
  version(iface: string): number {
    return this.globals.find((g) => g.iface === iface)?.version ?? 0;
  }

  /** A new client-side object id of interface `iface`. */
  newId(iface: string): number {
    const id = this.#nextId++;
    this.#objects.set(id, iface);
    return id;
  }

  /** Sets the event handler of object `id` (one per object). */
  listen(id: number, handler: (event: WireEvent) => void): void {
    this.#handlers.set(id, handler);
  }

  /** Forgets object `id` on this side (after its destructor request). */
  forget(id: number): void {
    this.#handlers.delete(id);
  }

  /**
   * Binds the first global named `iface` at `min(version, advertised)`; null when there is none.
   */
  bind(iface: string, version: number): number | null {
    const global = this.globals.find((g) => g.iface === iface);
    return global ? this.bindGlobal(global, version) : null;
  }

  /** Binds one announced global at `min(version, advertised)`. */
  bindGlobal(global: WireGlobal, version: number): number {
    const id = this.newId(global.iface);
    this.request(this.#registry, "bind", [global.name, global.iface, Math.min(version, global.version), id]);
    return id;
  }

  /**
   * Sends request `name` on object `object`.
   *
   * @throws {TypeError} for a request the object's interface does not have (a programming error).
   * @throws {DriverError} `display_unavailable` when the connection is gone.
   */
  request(object: number, name: string, args: readonly WireArg[]): void {
    this.#check();
    const iface = this.#objects.get(object);
    const requests = iface ? PROTOCOL[iface]?.requests : undefined;
    const opcode = requests?.findIndex(([n]) => n === name) ?? -1;
    if (!requests || opcode < 0) throw new TypeError(`No request ${iface ?? "?"}.${name} (object ${object})`);
    const signature = requests[opcode][1];
    const words: Uint8Array[] = [];
    const fds: number[] = [];
    const u32 = (value: number) => {
      const word = new Uint8Array(4);
      new DataView(word.buffer).setUint32(0, value >>> 0, true);
      words.push(word);
    };
    const array = (bytes: Uint8Array) => {
      u32(bytes.length);
      const padded = new Uint8Array((bytes.length + 3) & ~3);
      padded.set(bytes);
      words.push(padded);
    };
    for (let i = 0; i < signature.length; i++) {
      const arg = args[i];
      switch (signature[i]) {
        case "i":
        case "u":
        case "n":
          u32(arg as number);
          break;
        case "o":
          u32((arg as number | null) ?? 0);
          break;
        case "f":
          u32(Math.round((arg as number) * 256) | 0);
          break;
        case "s": {
          const text = encoder.encode(arg as string);
          const terminated = new Uint8Array(text.length + 1);
          terminated.set(text);
          array(terminated);
          break;
        }
        case "a":
          array(arg as Uint8Array);
          break;
        case "h":
          fds.push((arg as WireFd).fd);
          break;
      }
    }
    const size = 8 + words.reduce((sum, w) => sum + w.length, 0);
    const message = new Uint8Array(size);
    const view = new DataView(message.buffer);
    view.setUint32(0, object, true);
    view.setUint32(4, (size << 16) | opcode, true);
    let offset = 8;
    for (const word of words) {
      message.set(word, offset);
      offset += word.length;
    }
    this.#send(message, fds);
  }

  #send(message: Uint8Array, fds: readonly number[]): void {
    const iov = new Uint8Array(16);
    const iovView = new DataView(iov.buffer);
    iovView.setBigUint64(0, pointerOf(message), true);
    iovView.setBigUint64(8, BigInt(message.length), true);
    // struct msghdr (LP64): name@0 namelen@8 iov@16 iovlen@24 control@32 controllen@40 flags@48.
    const header = new Uint8Array(56);
    const headerView = new DataView(header.buffer);
    headerView.setBigUint64(16, pointerOf(iov), true);
    headerView.setBigUint64(24, 1n, true);
    // struct cmsghdr: len@0 (size_t) level@8 type@12 data@16; CMSG_SPACE(4n) = 16 + align8(4n).
    const control = new Uint8Array(fds.length ? 16 + ((4 * fds.length + 7) & ~7) : 0);
    if (fds.length) {
      const controlView = new DataView(control.buffer);
      controlView.setBigUint64(0, BigInt(16 + 4 * fds.length), true);
      controlView.setInt32(8, FD.SOL_SOCKET, true);
      controlView.setInt32(12, FD.SCM_RIGHTS, true);
      fds.forEach((fd, i) => controlView.setInt32(16 + 4 * i, fd, true));
      headerView.setBigUint64(32, pointerOf(control), true);
      headerView.setBigUint64(40, BigInt(control.length), true);
    }
    const sent = Number(unixFd.symbols.sendmsg(this.#fd, header, 0));
    if (sent !== message.length) {
      this.#fail(`sendmsg() sent ${sent} of ${message.length} bytes (errno ${errno()})`);
      this.#check();
    }
  }

  /**
   * Reads what arrives within `timeoutMs` (at most one slice) and runs the handlers of its events.
   * Callers that wait together share one read.
   */
  #pump(timeoutMs: number): Promise<void> {
    this.#reading ??= this.#read(Math.min(timeoutMs, POLL_SLICE_MS)).finally(() => this.#reading = null);
    return this.#reading;
  }

  async #read(timeoutMs: number): Promise<void> {
    const poll = new Uint8Array(8);
    const pollView = new DataView(poll.buffer);
    pollView.setInt32(0, this.#fd, true);
    pollView.setInt16(4, FD.POLLIN, true);
    const ready = await unixFd.symbols.poll(poll, 1n, Math.max(0, Math.round(timeoutMs)));
    if (ready <= 0) return;
    const data = new Uint8Array(65536);
    const iov = new Uint8Array(16);
    const iovView = new DataView(iov.buffer);
    iovView.setBigUint64(0, pointerOf(data), true);
    iovView.setBigUint64(8, BigInt(data.length), true);
    const control = new Uint8Array(16 + 4 * MAX_FDS_PER_READ + 8);
    const header = new Uint8Array(56);
    const headerView = new DataView(header.buffer);
    headerView.setBigUint64(16, pointerOf(iov), true);
    headerView.setBigUint64(24, 1n, true);
    headerView.setBigUint64(32, pointerOf(control), true);
    headerView.setBigUint64(40, BigInt(control.length), true);
    const received = Number(unixFd.symbols.recvmsg(this.#fd, header, FD.MSG_DONTWAIT | FD.MSG_CMSG_CLOEXEC));
    if (received < 0) {
      const code = errno();
      if (code === FD.EAGAIN || code === FD.EINTR) return;
      this.#fail(`recvmsg() failed (errno ${code})`);
      return;
    }
    if (received === 0) {
      this.#fail("the compositor closed the connection");
      return;
    }
    const controlLength = Number(headerView.getBigUint64(40, true));
    const controlView = new DataView(control.buffer);
    for (let offset = 0; offset + 16 <= controlLength;) {
      const length = Number(controlView.getBigUint64(offset, true));
      if (
        controlView.getInt32(offset + 8, true) === FD.SOL_SOCKET &&
        controlView.getInt32(offset + 12, true) === FD.SCM_RIGHTS
      ) {
        for (let p = offset + 16; p + 4 <= offset + length; p += 4) {
          this.#fds.push(controlView.getInt32(p, true));
        }
      }
      offset += (length + 7) & ~7;
      if (length === 0) break;
    }
    const merged = new Uint8Array(this.#input.length + received);
    merged.set(this.#input);
    merged.set(data.subarray(0, received), this.#input.length);
    this.#input = merged;
    this.#parse();
  }

  #parse(): void {
    while (this.#input.length >= 8) {
      const view = new DataView(this.#input.buffer, this.#input.byteOffset, this.#input.byteLength);
      const sender = view.getUint32(0, true);
      const word = view.getUint32(4, true);
      const size = word >>> 16;
      const opcode = word & 0xffff;
      if (size < 8) {
        this.#fail(`malformed message of ${size} bytes`);
        return;
      }
      if (this.#input.length < size) return;
      const body = this.#input.subarray(8, size);
      this.#input = this.#input.slice(size);
      const iface = this.#objects.get(sender);
      const message = iface ? PROTOCOL[iface]?.events[opcode] : undefined;
      if (!iface || !message) continue; // an object already destroyed here, or an event of a newer version
      const args = this.#decode(iface, message, body);
      this.#handlers.get(sender)?.({ sender, iface, name: message[0], args });
    }
  }

  #decode(iface: string, [name, signature]: readonly [string, string], body: Uint8Array): WireArg[] {
    const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
    const args: WireArg[] = [];
    let p = 0;
    for (const kind of signature) {
      switch (kind) {
        case "i":
          args.push(view.getInt32(p, true));
          p += 4;
          break;
        case "u":
        case "o":
          args.push(view.getUint32(p, true));
          p += 4;
          break;
        case "f":
          args.push(view.getInt32(p, true) / 256);
          p += 4;
          break;
        case "n": {
          const id = view.getUint32(p, true);
          p += 4;
          const child = EVENT_NEW_ID[`${iface}.${name}`];
          if (child) this.#objects.set(id, child);
          args.push(id);
          break;
        }
        case "s": {
          const length = view.getUint32(p, true);
          p += 4;
          args.push(length ? decoder.decode(body.subarray(p, p + length - 1)) : null);
          p += (length + 3) & ~3;
          break;
        }
        case "a": {
          const length = view.getUint32(p, true);
          p += 4;
          args.push(body.slice(p, p + length));
          p += (length + 3) & ~3;
          break;
        }
        case "h":
          args.push({ fd: this.#fds.shift() ?? -1 });
          break;
      }
    }
    return args;
  }

  #fail(reason: string): void {
    this.#failure ??= new DriverError(
      "display_unavailable",
      `Wayland connection to ${this.path}: ${reason}`,
      {
        hint: "the compositor may have exited; the next call connects again",
      },
    );
  }

  #check(): void {
    if (this.#failure) throw this.#failure;
  }

  /**
   * Runs handlers until `done()` is true.
   *
   * @throws {DriverError} `display_unavailable` when the connection is lost; `native_call_failed` on a
   *   protocol error, or naming `what` when `timeoutMs` passes first.
   */
  async dispatchUntil(done: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (!done()) {
      this.#check();
      const left = deadline - performance.now();
      if (left <= 0) {
        throw new DriverError(
          "native_call_failed",
          `The compositor did not answer ${what} in ${timeoutMs} ms`,
        );
      }
      await this.#pump(left);
    }
    this.#check();
  }

  /** wl_display.sync: resolves once the compositor processed every request sent before it. */
  async roundtrip(timeoutMs = 5000): Promise<void> {
    const callback = this.newId("wl_callback");
    let done = false;
    this.listen(callback, () => done = true);
    this.request(1, "sync", [callback]);
    await this.dispatchUntil(() => done, "wl_display.sync", timeoutMs);
  }

  /** Closes the socket. Idempotent. */
  close(): void {
    if (this.#fd < 0) return;
    unixFd.symbols.close(this.#fd);
    this.#fd = -1;
    this.#failure ??= new DriverError("display_unavailable", "The Wayland connection was closed");
    for (const fd of this.#fds.splice(0)) unixFd.symbols.close(fd);
  }
}
