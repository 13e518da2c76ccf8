/**
 * Admits input one action at a time across every session and transport, so two
 * agents never interleave keystrokes or pointer gestures.
 *
 * @module
 */

import { reasonOf, settledOrAborted } from "./call_abort.ts";
import { DriverError } from "../ports/errors.ts";

/** A FIFO async mutex. */
export class InputLock {
  #tail: Promise<void> = Promise.resolve();
  #depth = 0;

  /**
   * Runs `fn` once every earlier holder has finished. A caller whose `signal` aborts while
   * it waits leaves the queue at once (its place is kept until the holder before it is done,
   * so the order of the others never changes).
   *
   * @throws {DriverError} `aborted` when `signal` aborts before `fn` starts.
   */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise((resolve) => (release = resolve));
    this.#depth++;
    let started = false;
    try {
      await settledOrAborted(previous, signal);
      if (signal?.aborted) {
        throw new DriverError(
          "aborted",
          "The call was cancelled while it waited for another action's input",
          {
            reason: reasonOf(signal),
            delivered_count: 0,
          },
        );
      }
      started = true;
      return await fn();
    } finally {
      this.#depth--;
      if (started) release();
      else void previous.then(release);
    }
  }

  /** Actions waiting or running. */
  get depth(): number {
    return this.#depth;
  }
}
