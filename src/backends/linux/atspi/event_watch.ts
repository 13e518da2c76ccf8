/**
 * Waiting on an application's AT-SPI events instead of polling: a read-back after an
 * action re-reads the element when the application reports a change (or at the caller's
 * fallback interval), so a confirmed action answers within a round trip of the change.
 *
 * - `StateChanged` and `PropertyChange` (values, names) are emitted by at-spi2-atk whether
 *   or not anyone registered for them ("always pass events that update the cache");
 *   `TextChanged` only once a client registered `object:text-changed`, which
 *   {@linkcode AppEvents} does on first use.
 * - Events go to the accessibility bus, not to the peer-to-peer socket (measured: a
 *   check box's `StateChanged` came on the bus only), so the bus routes them to this
 *   client through a match rule on the application's unique name, added while the
 *   application is watched and removed a few seconds after its last watch ends.
 *
 * @module
 */
import type { AxWatch } from "../../../ports/accessibility.ts";
import type { DBusConnection, Message } from "../../../lib/dbus/mod.ts";
import { AtspiPath, Iface } from "./interfaces.ts";

const EVENT_INTERFACE = "org.a11y.atspi.Event.Object";
/** How long a match rule stays after the last watch of its application ends. */
const LINGER_MS = 5_000;

/** Routes the accessibility bus's object events to watches, per application. */
export class AppEvents {
  readonly #bus: DBusConnection;
  readonly #watches = new Map<string, Set<(message: Message) => void>>();
  /** Match rules in place (or being added), per application. */
  readonly #matched = new Map<string, Promise<void>>();
  readonly #lingering = new Map<string, ReturnType<typeof setTimeout>>();
  #textRegistered: Promise<void> | null = null;

  constructor(bus: DBusConnection) {
    this.#bus = bus;
    bus.onSignal((message) => {
      if (message.interface !== EVENT_INTERFACE || !message.sender) return;
      for (const listener of this.#watches.get(message.sender) ?? []) listener(message);
    });
  }

  /**
   * Starts watching application `app` (a unique bus name). Resolves once the bus routes its
   * events here, so an event of an action started afterwards is not missed.
   */
  async watch(app: string, path?: string): Promise<AxWatch> {
    if (!Deno.env.get("CUA_NO_TEXT_EVENTS")) this.#textRegistered ??= this.#registerText();
    const linger = this.#lingering.get(app);
    if (linger !== undefined) {
      clearTimeout(linger);
      this.#lingering.delete(app);
    }
    let pending = 0;
    let wake: (() => void) | null = null;
    const reportedStates = new Map<string, boolean>();
    const listener = (message: Message) => {
      // StateChanged (kind, detail1, ...): detail1 is the state's new value.
      if (path !== undefined && message.path === path && message.member === "StateChanged") {
        const [kind, value] = message.body as [unknown, unknown];
        if (typeof kind === "string" && (value === 0 || value === 1)) reportedStates.set(kind, value === 1);
      }
      pending++;
      wake?.();
    };
    let listeners = this.#watches.get(app);
    if (!listeners) this.#watches.set(app, listeners = new Set());
    listeners.add(listener);
    let matched = this.#matched.get(app);
    if (!matched) {
      matched = this.#bus.addMatch(rule(app));
      this.#matched.set(app, matched);
      matched.catch(() => this.#matched.delete(app));
    }
    try {
      await matched;
    } catch {
      // Without the rule the watch only times out: the read-back falls back to polling.
    }
    let closed = false;
    return {
      ...(path !== undefined ? { reportedStates } : {}),
      next: (timeoutMs: number) => {
        if (pending > 0 || closed) {
          const had = pending > 0;
          pending = 0;
          return Promise.resolve(had);
        }
        return new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => settle(false), timeoutMs);
          const settle = (woke: boolean) => {
            clearTimeout(timer);
            wake = null;
            pending = 0;
            resolve(woke);
          };
          wake = () => settle(true);
        });
      },
      close: () => {
        if (closed) return;
        closed = true;
        wake?.();
        listeners.delete(listener);
        if (listeners.size === 0) this.#release(app);
      },
    };
  }

  /** Removes an application's match rule once nothing has watched it for {@linkcode LINGER_MS}. */
  #release(app: string): void {
    const timer = setTimeout(() => {
      this.#lingering.delete(app);
      if (this.#watches.get(app)?.size) return;
      this.#watches.delete(app);
      const matched = this.#matched.get(app);
      this.#matched.delete(app);
      void matched?.then(() => this.#bus.removeMatch(rule(app))).catch(() => {});
    }, LINGER_MS);
    Deno.unrefTimer(timer as unknown as number);
    this.#lingering.set(app, timer);
  }

  /** Asks toolkits to send `object:text-changed` (at-spi2-atk sends it only when registered). */
  async #registerText(): Promise<void> {
    try {
      await this.#bus.call({
        destination: AtspiPath.REGISTRY_NAME,
        path: AtspiPath.REGISTRY,
        interface: Iface.REGISTRY,
        member: "RegisterEvent",
        signature: "s",
        body: ["object:text-changed"],
      });
    } catch {
      // Older registries: text read-backs poll.
    }
  }

  /** Forgets every watch and timer (the connection is closing). */
  close(): void {
    for (const timer of this.#lingering.values()) clearTimeout(timer);
    this.#lingering.clear();
    this.#watches.clear();
    this.#matched.clear();
  }
}

function rule(app: string): string {
  return `type='signal',interface='${EVENT_INTERFACE}',sender='${app}'`;
}
