/**
 * GNOME's keyboard for a client: a session of mutter's own `org.gnome.Mutter.RemoteDesktop`
 * D-Bus API (reachable without a consent dialog where the caller shares mutter's session bus,
 * as in a headless session; a desktop user's session needs the portal's RemoteDesktop and a
 * person's consent, which this does not do). Keys are keysyms: mutter types them through its
 * own keymap, so a character that keymap lacks is refused before anything is sent. mutter 43
 * loses the first key of every session and keys sent right after it starts, so a session starts
 * with a key that types nothing (Shift) and a settle; the session then lives as long as the back end. Pointer input needs a ScreenCast stream over PipeWire and is not implemented.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import { graphemes, type Modifier, modifierOf, parseKey } from "../../lib/keys/key_names.ts";
import type { RawKeyboard } from "../../ports/input.ts";
import type { DBusConnection } from "../../lib/dbus/mod.ts";
import { XK } from "../linux/x11/input/keysyms.ts";
import { keysymOf } from "./keymap_text.ts";

const RD = "org.gnome.Mutter.RemoteDesktop";
/** How long a new session's keyboard takes to appear in mutter 43 (keys sent sooner are lost). */
const SESSION_SETTLE_MS = 150;
const SESSION = `${RD}.Session`;
const MODIFIER_KEYSYM: Record<Modifier, bigint> = {
  shift: XK.Shift_L,
  ctrl: XK.Control_L,
  alt: XK.Alt_L,
  super: XK.Super_L,
};

/** True when mutter's RemoteDesktop API answers on this bus. */
export async function mutterRemoteDesktopReachable(bus: DBusConnection): Promise<boolean> {
  try {
    const [owner] = await bus.call({
      destination: "org.freedesktop.DBus",
      path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus",
      member: "NameHasOwner",
      signature: "s",
      body: [RD],
    });
    return owner === true;
  } catch {
    return false;
  }
}

/** The seat's keyboard through one RemoteDesktop session, started on first use. */
export class MutterKeyboard implements RawKeyboard {
  #session: Promise<string> | null = null;
  readonly #held = new Map<string, bigint>();

  /**
   * @param seatKeyboard Resolves once the seat has a keyboard its clients bound (the first session
   *   gives a headless seat its keyboard; keys sent before clients bind it are lost).
   */
  constructor(readonly bus: DBusConnection, readonly seatKeyboard: () => Promise<void>) {}

  #start(): Promise<string> {
    this.#session ??= (async () => {
      const [path] = await this.bus.call({
        destination: RD,
        path: "/org/gnome/Mutter/RemoteDesktop",
        interface: RD,
        member: "CreateSession",
      }) as [string];
      await this.bus.call({ destination: RD, path, interface: SESSION, member: "Start" });
      // mutter drops a session's first key, and keys sent while it sets up the session's virtual
      // device: spend the first on one that types nothing, then give the device time to appear.
      await this.#keysym(path, XK.Shift_L, true);
      await this.#keysym(path, XK.Shift_L, false);
      await this.seatKeyboard();
      await new Promise((resolve) => setTimeout(resolve, SESSION_SETTLE_MS));
      return path;
    })();
    this.#session.catch(() => this.#session = null);
    return this.#session;
  }

  async #keysym(path: string, keysym: bigint, down: boolean): Promise<void> {
    await this.bus.call({
      destination: RD,
      path,
      interface: SESSION,
      member: "NotifyKeyboardKeysym",
      signature: "ub",
      body: [Number(keysym), down],
    });
  }

  async press(key: string, modifiers: readonly string[] = []): Promise<void> {
    const keysym = requireKeysym(key);
    const mods = modifiers.map((name) => MODIFIER_KEYSYM[toModifier(name)]);
    const path = await this.#start();
    for (const mod of mods) await this.#keysym(path, mod, true);
    try {
      await this.#keysym(path, keysym, true);
      await this.#keysym(path, keysym, false);
    } finally {
      for (const mod of [...mods].reverse()) await this.#keysym(path, mod, false);
    }
  }

  async down(key: string): Promise<void> {
    const modifier = modifierOf(key);
    const keysym = modifier ? MODIFIER_KEYSYM[modifier] : requireKeysym(key);
    await this.#keysym(await this.#start(), keysym, true);
    this.#held.set(key, keysym);
  }

  async up(key: string): Promise<void> {
    const keysym = this.#held.get(key);
    if (keysym === undefined) return;
    this.#held.delete(key);
    await this.#keysym(await this.#start(), keysym, false);
  }

  /**
   * @throws {DriverError} `invalid_arguments` before sending anything when a character is not
   *   plain ASCII: mutter types only what its keymap has.
   */
  async typeText(text: string, delayMs = 0, signal?: AbortSignal): Promise<number> {
    const units = graphemes(text).flatMap((g) => g === "\r\n" ? ["\n"] : [...g]);
    const outside = units.find((unit) => !/^[\x20-\x7e\n\t]$/.test(unit));
    if (outside !== undefined) {
      throw new DriverError(
        "invalid_arguments",
        `mutter's RemoteDesktop types only what its keymap has; ${
          JSON.stringify(outside)
        } may not be there, ` +
          "so nothing was sent",
        {
          field: "text",
          hint: "set the text through an element (type_text with an element_token uses AT-SPI)",
        },
      );
    }
    const path = await this.#start();
    let delivered = 0;
    for (const unit of units) {
      if (signal?.aborted) {
        throw new DriverError("aborted", `Typing stopped after ${delivered} characters`, {
          delivered_count: delivered,
        });
      }
      const keysym = requireKeysym(unit);
      await this.#keysym(path, keysym, true);
      await this.#keysym(path, keysym, false);
      delivered++;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    return delivered;
  }

  async releaseAll(): Promise<void> {
    for (const key of [...this.#held.keys()]) await this.up(key);
  }

  /** Stops the session. */
  async close(): Promise<void> {
    const session = await this.#session?.catch(() => null);
    this.#session = null;
    if (session) await this.bus.call({ destination: RD, path: session, interface: SESSION, member: "Stop" });
  }
}

function requireKeysym(key: string): bigint {
  const keysym = keysymOf(parseKey(key));
  if (keysym === null) {
    throw new DriverError("invalid_arguments", `No keysym types ${JSON.stringify(key)}`, { field: "key" });
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
