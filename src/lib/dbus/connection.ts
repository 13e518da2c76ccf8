/**
 * A D-Bus connection over a unix socket: pipelined method calls matched to replies
 * by serial, per-call timeouts, signal delivery and clean shutdown.
 *
 * Every message queued in one synchronous run is flushed in a single socket write,
 * so issuing hundreds of calls and awaiting them together costs one write and a few
 * reads rather than one round trip each.
 *
 * @module
 */
import { parseAddress } from "./address.ts";
import { authenticate, currentUid, writeAll } from "./auth.ts";
import { DBusError, DBusErrorName } from "./errors.ts";
import {
  BodyDecodeError,
  type BodyReader,
  decodeMessage,
  encodeMessage,
  type Message,
  MessageFlag,
  messageLength,
  MessageType,
} from "./message.ts";
import { PendingCalls } from "./pending_calls.ts";
import { Writer } from "./writer.ts";

/** A method call to send. */
export interface MethodCall {
  destination?: string;
  path: string;
  interface?: string;
  member: string;
  /** Body signature; omit or `""` for no arguments. */
  signature?: string;
  body?: readonly unknown[];
}

/** Per-call options. */
export interface CallOptions {
  /** Milliseconds before the call fails with `org.freedesktop.DBus.Error.Timeout`. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Reads the reply body in place of the generic codec when the reply has its signature
   * (for big replies: decoded straight into the caller's objects).
   */
  reply?: BodyReader;
}

/** Options of {@linkcode DBusConnection.connect}. */
export interface ConnectOptions {
  /** Budget for connecting, authenticating and `Hello` (default 5000 ms). */
  timeoutMs?: number;
  /** Default per-call timeout (default 25000 ms, as libdbus). */
  callTimeoutMs?: number;
  /** Send `Hello` (true for a message bus, false for a peer-to-peer socket). */
  bus?: boolean;
}

/** Receives every signal that arrives on the connection. */
export type SignalListener = (message: Message) => void;

const READ_CHUNK = 256 * 1024;
const DBUS_NAME = "org.freedesktop.DBus";
const DBUS_PATH = "/org/freedesktop/DBus";

/**
 * One authenticated connection to a bus (or a peer).
 *
 * The socket is unref'd: an idle connection does not keep the process alive, while
 * each outstanding call's timeout does.
 *
 * @example
 * ```ts ignore
 * const bus = await DBusConnection.connect(Deno.env.get("DBUS_SESSION_BUS_ADDRESS")!);
 * const [names] = await bus.call({
 *   destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
 *   interface: "org.freedesktop.DBus", member: "ListNames",
 * });
 * await bus.close();
 * ```
 */
export class DBusConnection {
  readonly #conn: Deno.UnixConn;
  readonly #callTimeoutMs: number;
  readonly #pending = new PendingCalls();
  readonly #listeners = new Set<SignalListener>();
  readonly #out = new Writer(64 * 1024);
  #serial = 0;
  #flushScheduled = false;
  #writing = false;
  #closedError: DBusError | null = null;
  #readLoop: Promise<void> = Promise.resolve();
  #uniqueName = "";

  private constructor(conn: Deno.UnixConn, callTimeoutMs: number) {
    this.#conn = conn;
    this.#callTimeoutMs = callTimeoutMs;
  }

  /**
   * Connects, authenticates with `AUTH EXTERNAL` and (for a bus) says `Hello`.
   *
   * @param address A D-Bus address such as `unix:path=/run/user/1000/bus,guid=...`.
   * @throws {DBusError} `Disconnected` when no socket accepts, `AuthFailed`, `Timeout`.
   */
  static async connect(address: string, options: ConnectOptions = {}): Promise<DBusConnection> {
    const timeoutMs = options.timeoutMs ?? 5000;
    let lastError: unknown = null;
    for (const socket of parseAddress(address)) {
      let conn: Deno.UnixConn;
      try {
        conn = await Deno.connect({ transport: "unix", path: socket.path });
      } catch (error) {
        lastError = error;
        continue;
      }
      const connection = new DBusConnection(conn, options.callTimeoutMs ?? 25000);
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        connection.close();
      }, timeoutMs);
      try {
        await authenticate(conn, currentUid());
        await connection.#begin(options.bus ?? true, timeoutMs);
        return connection;
      } catch (error) {
        await connection.close();
        if (timedOut) {
          throw new DBusError(DBusErrorName.TIMEOUT, `No answer from "${socket.source}" in ${timeoutMs} ms`);
        }
        if (error instanceof DBusError && error.errorName !== DBusErrorName.DISCONNECTED) throw error;
        lastError = error;
      } finally {
        clearTimeout(timer);
      }
    }
    const reason = lastError instanceof Error ? lastError.message : String(lastError);
    throw new DBusError(DBusErrorName.DISCONNECTED, `Cannot connect to "${address}": ${reason}`, {
      cause: lastError,
    });
  }

  async #begin(bus: boolean, timeoutMs: number): Promise<void> {
    await writeAll(this.#conn, new TextEncoder().encode("BEGIN\r\n"));
    this.#readLoop = this.#read();
    this.#conn.unref();
    if (bus) {
      const [name] = await this.call(
        { destination: DBUS_NAME, path: DBUS_PATH, interface: DBUS_NAME, member: "Hello" },
        { timeoutMs },
      );
      this.#uniqueName = name as string;
    }
  }

  /** The unique name the bus assigned (`:1.42`); empty for peer connections. */
  get uniqueName(): string {
    return this.#uniqueName;
  }

  /** True once the connection is closed or broken. */
  get isClosed(): boolean {
    return this.#closedError !== null;
  }

  /** Number of calls waiting for a reply. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /**
   * Sends a method call and resolves with the reply body.
   *
   * @returns The reply's values, one per complete type of its signature.
   * @throws {DBusError} The remote error, or `Timeout` / `Disconnected` locally.
   * @throws {TypeError} When `body` does not fit `signature`.
   */
  call(call: MethodCall, options: CallOptions = {}): Promise<unknown[]> {
    if (this.#closedError) return Promise.reject(this.#closedError);
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const serial = this.#nextSerial();
    try {
      this.#enqueue(methodCallMessage(call, 0, serial));
    } catch (error) {
      return Promise.reject(error); // the arguments do not fit the signature
    }
    return this.#pending.add(serial, options.timeoutMs ?? this.#callTimeoutMs, signal, options.reply);
  }

  /** Sends a method call that expects no reply. */
  send(call: MethodCall): void {
    if (this.#closedError) throw this.#closedError;
    this.#enqueue(methodCallMessage(call, MessageFlag.NO_REPLY_EXPECTED, this.#nextSerial()));
  }

  /**
   * Subscribes to incoming signals. The bus only routes signals matching a rule
   * added with {@linkcode addMatch} (or addressed to us).
   *
   * @returns A function that unsubscribes.
   */
  onSignal(listener: SignalListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Asks the bus to route signals matching `rule` (`"type='signal',interface='...'"`). */
  async addMatch(rule: string): Promise<void> {
    await this.call({
      destination: DBUS_NAME,
      path: DBUS_PATH,
      interface: DBUS_NAME,
      member: "AddMatch",
      signature: "s",
      body: [rule],
    });
  }

  /** Stops routing signals matching `rule` (as added with {@linkcode addMatch}). */
  async removeMatch(rule: string): Promise<void> {
    await this.call({
      destination: DBUS_NAME,
      path: DBUS_PATH,
      interface: DBUS_NAME,
      member: "RemoveMatch",
      signature: "s",
      body: [rule],
    });
  }

  /**
   * Closes the socket, fails every outstanding call with `Disconnected`, and
   * resolves once the reader has stopped.
   */
  async close(): Promise<void> {
    // The pending read is unref'd: ref it, or with nothing else pending the event loop
    // stops before the read's cancellation lands and close() never resolves.
    if (!this.#closedError) this.#conn.ref();
    this.#shutdown(new DBusError(DBusErrorName.DISCONNECTED, "Connection closed"));
    await this.#readLoop;
  }

  #nextSerial(): number {
    this.#serial = this.#serial >= 0xffffffff ? 1 : this.#serial + 1;
    return this.#serial;
  }

  #enqueue(message: Message): void {
    encodeMessage(this.#out, message);
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      queueMicrotask(() => this.#flush());
    }
  }

  async #flush(): Promise<void> {
    this.#flushScheduled = false;
    if (this.#writing || this.#closedError) return;
    this.#writing = true;
    try {
      while (this.#out.pos > 0 && !this.#closedError) {
        const chunk = this.#out.bytes.slice(0, this.#out.pos);
        this.#out.pos = 0;
        await writeAll(this.#conn, chunk);
      }
    } catch (error) {
      this.#shutdown(new DBusError(DBusErrorName.DISCONNECTED, "Write failed", { cause: error }));
    } finally {
      this.#writing = false;
    }
  }

  async #read(): Promise<void> {
    let buf = new Uint8Array(READ_CHUNK);
    let view = new DataView(buf.buffer);
    let start = 0;
    let end = 0;
    try {
      while (!this.#closedError) {
        if (buf.length - end < READ_CHUNK / 4) {
          // Compact, then grow if one message needs more room than we have.
          buf.copyWithin(0, start, end);
          end -= start;
          start = 0;
          const need = end >= 16 ? messageLength(buf, view, 0) : 0;
          if (buf.length - end < READ_CHUNK / 4 || need > buf.length) {
            const grown = new Uint8Array(Math.max(buf.length * 2, need + READ_CHUNK));
            grown.set(buf.subarray(0, end));
            buf = grown;
            view = new DataView(buf.buffer);
          }
        }
        const n = await this.#conn.read(buf.subarray(end));
        if (n === null) throw new DBusError(DBusErrorName.DISCONNECTED, "The bus closed the connection");
        end += n;
        while (end - start >= 16) {
          const length = messageLength(buf, view, start);
          if (end - start < length) break;
          this.#dispatch(buf, start, length);
          start += length;
        }
        if (start === end) start = end = 0;
      }
    } catch (error) {
      this.#shutdown(
        error instanceof DBusError
          ? error
          : new DBusError(DBusErrorName.DISCONNECTED, "Read failed", { cause: error }),
      );
    }
  }

  #dispatch(buf: Uint8Array, at: number, length: number): void {
    let message: Message;
    try {
      message = decodeMessage(buf, at, length, this.#replyReader);
    } catch (error) {
      // A reply we cannot decode fails its call; anything else is dropped.
      const serial = error instanceof BodyDecodeError ? error.header.replySerial : undefined;
      const pending = serial === undefined ? undefined : this.#pending.take(serial);
      pending?.reject(new DBusError(DBusErrorName.BAD_MESSAGE, String(error), { cause: error }));
      return;
    }
    switch (message.type) {
      case MessageType.METHOD_RETURN:
      case MessageType.ERROR: {
        const pending = this.#pending.take(message.replySerial ?? 0);
        if (!pending) return;
        if (message.type === MessageType.METHOD_RETURN) pending.resolve(message.body);
        else {
          const text = typeof message.body[0] === "string" ? message.body[0] : "";
          pending.reject(new DBusError(message.errorName ?? "org.freedesktop.DBus.Error.Failed", text));
        }
        return;
      }
      case MessageType.SIGNAL:
        for (const listener of this.#listeners) {
          try {
            listener(message);
          } catch (error) {
            console.error("D-Bus signal listener threw:", error);
          }
        }
        return;
      case MessageType.METHOD_CALL:
        this.#answer(message);
        return;
    }
  }

  /** The body reader of the call a method return answers, if it was made with one. */
  readonly #replyReader = (header: Message): BodyReader | undefined =>
    header.type === MessageType.METHOD_RETURN && header.replySerial !== undefined
      ? this.#pending.replyReader(header.replySerial)
      : undefined;

  /** We export no objects: answer `Peer.Ping`, refuse everything else. */
  #answer(call: Message): void {
    if (call.flags & MessageFlag.NO_REPLY_EXPECTED || this.#closedError) return;
    const ping = call.interface === "org.freedesktop.DBus.Peer" && call.member === "Ping";
    this.#enqueue({
      type: ping ? MessageType.METHOD_RETURN : MessageType.ERROR,
      flags: MessageFlag.NO_REPLY_EXPECTED,
      serial: this.#nextSerial(),
      replySerial: call.serial,
      destination: call.sender,
      errorName: ping ? undefined : DBusErrorName.UNKNOWN_METHOD,
      signature: ping ? "" : "s",
      body: ping ? [] : [`No method "${call.member}" on "${call.path}"`],
    });
  }

  #shutdown(error: DBusError): void {
    if (this.#closedError) return;
    this.#closedError = error;
    this.#pending.rejectAll(error);
    try {
      this.#conn.close();
    } catch {
      // Already closed.
    }
  }
}

/** The message of a method call. */
function methodCallMessage(call: MethodCall, flags: number, serial: number): Message {
  return {
    type: MessageType.METHOD_CALL,
    flags,
    serial,
    destination: call.destination,
    path: call.path,
    interface: call.interface,
    member: call.member,
    signature: call.signature ?? "",
    body: (call.body ?? []) as unknown[],
  };
}
