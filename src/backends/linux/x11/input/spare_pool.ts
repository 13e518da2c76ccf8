/**
 * Spare keycodes: how characters the layout lacks are typed.
 *
 * The xdotool trick, made safe: a keycode with no symbols at all is bound to the
 * keysym (`XChangeKeyboardMapping`, every column), pressed, and cleared again. Apps
 * read the map when they translate the key event, not when it was sent (GTK re-reads
 * it lazily after a MappingNotify, xkbcommon apps when they process the notify), so a
 * keycode must never be rebound, nor cleared, before the app has processed the key
 * events that used it. {@linkcode SparePool} keeps that book; the keyboard waits on
 * the app (`app_sync.ts`) when the pool says so. The reference implementation has no
 * such wait and drops characters outside the keymap altogether.
 *
 * @module
 */

/** A spare keycode handed out by {@linkcode SparePool.acquire}. */
export interface SpareLease {
  keycode: number;
  /** The mapping must be changed: the keycode is not yet bound to this keysym. */
  bind: boolean;
  /**
   * Wait for the app first: the keycode is being rebound and keys were pressed on it
   * since the last {@linkcode SparePool.barrierPassed}.
   */
  barrier: boolean;
}

/**
 * Bookkeeping for spare keycodes during one action; no X calls. A keysym already
 * bound is reused; otherwise a free keycode is taken, and only when none is left is
 * the least recently used binding replaced (round robin), which needs the app to have
 * caught up if keys were pressed on it since the last barrier. Keycodes held down are
 * never rebound.
 */
export class SparePool {
  readonly #keycodes: readonly number[];
  /** keycode → bound keysym, in least-recently-used-first order. */
  readonly #bound = new Map<number, bigint>();
  /** Keycodes pressed since the last barrier. */
  readonly #pressed = new Set<number>();
  /** Keycodes currently held down. */
  readonly #held = new Set<number>();
  #binds = 0;

  /** @param keycodes Empty keycodes this pool may use. */
  constructor(keycodes: readonly number[]) {
    this.#keycodes = [...keycodes];
  }

  /** How many keycodes the pool has. */
  get size(): number {
    return this.#keycodes.length;
  }

  /** The keycodes of the pool. */
  get keycodes(): readonly number[] {
    return this.#keycodes;
  }

  /** How many times a keycode was (re)bound. */
  get binds(): number {
    return this.#binds;
  }

  /** Current bindings, least recently used first. */
  bindings(): ReadonlyMap<number, bigint> {
    return new Map(this.#bound);
  }

  /** The keycode bound to `keysym`, or null. */
  find(keysym: bigint): number | null {
    for (const [keycode, bound] of this.#bound) if (bound === keysym) return keycode;
    return null;
  }

  /**
   * A keycode for `keysym`, recorded as bound to it (the caller changes the mapping
   * when `bind` is set, after waiting on the app when `barrier` is set). Null when
   * the pool is empty or every keycode is held down.
   */
  acquire(keysym: bigint): SpareLease | null {
    const existing = this.find(keysym);
    if (existing !== null) {
      this.#touch(existing, keysym);
      return { keycode: existing, bind: false, barrier: false };
    }
    const free = this.#keycodes.find((keycode) => !this.#bound.has(keycode));
    if (free !== undefined) {
      this.#touch(free, keysym);
      this.#binds++;
      return { keycode: free, bind: true, barrier: false };
    }
    for (const keycode of this.#bound.keys()) {
      if (this.#held.has(keycode)) continue;
      const barrier = this.#pressed.has(keycode);
      this.#touch(keycode, keysym);
      this.#binds++;
      return { keycode, bind: true, barrier };
    }
    return null;
  }

  #touch(keycode: number, keysym: bigint): void {
    this.#bound.delete(keycode);
    this.#bound.set(keycode, keysym);
  }

  /** Records a key press on a spare keycode (`down`) or its release. */
  pressed(keycode: number, down: boolean): void {
    this.#pressed.add(keycode);
    if (down) this.#held.add(keycode);
    else this.#held.delete(keycode);
  }

  /** True when `keycode` is a spare keycode currently held down. */
  isHeld(keycode: number): boolean {
    return this.#held.has(keycode);
  }

  /** The app has processed every key event sent so far. */
  barrierPassed(): void {
    this.#pressed.clear();
  }

  /** True when clearing the bindings now would race the app (keys pressed since the last barrier). */
  needsBarrier(): boolean {
    for (const keycode of this.#bound.keys()) {
      if (this.#pressed.has(keycode) && !this.#held.has(keycode)) return true;
    }
    return false;
  }

  /**
   * Forgets every binding not held down and returns the keycodes to clear
   * (call after the barrier {@linkcode needsBarrier} asks for).
   */
  release(): number[] {
    const out: number[] = [];
    for (const keycode of [...this.#bound.keys()]) {
      if (this.#held.has(keycode)) continue;
      this.#bound.delete(keycode);
      this.#pressed.delete(keycode);
      out.push(keycode);
    }
    return out;
  }
}
