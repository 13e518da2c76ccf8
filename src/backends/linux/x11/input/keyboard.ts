/**
 * The X11 keyboard: key presses, combos and text through XTEST, on one of two
 * channels.
 *
 * - The **core** channel (`XTestFakeKeyEvent`) types into whatever holds the core
 *   input focus: the foreground transaction and desktop scope.
 * - A **device** channel (`XTestFakeDeviceKeyEvent` on an `XDevice*`) types through the
 *   XTEST keyboard slave of a second XInput2 master, into the window that master's
 *   keyboard is focused on (`XISetFocus`), leaving the core focus alone.
 *
 * Both channels read keycodes with the core keyboard map: apps translate every key
 * event with the core map (GTK's GdkKeymap and xkbcommon-x11 read the core keyboard's
 * map whatever device sent the key), so a spare keycode bound in the core map types
 * the same character through the agent's device; e2e-tested on GTK3. The agent
 * device's own XKB state only decides modifiers, so AltGr (level 3) is used on the
 * core channel only; on a device channel, characters on AltGr levels go through
 * spare keycodes instead, which need no modifier.
 *
 * Every key this class presses is recorded per channel until released; a failure
 * halfway through a combo or a text releases what it pressed, and
 * {@linkcode X11Keyboard.releaseAll} releases the rest.
 *
 * @module
 */
import { abortedPartway, pause } from "../../../../kernel/call_abort.ts";
import { DriverError } from "../../../../ports/errors.ts";
import { type KeySpec, type Modifier, modifierOf, parseKey } from "../../../../lib/keys/key_names.ts";
import type { XConnection } from "../connection.ts";
import { type AppBarrier, type BarrierOutcome, PingBarrier } from "./app_sync.ts";
import {
  CORE_KEYBOARD,
  type KeyboardChannel,
  type KeyboardState,
  type KeyEventSink,
  X11KeySink,
} from "./key_sink.ts";
import { Keymap, type KeyPosition } from "./keymap.ts";
import { SparePool } from "./spare_pool.ts";
import { chunkBySpares, planText, spareKeysyms } from "./type_plan.ts";

export { CORE_KEYBOARD, deviceKeyboard, type KeyboardChannel, X11KeySink } from "./key_sink.ts";

/** Options of {@linkcode X11Keyboard.typeText}. */
export interface TypeTextOptions {
  /** Pause after each character, in ms; default 0 (as fast as the server takes them). */
  delayMs?: number;
  /** The window being typed into, for the app barrier; default: the channel's focus. */
  window?: bigint;
  /** Stops between characters; keys already pressed are released. */
  signal?: AbortSignal;
}

/** What {@linkcode X11Keyboard.typeText} did. */
export interface TypeTextResult {
  /** Characters (grapheme clusters) sent in full. */
  delivered: number;
  /** Characters that could not be typed (control characters, no spare keycode left). */
  missing: string[];
  /** How many times a spare keycode was bound to a keysym the layout lacks. */
  remapped: number;
  /** How the app barriers before rebinding or clearing spare keycodes were passed. */
  barriers: BarrierOutcome[];
}

/** Options of {@linkcode X11Keyboard.open}. */
export interface X11KeyboardOptions {
  /** Most spare keycodes used at once; default 32 (in practice, every empty keycode). */
  spareLimit?: number;
  /** Replaces the `_NET_WM_PING` barrier. */
  barrier?: AppBarrier;
}

/** One key held down by this class. */
interface HeldKey {
  keycode: number;
  /** The key (down/up by spec) that pressed this modifier for its own level. */
  owner: number | null;
  /** The spec it was pressed for (down/up), for matching the release. */
  spec: string | null;
}

const DEFAULT_SPARE_LIMIT = 32;
/** Characters typed between two waits for the app (see X11Keyboard.#pace). */
export const PACE_CHARACTERS = 16;
/** Longest wait for the app at each pace point. */
const PACE_WAIT_MS = 250;
const MODIFIER_NAMES = new Set<string>(["ctrl", "shift", "alt", "super"]);

function specId(spec: KeySpec): string {
  return spec.kind === "named" ? `named:${spec.name}` : `char:${spec.char}`;
}

function channelId(channel: KeyboardChannel): string {
  return channel.kind === "core" ? "core" : `device:${Deno.UnsafePointer.value(channel.device)}`;
}

function toModifier(name: string): Modifier {
  const modifier = MODIFIER_NAMES.has(name) ? name as Modifier : modifierOf(name);
  if (!modifier) {
    throw new DriverError("invalid_arguments", `Unknown modifier "${name}"`, {
      field: "modifiers",
      hint: "use ctrl, shift, alt or super",
    });
  }
  return modifier;
}

/**
 * Key presses, combos and text on the core keyboard or an XTEST device.
 *
 * @example
 * ```ts ignore
 * using keyboard = X11Keyboard.open(conn);
 * await keyboard.press(CORE_KEYBOARD, "k", ["ctrl", "shift"]);
 * const { delivered } = await keyboard.typeText(CORE_KEYBOARD, "Héllo Ωμέγα 日本語 🎉");
 * ```
 */
export class X11Keyboard implements Disposable {
  readonly #keymap: Keymap;
  readonly #sink: KeyEventSink;
  readonly #barrier: AppBarrier;
  readonly #spareLimit: number;
  readonly #held = new Map<string, Map<number, HeldKey>>();
  readonly #channels = new Map<string, KeyboardChannel>();
  #pool: SparePool | null = null;
  /** Windows that received keys on spare keycodes since the last barrier. */
  readonly #pending = new Set<bigint | null>();
  #barriers: BarrierOutcome[] = [];

  constructor(parts: { keymap: Keymap; sink: KeyEventSink; barrier: AppBarrier; spareLimit?: number }) {
    this.#keymap = parts.keymap;
    this.#sink = parts.sink;
    this.#barrier = parts.barrier;
    this.#spareLimit = parts.spareLimit ?? DEFAULT_SPARE_LIMIT;
  }

  /** A keyboard on the X server behind `conn` (reads the keymap now). */
  static open(conn: XConnection, options: X11KeyboardOptions = {}): X11Keyboard {
    return new X11Keyboard({
      keymap: Keymap.forConnection(conn),
      sink: new X11KeySink(conn),
      barrier: options.barrier ?? new PingBarrier(conn.name),
      spareLimit: options.spareLimit,
    });
  }

  /** The keymap in use. */
  get keymap(): Keymap {
    return this.#keymap;
  }

  /** Keycodes this class holds down on a channel, in press order. */
  held(channel: KeyboardChannel): number[] {
    return [...(this.#held.get(channelId(channel))?.keys() ?? [])];
  }

  /**
   * Forgets a channel's held keys without sending anything: for a device whose
   * `XDevice*` is about to be closed (call {@linkcode releaseAll} first when it can still type).
   */
  forget(channel: KeyboardChannel): void {
    const id = channelId(channel);
    this.#held.delete(id);
    this.#channels.delete(id);
  }

  /** Spare keycodes currently bound (held spare keys keep theirs until released). */
  spareBindings(): ReadonlyMap<number, bigint> {
    return this.#pool?.bindings() ?? new Map();
  }

  #heldOf(channel: KeyboardChannel): Map<number, HeldKey> {
    const id = channelId(channel);
    let held = this.#held.get(id);
    if (!held) {
      this.#held.set(id, held = new Map());
      this.#channels.set(id, channel);
    }
    return held;
  }

  #down(
    channel: KeyboardChannel,
    keycode: number,
    owner: number | null = null,
    spec: string | null = null,
  ): void {
    this.#sink.key(channel, keycode, true);
    this.#heldOf(channel).set(keycode, { keycode, owner, spec });
    if (this.#pool?.keycodes.includes(keycode)) this.#pool.pressed(keycode, true);
  }

  #up(channel: KeyboardChannel, keycode: number): void {
    this.#heldOf(channel).delete(keycode);
    this.#sink.key(channel, keycode, false);
    if (this.#pool?.keycodes.includes(keycode)) this.#pool.pressed(keycode, false);
  }

  /** Re-reads the keymap before an action, unless spare keycodes are bound (it would hide them). */
  #prepare(): void {
    if (this.#pool && this.#pool.bindings().size > 0) return;
    this.#keymap.refresh();
    this.#pool = null;
  }

  #spares(): SparePool {
    this.#pool ??= new SparePool(this.#keymap.emptyKeycodes(this.#spareLimit));
    return this.#pool;
  }

  #modifierKeycode(modifier: Modifier | "level3"): number {
    const keycode = this.#keymap.modifierKeycode(modifier);
    if (keycode === null) {
      throw new DriverError("unsupported_platform", `The keyboard map has no ${modifier} key`, {
        hint: "the X keyboard layout lacks this modifier; check setxkbmap",
      });
    }
    return keycode;
  }

  /** Waits until every app that got keys on spare keycodes has processed them. */
  async #waitForApps(): Promise<void> {
    this.#sink.sync();
    const windows = [...this.#pending];
    this.#pending.clear();
    for (const window of windows) this.#barriers.push(await this.#barrier.wait(window));
    this.#pool?.barrierPassed();
  }

  /**
   * Binds spare keycodes to keysyms the layout lacks, all in one request, after waiting
   * on the apps if a keycode they may still be reading must be rebound. Returns the
   * keycode of each keysym it placed (none when the pool is empty or all held).
   */
  async #bindSpares(keysyms: readonly bigint[]): Promise<Map<bigint, number>> {
    const pool = this.#spares();
    const placed = new Map<bigint, number>();
    const batch: [number, bigint][] = [];
    for (const keysym of keysyms.slice(0, pool.size)) {
      const lease = pool.acquire(keysym);
      if (!lease) continue;
      if (lease.barrier) await this.#waitForApps();
      if (lease.bind) batch.push([lease.keycode, keysym]);
      placed.set(keysym, lease.keycode);
    }
    this.#keymap.backend.bind(batch);
    return placed;
  }

  /** The spare keycode for one keysym (see {@linkcode #bindSpares}); null when none is free. */
  async #spareFor(keysym: bigint): Promise<number | null> {
    return (await this.#bindSpares([keysym])).get(keysym) ?? null;
  }

  /** Clears the spare keycodes no held key uses, after the apps caught up. */
  async #settleSpares(): Promise<void> {
    const pool = this.#pool;
    if (!pool || pool.bindings().size === 0) return;
    if (pool.needsBarrier()) await this.#waitForApps();
    this.#keymap.backend.bind(pool.release().map((keycode) => [keycode, 0n] as const));
    this.#sink.sync();
  }

  /** Where a key is, or a spare keycode bound to it; throws when it cannot be pressed. */
  async #locate(channel: KeyboardChannel, spec: KeySpec, state: KeyboardState): Promise<KeyPosition> {
    const level3 = channel.kind === "core";
    const position = this.#keymap.resolve(spec, { group: state.group, level3 });
    if (position) return position;
    const keysym = this.#keymap.keysymFor(spec);
    const keycode = keysym === null ? null : await this.#spareFor(keysym);
    if (keycode === null) {
      const what = spec.kind === "named" ? spec.name : JSON.stringify(spec.char);
      throw new DriverError("unsupported_platform", `The key ${what} cannot be pressed on this X keyboard`, {
        hint: keysym === null
          ? "X11 has no keysym for this key; use a different key"
          : "the keyboard map has no free keycode to borrow; use type_text for text",
      });
    }
    this.#pending.add(this.#focusFor(channel));
    return { keycode, shift: false, level3: false };
  }

  #focusFor(channel: KeyboardChannel, window?: bigint): bigint | null {
    return window ?? this.#sink.focus(channel);
  }

  /** Releases keycodes (newest first), trying every one; returns the first failure. */
  #releaseEach(channel: KeyboardChannel, keycodes: readonly number[]): unknown {
    let failure: unknown = null;
    for (const keycode of [...keycodes].reverse()) {
      if (!this.#heldOf(channel).has(keycode)) continue;
      try {
        this.#up(channel, keycode);
      } catch (error) {
        this.#heldOf(channel).delete(keycode);
        failure ??= error;
      }
    }
    return failure;
  }

  /**
   * Presses and releases a key with modifiers held (ctrl, shift, alt, super, or any
   * alias `parseKey` knows), adding Shift or AltGr when the key's character needs it.
   * Modifiers already held (by {@linkcode down}) are left held.
   *
   * @throws {DriverError} `invalid_arguments` for an unknown key or modifier;
   *   `unsupported_platform` when the key cannot be pressed on this keyboard map.
   */
  async press(
    channel: KeyboardChannel,
    key: KeySpec | string,
    modifiers: readonly string[] = [],
  ): Promise<void> {
    const spec = typeof key === "string" ? parseKey(key) : key;
    const mods = modifiers.map(toModifier);
    this.#prepare();
    const state = this.#sink.state(channel);
    const held = this.#heldOf(channel);
    const pressed: number[] = [];
    let failure: unknown = null;
    try {
      for (const modifier of mods) {
        const keycode = this.#modifierKeycode(modifier);
        if (held.has(keycode)) continue;
        this.#down(channel, keycode);
        pressed.push(keycode);
      }
      const position = await this.#locate(channel, spec, state);
      for (const [needed, modifier] of [[position.shift, "shift"], [position.level3, "level3"]] as const) {
        if (!needed) continue;
        const keycode = this.#modifierKeycode(modifier);
        if (held.has(keycode)) continue;
        this.#down(channel, keycode);
        pressed.push(keycode);
      }
      this.#down(channel, position.keycode);
      pressed.push(position.keycode);
      this.#up(channel, position.keycode);
    } catch (error) {
      failure = error;
    }
    // Release what this call pressed whatever happened, and report the first failure.
    const releaseFailure = this.#releaseEach(channel, pressed);
    failure ??= releaseFailure;
    await this.#finish(failure !== null);
    if (failure !== null) throw failure;
  }

  /**
   * Lets the app catch up before more keys go out, so that at most
   * {@linkcode PACE_CHARACTERS} typed characters are ever queued ahead of it: an abort
   * then stops the typing the app sees within a few milliseconds, instead of after a
   * backlog of thousands of keys. Bounded: an app that does not answer is not waited for long.
   */
  async #pace(window: bigint | null, signal?: AbortSignal): Promise<void> {
    this.#sink.sync();
    if (window === null) return await pause(0, signal);
    await Promise.race([this.#barrier.wait(window), pause(PACE_WAIT_MS, signal)]);
  }

  /** Syncs and settles spare keycodes; after a failure, never throws over the first error. */
  async #finish(quiet: boolean): Promise<void> {
    try {
      this.#sink.sync();
      await this.#settleSpares();
    } catch (error) {
      if (!quiet) throw error;
    }
  }

  /**
   * Presses a key and keeps it down (with the Shift or AltGr its character needs),
   * until {@linkcode up} or {@linkcode releaseAll}. Pressing a key already held does nothing.
   *
   * @throws {DriverError} `invalid_arguments` for an unknown key; `unsupported_platform`
   *   when the key cannot be pressed on this keyboard map.
   */
  async down(channel: KeyboardChannel, key: KeySpec | string): Promise<void> {
    const spec = typeof key === "string" ? parseKey(key) : key;
    const id = specId(spec);
    const held = this.#heldOf(channel);
    if ([...held.values()].some((entry) => entry.spec === id)) return;
    this.#prepare();
    const state = this.#sink.state(channel);
    const pressed: number[] = [];
    try {
      const position = await this.#locate(channel, spec, state);
      const already = held.get(position.keycode);
      if (already) {
        // Held for another key's level (Shift for "A"): it is now held in its own right.
        held.set(position.keycode, { ...already, owner: null, spec: id });
        return;
      }
      for (const [needed, modifier] of [[position.shift, "shift"], [position.level3, "level3"]] as const) {
        if (!needed) continue;
        const keycode = this.#modifierKeycode(modifier);
        if (held.has(keycode)) continue;
        this.#down(channel, keycode, position.keycode);
        pressed.push(keycode);
      }
      this.#down(channel, position.keycode, null, id);
      pressed.push(position.keycode);
      this.#sink.sync();
    } catch (error) {
      this.#releaseEach(channel, pressed);
      await this.#finish(true);
      throw error;
    }
  }

  /**
   * Releases a key pressed by {@linkcode down}, then the modifiers pressed for it.
   * Returns false when this class does not hold the key.
   */
  async up(channel: KeyboardChannel, key: KeySpec | string): Promise<boolean> {
    const spec = typeof key === "string" ? parseKey(key) : key;
    const id = specId(spec);
    const held = this.#heldOf(channel);
    const entry = [...held.values()].find((e) => e.spec === id);
    if (!entry) return false;
    const owned = [...held.values()].filter((e) => e.owner === entry.keycode).map((e) => e.keycode);
    const failure = this.#releaseEach(channel, [...owned, entry.keycode]);
    await this.#finish(failure !== null);
    if (failure) throw failure;
    return true;
  }

  /**
   * Releases every key and modifier this class holds on the channel (newest first),
   * then clears spare keycodes. Safe to call in `finally`: it tries every key even
   * when one fails, and rethrows the first failure at the end.
   */
  async releaseAll(channel: KeyboardChannel): Promise<void> {
    const failure = this.#releaseEach(channel, this.held(channel));
    await this.#finish(failure !== null);
    if (failure) throw failure;
  }

  /**
   * Types text per grapheme: Shift and AltGr are held as each character needs (Caps
   * Lock is compensated on letters), newline is Return, tab is Tab, and characters the
   * layout lacks are typed through spare keycodes, which are cleared again before it
   * returns. Nothing is skipped silently: what could not be typed is in `missing`.
   *
   * @throws {DriverError} `aborted` when `options.signal` aborts (held keys are released).
   */
  async typeText(
    channel: KeyboardChannel,
    text: string,
    options: TypeTextOptions = {},
  ): Promise<TypeTextResult> {
    const delayMs = options.delayMs ?? 0;
    this.#prepare();
    const state = this.#sink.state(channel);
    const window = this.#focusFor(channel, options.window);
    const level3 = channel.kind === "core";
    const held = this.#heldOf(channel);
    const shiftKeycode = this.#keymap.modifierKeycode("shift");
    const level3Keycode = level3 ? this.#keymap.modifierKeycode("level3") : null;
    // Modifiers the caller holds stay as they are; typing only toggles its own.
    const own = { shift: false, level3: false };
    const setModifier = (which: "shift" | "level3", keycode: number | null, wanted: boolean) => {
      if (keycode === null || own[which] === wanted) return;
      if (wanted && held.has(keycode)) return;
      if (wanted) this.#down(channel, keycode);
      else this.#up(channel, keycode);
      own[which] = wanted;
    };
    const plan = planText(text, this.#keymap, { group: state.group, level3, capsLock: state.capsLock });
    const pool = this.#spares();
    const startBinds = pool.binds;
    this.#barriers = [];
    const missing: string[] = [];
    let delivered = 0;
    let sincePace = 0;
    let failure: unknown = null;
    try {
      for (const chunk of chunkBySpares(plan, pool.size)) {
        // Bind the chunk's keysyms in one request before pressing any: one map change per
        // chunk for every client to digest, and one re-read in the app.
        await this.#bindSpares(spareKeysyms(chunk));
        for (const grapheme of chunk) {
          if (options.signal?.aborted) {
            throw abortedPartway(options.signal, "Typing", {
              delivered_count: delivered,
              planned_count: plan.length,
            });
          }
          let complete = grapheme.steps !== null;
          for (const step of grapheme.steps ?? []) {
            if (step.kind === "key") {
              setModifier("shift", shiftKeycode, step.position.shift);
              setModifier("level3", level3Keycode, step.position.level3);
              this.#down(channel, step.position.keycode);
              this.#up(channel, step.position.keycode);
              continue;
            }
            const keycode = await this.#spareFor(step.keysym);
            if (keycode === null) {
              complete = false;
              continue;
            }
            // A spare keycode has the keysym in every column; Shift and AltGr are released
            // anyway, so no app sees a modified key.
            setModifier("shift", shiftKeycode, false);
            setModifier("level3", level3Keycode, false);
            this.#pending.add(window);
            this.#down(channel, keycode);
            this.#up(channel, keycode);
          }
          if (complete) delivered++;
          else missing.push(grapheme.text);
          if (delayMs > 0) {
            this.#sink.flush();
            await pause(delayMs, options.signal);
          } else if (++sincePace >= PACE_CHARACTERS) {
            sincePace = 0;
            await this.#pace(window, options.signal);
          }
        }
      }
    } catch (error) {
      failure = error;
    }
    // Release the Shift and AltGr typing pressed whatever happened; report the first failure.
    const mine = [
      ...(own.shift && shiftKeycode !== null ? [shiftKeycode] : []),
      ...(own.level3 && level3Keycode !== null ? [level3Keycode] : []),
    ];
    const releaseFailure = this.#releaseEach(channel, mine);
    failure ??= releaseFailure;
    await this.#finish(failure !== null);
    if (failure !== null) throw failure;
    return { delivered, missing, remapped: pool.binds - startBinds, barriers: this.#barriers };
  }

  /**
   * Releases what is held on every channel and clears spare keycodes at once (no
   * barrier). Prefer {@linkcode close}, which waits for the apps first.
   */
  [Symbol.dispose](): void {
    for (const [id, held] of this.#held) {
      const channel = this.#channels.get(id)!;
      for (const keycode of [...held.keys()].reverse()) {
        try {
          this.#up(channel, keycode);
        } catch {
          // The connection is gone; nothing is held on a dead server.
          held.delete(keycode);
        }
      }
    }
    try {
      this.#keymap.backend.bind((this.#pool?.release() ?? []).map((keycode) => [keycode, 0n] as const));
      this.#sink.sync();
    } catch {
      // As above.
    }
    this.#barrier.close();
  }

  /** Releases every held key on `channels` (default: the core one), clears spare keycodes, closes the barrier. */
  async close(channels: readonly KeyboardChannel[] = [CORE_KEYBOARD]): Promise<void> {
    try {
      for (const channel of channels) await this.releaseAll(channel);
    } finally {
      this[Symbol.dispose]();
    }
  }
}
