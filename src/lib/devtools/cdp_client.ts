/**
 * A Chrome DevTools Protocol client over one WebSocket: JSON-RPC calls with
 * timeouts, flat-session routing (`sessionId`), and event subscription. The socket is
 * {@linkcode WsClient} (no-delay TCP), not the built-in WebSocket, whose Nagle delays
 * stall mid-sized messages by ~45 ms each (see ws_client.ts).
 *
 * @module
 */
import { WsClient } from "./ws_client.ts";

/** One CDP event. */
export interface CdpEvent {
  method: string;
  // deno-lint-ignore no-explicit-any
  params: Record<string, any>;
  sessionId?: string;
}

/** A CDP call failed: the protocol's error, a timeout, or a closed connection. */
export class CdpError extends Error {
  override name = "CdpError";
  constructor(
    readonly method: string,
    message: string,
    /** The protocol error code; -1 for a timeout, -2 for a closed connection. */
    readonly code: number,
  ) {
    super(`${method}: ${message}`);
  }

  /** True when the connection closed under the call (the browser went away). */
  get disconnected(): boolean {
    return this.code === -2;
  }

  /** True for errors meaning the target or CDP session no longer exists. */
  get targetGone(): boolean {
    return this.disconnected || /No target with given id|Session with given id not found|Target closed/i
      .test(this.message);
  }
}

/** Default time a call may take. */
export const DEFAULT_CALL_TIMEOUT_MS = 10_000;

interface Pending {
  method: string;
  // deno-lint-ignore no-explicit-any
  resolve(value: any): void;
  reject(error: CdpError): void;
  timer: ReturnType<typeof setTimeout>;
}

/** One WebSocket to a browser's DevTools endpoint (`/devtools/browser/<id>`). */
export class CdpConnection {
  readonly #socket: WsClient;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Set<(event: CdpEvent) => void>();
  #nextId = 0;
  #closed = false;
  readonly closedPromise: Promise<void>;

  private constructor(socket: WsClient, readonly url: string) {
    this.#socket = socket;
    let markClosed!: () => void;
    this.closedPromise = new Promise((resolve) => (markClosed = resolve));
    socket.onmessage = (data) => this.#receive(data);
    socket.onclose = () => {
      this.#closed = true;
      for (const [id, pending] of this.#pending) {
        clearTimeout(pending.timer);
        pending.reject(new CdpError(pending.method, "the DevTools connection closed", -2));
        this.#pending.delete(id);
      }
      markClosed();
    };
  }

  /**
   * Opens a connection.
   *
   * @throws {CdpError} code -2 when the socket cannot open within `timeoutMs`.
   */
  static async connect(url: string, timeoutMs = 5_000): Promise<CdpConnection> {
    try {
      return new CdpConnection(await WsClient.connect(url, timeoutMs), url);
    } catch (error) {
      throw new CdpError("connect", `cannot open ${url}: ${(error as Error).message}`, -2);
    }
  }

  /** True once the socket closed. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Sends one command and waits for its result.
   *
   * @throws {CdpError} the protocol error, a timeout (code -1) or a closed connection (code -2).
   */
  // deno-lint-ignore no-explicit-any
  send<T = any>(
    method: string,
    params: Record<string, unknown> = {},
    options: { sessionId?: string; timeoutMs?: number } = {},
  ): Promise<T> {
    if (this.#closed) return Promise.reject(new CdpError(method, "the DevTools connection closed", -2));
    const id = ++this.#nextId;
    return new Promise<T>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new CdpError(method, `no answer within ${timeoutMs} ms`, -1));
      }, timeoutMs);
      this.#pending.set(id, { method, resolve, reject, timer });
      const message: Record<string, unknown> = { id, method, params };
      if (options.sessionId) message.sessionId = options.sessionId;
      this.#socket.send(JSON.stringify(message));
    });
  }

  /** Subscribes to every event; returns the unsubscribe function. */
  on(listener: (event: CdpEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /**
   * Waits for the first event `method` (of `sessionId`, when given) that `accept` admits.
   *
   * @returns The event's params, or null on timeout or a closed connection.
   */
  waitFor(
    method: string,
    options: {
      sessionId?: string;
      timeoutMs: number;
      // deno-lint-ignore no-explicit-any
      accept?: (params: Record<string, any>) => boolean;
    },
    // deno-lint-ignore no-explicit-any
  ): { promise: Promise<Record<string, any> | null>; cancel(): void } {
    // deno-lint-ignore no-explicit-any
    let settle!: (value: Record<string, any> | null) => void;
    // deno-lint-ignore no-explicit-any
    const promise = new Promise<Record<string, any> | null>((resolve) => (settle = resolve));
    const timer = setTimeout(() => done(null), options.timeoutMs);
    const off = this.on((event) => {
      if (event.method !== method) return;
      if (options.sessionId !== undefined && event.sessionId !== options.sessionId) return;
      if (options.accept && !options.accept(event.params)) return;
      done(event.params);
    });
    void this.closedPromise.then(() => done(null));
    // deno-lint-ignore no-explicit-any
    function done(value: Record<string, any> | null) {
      clearTimeout(timer);
      off();
      settle(value);
    }
    return { promise, cancel: () => done(null) };
  }

  /** Closes the socket and waits until it is closed. */
  async close(): Promise<void> {
    if (!this.#closed) await this.#socket.close();
    await this.closedPromise;
  }

  #receive(data: string): void {
    let message: {
      id?: number;
      // deno-lint-ignore no-explicit-any
      result?: any;
      error?: { code: number; message: string; data?: string };
      method?: string;
      // deno-lint-ignore no-explicit-any
      params?: any;
      sessionId?: string;
    };
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (message.id !== undefined) {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.error) {
        const detail = message.error.data ? ` (${message.error.data})` : "";
        pending.reject(new CdpError(pending.method, message.error.message + detail, message.error.code));
      } else pending.resolve(message.result ?? {});
      return;
    }
    if (message.method) {
      const event: CdpEvent = { method: message.method, params: message.params ?? {} };
      if (message.sessionId) event.sessionId = message.sessionId;
      for (const listener of [...this.#listeners]) {
        try {
          listener(event);
        } catch {
          // A listener's bug must not stop the others.
        }
      }
    }
  }
}
