/**
 * Waiting, in one place: sleeps and polls that honour an AbortSignal, over a clock that tests can
 * replace ({@linkcode Clock}), so a wait's logic is tested without waiting and a cancelled call
 * stops waiting at once.
 *
 * @module
 */

/** Time and sleeping: {@linkcode realClock}, or a test's own. */
export interface Clock {
  /** Milliseconds on a monotonic scale. */
  now(): number;
  /** Resolves after `ms`, or rejects with `signal.reason` as soon as it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The process's monotonic clock (`performance.now`) and timers. */
export const realClock: Clock = {
  now: () => performance.now(),
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  },
};

/** How a poll runs. */
export interface PollOptions {
  /** Time between checks, ms (default 10). */
  intervalMs?: number;
  /** Stops the wait: it rejects with the signal's reason. */
  signal?: AbortSignal;
  clock?: Clock;
}

/**
 * Sleeps `ms` on `clock`.
 *
 * @throws the signal's reason when `signal` aborts first
 */
export function sleep(ms: number, options: { signal?: AbortSignal; clock?: Clock } = {}): Promise<void> {
  return (options.clock ?? realClock).sleep(ms, options.signal);
}

/**
 * Checks `check` every `intervalMs` until it holds or `timeoutMs` passes; it is checked once more
 * after the last sleep, so a condition that becomes true at the deadline counts.
 *
 * @returns true when `check` held, false at the timeout
 * @throws the signal's reason when `signal` aborts first
 */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  options: PollOptions = {},
): Promise<boolean> {
  const clock = options.clock ?? realClock;
  const deadline = clock.now() + timeoutMs;
  while (true) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (await check()) return true;
    if (clock.now() >= deadline) return false;
    await clock.sleep(options.intervalMs ?? 10, options.signal);
  }
}

/**
 * Whether `check` holds at every poll for `ms` (and once more at the end).
 *
 * @returns false as soon as a check fails
 * @throws the signal's reason when `signal` aborts first
 */
export async function holdsFor(
  check: () => boolean | Promise<boolean>,
  ms: number,
  options: PollOptions = {},
): Promise<boolean> {
  const clock = options.clock ?? realClock;
  const deadline = clock.now() + ms;
  while (clock.now() < deadline) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (!(await check())) return false;
    await clock.sleep(options.intervalMs ?? 10, options.signal);
  }
  return await check();
}

/**
 * A clock for tests: time moves only when something sleeps on it (each sleep advances it by the
 * sleep's length and resolves at once), so a wait of seconds runs in microseconds.
 */
export class ManualClock implements Clock {
  #now: number;
  /** Every sleep asked for, in order (ms). */
  readonly sleeps: number[] = [];
  constructor(start = 0) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  /** Moves time forward by `ms`. */
  advance(ms: number): void {
    this.#now += ms;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.sleeps.push(ms);
    this.#now += ms;
    return Promise.resolve();
  }
}
