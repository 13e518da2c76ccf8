/**
 * Calls waiting for their reply, keyed by serial, with deadlines served by a single
 * timer (hundreds of pipelined calls cost one timer, not one each).
 *
 * @module
 */
import { DBusError, DBusErrorName } from "./errors.ts";
import type { BodyReader } from "./message.ts";

interface Pending {
  resolve(body: unknown[]): void;
  reject(error: Error): void;
  deadline: number;
  signal?: AbortSignal;
  onAbort?: () => void;
  reply?: BodyReader;
}

/** The reply table of one connection. */
export class PendingCalls {
  readonly #calls = new Map<number, Pending>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;

  /** Number of calls waiting. */
  get size(): number {
    return this.#calls.size;
  }

  /**
   * Registers call `serial`; the promise settles with its reply, or rejects with
   * `Timeout` after `timeoutMs`, or with the signal's reason on abort.
   *
   * @param reply Reads the reply body in place of the generic codec.
   */
  add(serial: number, timeoutMs: number, signal?: AbortSignal, reply?: BodyReader): Promise<unknown[]> {
    return new Promise<unknown[]>((resolve, reject) => {
      const deadline = performance.now() + timeoutMs;
      const pending: Pending = { resolve, reject, deadline };
      if (reply) pending.reply = reply;
      if (signal) {
        pending.signal = signal;
        pending.onAbort = () => {
          this.take(serial);
          reject(signal.reason);
        };
        signal.addEventListener("abort", pending.onAbort, { once: true });
      }
      this.#calls.set(serial, pending);
      if (deadline < this.#timerAt) this.#arm(deadline);
    });
  }

  /** The body reader call `serial` was made with, if it is waiting and has one. */
  replyReader(serial: number): BodyReader | undefined {
    return this.#calls.get(serial)?.reply;
  }

  /** Removes call `serial` and returns its settlers, or undefined when it is not waiting. */
  take(serial: number): Pick<Pending, "resolve" | "reject"> | undefined {
    const pending = this.#calls.get(serial);
    if (!pending) return undefined;
    this.#calls.delete(serial);
    if (pending.onAbort) pending.signal!.removeEventListener("abort", pending.onAbort);
    if (this.#calls.size === 0 && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#timerAt = Infinity;
    }
    return pending;
  }

  /** Rejects every waiting call with `error`. */
  rejectAll(error: Error): void {
    for (const serial of [...this.#calls.keys()]) this.take(serial)?.reject(error);
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, at - performance.now()) + 1);
  }

  #expire(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const [serial, pending] of [...this.#calls]) {
      if (pending.deadline <= now) {
        this.take(serial);
        pending.reject(new DBusError(DBusErrorName.TIMEOUT, `No reply to call ${serial} in time`));
      } else if (pending.deadline < next) next = pending.deadline;
    }
    if (next !== Infinity && this.#timer === undefined) this.#arm(next);
  }
}
