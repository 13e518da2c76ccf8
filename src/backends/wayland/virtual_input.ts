/**
 * The seat's pointer and keyboard as a client drives them on wlroots:
 * `zwlr_virtual_pointer_v1` (absolute motion over the output layout, buttons, wheel detents)
 * and `zwp_virtual_keyboard_v1` (a per-text keymap from `keymap_text.ts`, keys by evdev code,
 * modifiers by mask). Both act on the seat, so input goes where the compositor's focus and
 * pointer are: the user's own channel, never a background one.
 *
 * A new virtual device gives a seat that had none a pointer or keyboard; clients then bind
 * `wl_pointer`/`wl_keyboard` asynchronously and drop input sent before, so each device waits for
 * the seat to announce the capability and then lets clients bind it, once, when it is created;
 * it stays for the connection's life.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import { graphemes, type KeySpec, type Modifier, modifierOf, parseKey } from "../../lib/keys/key_names.ts";
import type { Point } from "../../ports/geometry.ts";
import type { MouseButton, RawKeyboard, RawPointer } from "../../ports/input.ts";
import { type Connected, WaylandDisplay } from "./display.ts";
import { KeymapText, keysymOf, MAX_KEYMAP_KEYS, MODIFIER_MASK } from "./keymap_text.ts";
import { SeatCapability } from "./wire/protocol.ts";
import { SharedMemory } from "./wire/shm.ts";

/** Linux input button codes. */
const BUTTON_CODE: Record<MouseButton, number> = {
  left: 0x110,
  right: 0x111,
  middle: 0x112,
  back: 0x113,
  forward: 0x114,
};
/** One wheel detent in the protocol's axis units (libinput's 15 degrees). */
const DETENT = 15;
/**
 * How long clients get to bind a new seat pointer or keyboard after the compositor announced
 * it: the announcement reaches every client at once, and each binds on its next dispatch
 * (measured: first keys lost with no wait, none with 150 ms).
 */
const BIND_GRACE_MS = 150;

const now32 = () => Math.floor(performance.now()) >>> 0;

/** The pointer of the seat. */
export class VirtualPointer implements RawPointer {
  #generation = -1;
  #id = 0;
  #last: Point | null = null;
  readonly #held = new Set<MouseButton>();

  constructor(readonly display: WaylandDisplay) {}

  /** Where this pointer was last moved (no client can read the real position on Wayland). */
  last(): Point | null {
    return this.#last ? { ...this.#last } : null;
  }

  async #device(): Promise<Connected & { pointer: number }> {
    const connected = await this.display.connected();
    if (this.#generation !== this.display.generation) {
      const manager = connected.wire.bind("zwlr_virtual_pointer_manager_v1", 2);
      if (manager === null) {
        throw new DriverError(
          "unsupported_platform",
          "This compositor offers no zwlr_virtual_pointer_manager_v1",
          {
            hint: "pointer input needs a wlroots compositor (sway, Hyprland, labwc, river)",
          },
        );
      }
      const hadPointer = (connected.seatState.capabilities & SeatCapability.POINTER) !== 0;
      this.#id = connected.wire.newId("zwlr_virtual_pointer_v1");
      connected.wire.request(manager, "create_virtual_pointer", [connected.seat, this.#id]);
      this.#generation = this.display.generation;
      this.#held.clear();
      if (!hadPointer) await seatGains(connected, SeatCapability.POINTER, "pointer");
    }
    return { ...connected, pointer: this.#id };
  }

  async move(point: Point): Promise<void> {
    const { wire, outputs, pointer } = await this.#device();
    const layout = WaylandDisplay.layout(outputs);
    const x = Math.min(Math.max(Math.round(point.x) - layout.x, 0), layout.width - 1);
    const y = Math.min(Math.max(Math.round(point.y) - layout.y, 0), layout.height - 1);
    wire.request(pointer, "motion_absolute", [now32(), x, y, layout.width, layout.height]);
    wire.request(pointer, "frame", []);
    await wire.roundtrip();
    this.#last = { x: x + layout.x, y: y + layout.y };
  }

  async button(button: MouseButton, down: boolean): Promise<void> {
    const { wire, pointer } = await this.#device();
    wire.request(pointer, "button", [now32(), BUTTON_CODE[button], down ? 1 : 0]);
    wire.request(pointer, "frame", []);
    await wire.roundtrip();
    if (down) this.#held.add(button);
    else this.#held.delete(button);
  }

  async wheel(dx: number, dy: number, signal?: AbortSignal): Promise<number> {
    const { wire, pointer } = await this.#device();
    let sent = 0;
    const steps: [axis: number, count: number][] = [[0, Math.round(dy)], [1, Math.round(dx)]];
    for (const [axis, count] of steps) {
      for (let i = 0; i < Math.abs(count); i++) {
        if (signal?.aborted) return sent;
        const sign = Math.sign(count);
        wire.request(pointer, "axis_source", [0]); // wheel
        wire.request(pointer, "axis_discrete", [now32(), axis, DETENT * sign, sign]);
        wire.request(pointer, "frame", []);
        await wire.roundtrip();
        sent++;
      }
    }
    return sent;
  }

  async releaseAll(): Promise<void> {
    for (const button of [...this.#held]) await this.button(button, false);
  }

  async sync(): Promise<void> {
    await (await this.display.connected()).wire.roundtrip();
  }

  position(): Promise<Point | null> {
    return Promise.resolve(this.last());
  }
}

/** The keyboard of the seat. */
export class VirtualKeyboard implements RawKeyboard {
  #generation = -1;
  #id = 0;
  #keymap: KeymapText | null = null;
  #modifiers = 0;
  readonly #held = new Map<string, number>();

  constructor(readonly display: WaylandDisplay) {}

  async #device(): Promise<Connected & { keyboard: number }> {
    const connected = await this.display.connected();
    if (this.#generation !== this.display.generation) {
      const { wire, seat } = connected;
      const manager = wire.bind("zwp_virtual_keyboard_manager_v1", 1);
      if (manager === null) {
        throw new DriverError(
          "unsupported_platform",
          "This compositor offers no zwp_virtual_keyboard_manager_v1",
          {
            hint: "keyboard input needs a wlroots compositor (sway, Hyprland, labwc, river)",
          },
        );
      }
      const hadKeyboard = (connected.seatState.capabilities & SeatCapability.KEYBOARD) !== 0;
      this.#id = wire.newId("zwp_virtual_keyboard_v1");
      wire.request(manager, "create_virtual_keyboard", [seat, this.#id]);
      this.#keymap = null;
      this.#modifiers = 0;
      this.#held.clear();
      this.#generation = this.display.generation;
      // A keymap makes the keyboard a seat device; the seat then announces its keyboard.
      await this.#upload(connected, new KeymapText([0x20n]));
      if (!hadKeyboard) await seatGains(connected, SeatCapability.KEYBOARD, "keyboard");
    }
    return { ...connected, keyboard: this.#id };
  }

  async #upload(connected: Connected, keymap: KeymapText): Promise<void> {
    const bytes = new TextEncoder().encode(keymap.text());
    const memory = SharedMemory.create(bytes.length, "cua-driver-keymap");
    try {
      memory.bytes.set(bytes);
      connected.wire.request(this.#id, "keymap", [1, /* XKB_V1 */ { fd: memory.fd }, bytes.length]);
      await connected.wire.roundtrip();
    } finally {
      memory.close();
    }
    this.#keymap = keymap;
  }

  /** The device with a keymap that has every keysym of `keysyms`. */
  async #ready(keysyms: readonly bigint[]): Promise<Connected & { keyboard: number; keymap: KeymapText }> {
    const device = await this.#device();
    if (!this.#keymap?.covers(keysyms)) {
      const kept = this.#keymap && this.#keymap.keysyms.length + keysyms.length <= MAX_KEYMAP_KEYS
        ? this.#keymap.keysyms
        : [];
      if (this.#held.size) {
        throw new DriverError(
          "input_busy",
          "Keys are held down: release them before typing other characters",
        );
      }
      await this.#upload(device, new KeymapText([...kept, ...keysyms]));
    }
    return { ...device, keymap: this.#keymap! };
  }

  async #setModifiers(wire: Connected["wire"], mask: number): Promise<void> {
    this.#modifiers = mask;
    wire.request(this.#id, "modifiers", [mask, 0, 0, 0]);
    await wire.roundtrip();
  }

  async press(key: string, modifiers: readonly string[] = []): Promise<void> {
    const spec = parseKey(key);
    const mask = modifiers.reduce((m, name) => m | MODIFIER_MASK[toModifier(name)], 0);
    const keysym = requireKeysym(spec, key);
    const { wire, keyboard, keymap } = await this.#ready([keysym]);
    const code = keymap.evdevCode(keysym);
    const before = this.#modifiers;
    try {
      if (mask) await this.#setModifiers(wire, before | mask);
      wire.request(keyboard, "key", [now32(), code, 1]);
      wire.request(keyboard, "key", [now32(), code, 0]);
      await wire.roundtrip();
    } finally {
      if (mask && wire.alive) await this.#setModifiers(wire, before);
    }
  }

  async down(key: string): Promise<void> {
    const modifier = modifierOf(key);
    if (modifier) {
      const { wire } = await this.#device();
      this.#held.set(key, -MODIFIER_MASK[modifier]);
      await this.#setModifiers(wire, this.#modifiers | MODIFIER_MASK[modifier]);
      return;
    }
    const keysym = requireKeysym(parseKey(key), key);
    const { wire, keyboard, keymap } = await this.#ready([keysym]);
    const code = keymap.evdevCode(keysym);
    wire.request(keyboard, "key", [now32(), code, 1]);
    await wire.roundtrip();
    this.#held.set(key, code);
  }

  async up(key: string): Promise<void> {
    const code = this.#held.get(key);
    if (code === undefined) return;
    const { wire, keyboard } = await this.#device();
    this.#held.delete(key);
    if (code < 0) await this.#setModifiers(wire, this.#modifiers & ~-code);
    else {
      wire.request(keyboard, "key", [now32(), code, 0]);
      await wire.roundtrip();
    }
  }

  async typeText(text: string, delayMs = 0, signal?: AbortSignal): Promise<number> {
    const units = graphemes(text).flatMap((g) => g === "\r\n" ? ["\n"] : [...g]);
    const keysyms = units.map((unit) => requireKeysym(parseKey(unit, "text"), unit));
    let delivered = 0;
    // One keymap per chunk of distinct keysyms the keymap can hold.
    for (let start = 0; start < keysyms.length;) {
      const distinct = new Set<bigint>();
      let end = start;
      while (end < keysyms.length && (distinct.has(keysyms[end]) || distinct.size < MAX_KEYMAP_KEYS)) {
        distinct.add(keysyms[end++]);
      }
      const { wire, keyboard, keymap } = await this.#ready([...distinct]);
      for (let i = start; i < end; i++) {
        if (signal?.aborted) {
          throw new DriverError("aborted", `Typing stopped after ${delivered} characters`, {
            delivered_count: delivered,
          });
        }
        const code = keymap.evdevCode(keysyms[i]);
        wire.request(keyboard, "key", [now32(), code, 1]);
        wire.request(keyboard, "key", [now32(), code, 0]);
        await wire.roundtrip();
        delivered++;
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
      start = end;
    }
    return delivered;
  }

  async releaseAll(): Promise<void> {
    for (const key of [...this.#held.keys()]) await this.up(key);
  }
}

/**
 * Waits for the seat to announce a capability the new device gave it, then lets clients bind
 * their `wl_pointer`/`wl_keyboard` (input sent before a client has one is lost).
 */
export async function seatGains(connected: Connected, capability: number, what: string): Promise<void> {
  await connected.wire.dispatchUntil(
    () => (connected.seatState.capabilities & capability) !== 0,
    `the seat's ${what} capability`,
  );
  await new Promise((resolve) => setTimeout(resolve, BIND_GRACE_MS));
}

function requireKeysym(spec: KeySpec, key: string): bigint {
  const keysym = keysymOf(spec);
  if (keysym === null) {
    throw new DriverError("invalid_arguments", `No keysym types ${JSON.stringify(key)} on Wayland`, {
      field: "key",
    });
  }
  return keysym;
}

function toModifier(name: string): Modifier {
  const modifier = (["ctrl", "shift", "alt", "super"] as const).find((m) => m === name) ?? modifierOf(name);
  if (!modifier) {
    throw new DriverError("invalid_arguments", `Unknown modifier "${name}"`, {
      field: "modifiers",
      hint: "use ctrl, shift, alt or super",
    });
  }
  return modifier;
}
