/**
 * Test doubles for the keyboard layer: a small US-like keyboard mapping that records
 * binds, a key-event recorder and a counting app barrier. One shared log orders
 * binds, key events and barriers, so tests can check that no spare keycode is
 * rebound before the app caught up.
 *
 * @module
 */
import type { AppBarrier, BarrierOutcome } from "./app_sync.ts";
import type { KeyboardChannel, KeyboardState, KeyEventSink } from "./key_sink.ts";
import type { KeyboardMapping, KeymapBackend } from "./keymap.ts";

/** One entry of the shared log. */
export type LogEntry =
  | { kind: "bind"; keycode: number; keysym: bigint }
  | { kind: "key"; channel: string; keycode: number; down: boolean }
  | { kind: "barrier"; window: bigint | null }
  | { kind: "sync" };

const MIN = 8, MAX = 140, PER = 7;

/** Keysym rows of the fake layout (columns 0, 1, 4, 5 as the X server flattens XKB). */
export const FAKE_ROWS: Record<number, [number, number, number?, number?]> = {
  9: [0xff1b, 0], // Escape
  10: [0x31, 0x21], // 1 !
  11: [0x32, 0x40], // 2 @
  22: [0xff08, 0], // BackSpace
  23: [0xff09, 0xfe20], // Tab ISO_Left_Tab
  24: [0x71, 0x51], // q Q
  26: [0x65, 0x45, 0x20ac, 0], // e E EuroSign
  36: [0xff0d, 0], // Return
  37: [0xffe3, 0], // Control_L
  38: [0x61, 0x41], // a A
  43: [0x68, 0x48], // h H
  45: [0x6b, 0x4b], // k K
  50: [0xffe1, 0], // Shift_L
  64: [0xffe9, 0xffe7], // Alt_L Meta_L
  65: [0x20, 0], // space
  66: [0xffe5, 0], // Caps_Lock
  92: [0xfe03, 0], // ISO_Level3_Shift
  94: [0x3c, 0x3e, 0x7c, 0xa6], // < > | ¦
  110: [0xff50, 0], // Home
  111: [0xff52, 0], // Up
  133: [0xffeb, 0], // Super_L
};

/** Keycodes of the modifier map rows: Shift, Lock, Control, Mod1, Mod2, Mod3, Mod4, Mod5. */
export const FAKE_MODIFIERS = [[50], [66], [37], [64], [], [], [133], [92]];

/** Builds the fake mapping, with `extra` rows (all seven columns) on top. */
export function fakeMapping(extra: Record<number, bigint[]> = {}): KeyboardMapping {
  const keysyms = new BigUint64Array((MAX - MIN + 1) * PER);
  for (const [keycode, [c0, c1, c4, c5]] of Object.entries(FAKE_ROWS)) {
    const base = (Number(keycode) - MIN) * PER;
    // Group 2 repeats group 1, as with a one-group layout.
    keysyms.set([c0, c1, c0, c1, c4 ?? 0, c5 ?? 0, 0].map(BigInt), base);
  }
  for (const [keycode, row] of Object.entries(extra)) keysyms.set(row, (Number(keycode) - MIN) * PER);
  return { minKeycode: MIN, maxKeycode: MAX, keysymsPerKeycode: PER, keysyms, modifiers: FAKE_MODIFIERS };
}

/** A keymap backend over {@linkcode fakeMapping} that applies and logs binds. */
export class FakeKeymapBackend implements KeymapBackend {
  readonly bound = new Map<number, bigint>();
  reads = 0;

  constructor(readonly log: LogEntry[] = [], readonly extra: Record<number, bigint[]> = {}) {}

  read(): KeyboardMapping {
    this.reads++;
    const mapping = fakeMapping(this.extra);
    for (const [keycode, keysym] of this.bound) {
      mapping.keysyms.fill(keysym, (keycode - MIN) * PER, (keycode - MIN + 1) * PER);
    }
    return mapping;
  }

  /** How many bind requests were made (each would be one MappingNotify). */
  requests = 0;

  bind(bindings: readonly (readonly [number, bigint])[]): void {
    if (bindings.length === 0) return;
    this.requests++;
    for (const [keycode, keysym] of bindings) {
      if (keysym === 0n) this.bound.delete(keycode);
      else this.bound.set(keycode, keysym);
      this.log.push({ kind: "bind", keycode, keysym });
    }
  }
}

/** Records key events; can be told to throw on one. */
export class RecordingSink implements KeyEventSink {
  state_: KeyboardState = { group: 0, capsLock: false };
  focusWindow: bigint | null = 0x400003n;
  /** Throws this error on the key event for which it returns true. */
  failOn: ((keycode: number, down: boolean, index: number) => boolean) | null = null;
  #count = 0;

  constructor(readonly log: LogEntry[] = []) {}

  key(channel: KeyboardChannel, keycode: number, down: boolean): void {
    const index = this.#count++;
    if (this.failOn?.(keycode, down, index)) throw new Error(`injected failure on keycode ${keycode}`);
    this.log.push({ kind: "key", channel: channel.kind, keycode, down });
  }

  flush(): void {}

  sync(): void {
    this.log.push({ kind: "sync" });
  }

  state(): KeyboardState {
    return this.state_;
  }

  focus(): bigint | null {
    return this.focusWindow;
  }

  /** Key events as `"50+"` (down) and `"50-"` (up). */
  keys(): string[] {
    return this.log.flatMap((e) => e.kind === "key" ? [`${e.keycode}${e.down ? "+" : "-"}`] : []);
  }
}

/** Counts barrier waits and logs them. */
export class CountingBarrier implements AppBarrier {
  waits = 0;
  closed = false;

  constructor(readonly log: LogEntry[] = []) {}

  wait(window: bigint | null): Promise<BarrierOutcome> {
    this.waits++;
    this.log.push({ kind: "barrier", window });
    return Promise.resolve("pong");
  }

  close(): void {
    this.closed = true;
  }
}

/**
 * Replays a log as an app would see it and returns what it typed: each key press is
 * translated with the binding the app reads for that keycode, which is the current
 * one if no barrier has passed since (a lazily re-reading app sees the latest map).
 * Throws when a keycode was rebound or cleared between a press on it and the next
 * barrier, which is the race that loses characters.
 */
export function checkNoRace(log: readonly LogEntry[]): void {
  const pressedSinceBarrier = new Set<number>();
  for (const entry of log) {
    if (entry.kind === "barrier") pressedSinceBarrier.clear();
    if (entry.kind === "key" && entry.down) pressedSinceBarrier.add(entry.keycode);
    if (entry.kind === "bind" && pressedSinceBarrier.has(entry.keycode)) {
      throw new Error(`keycode ${entry.keycode} was rebound before the app caught up`);
    }
  }
}
