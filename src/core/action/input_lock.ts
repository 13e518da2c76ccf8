/**
 * Admits input one action at a time across every session and transport, so two
 * agents never interleave keystrokes or pointer gestures.
 *
 * @module
 */

/** A FIFO async mutex. */
export class InputLock {
  #tail: Promise<void> = Promise.resolve();
  #depth = 0;

  /** Runs `fn` once every earlier holder has finished. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise((resolve) => (release = resolve));
    this.#depth++;
    try {
      await previous;
      return await fn();
    } finally {
      this.#depth--;
      release();
    }
  }

  /** Actions waiting or running. */
  get depth(): number {
    return this.#depth;
  }
}
