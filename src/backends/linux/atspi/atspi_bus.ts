/**
 * The connections AT-SPI needs: the session bus (to find and enable the
 * accessibility bus), the accessibility bus itself, and a direct peer-to-peer socket
 * to each application when it offers one (as libatspi does), which halves the cost
 * of every call by skipping the bus daemon.
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";
import {
  type CallOptions,
  DBusConnection,
  DBusError,
  getProperty,
  sessionBusAddress,
  setProperty,
  variant,
} from "../../../lib/dbus/mod.ts";
import { AppEvents } from "./event_watch.ts";
import { AtspiPath, Iface } from "./interfaces.ts";

/** Options of {@linkcode AtspiBus.open}. */
export interface AtspiBusOptions {
  /** Session bus address; defaults to `DBUS_SESSION_BUS_ADDRESS`. */
  sessionAddress?: string | null;
  /** Per-call timeout in milliseconds (default 3000). */
  callTimeoutMs?: number;
  /** Talk to applications over their private sockets when they offer one (default true). */
  peerToPeer?: boolean;
}

const A11Y_BUS = { destination: "org.a11y.Bus", path: "/org/a11y/bus" } as const;
/**
 * Connections kept open per application after an isolated call. A dialog that is still up
 * holds at most a few; past this many the oldest (long answered) is closed.
 */
export const MAX_PARKED = 16;
const DBUS = { destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus" } as const;
const REMEDY = "start /usr/libexec/at-spi-bus-launcher (or a desktop session that runs it) and set " +
  "DBUS_SESSION_BUS_ADDRESS to that session's bus";

/** Options of one call to an application. */
export interface AtspiCallOptions extends CallOptions {
  /**
   * Send the call on a connection of its own, used for nothing else. For calls that run
   * application code (actions, edits, focus, values): GTK runs them inside the D-Bus
   * dispatch of the connection they came on, and a modal dialog they open (gtk_dialog_run)
   * then holds that connection's dispatch lock for as long as the dialog is up. Anything
   * more arriving on it (a call, or its closing) is worse than unanswered: the next key
   * event makes at-spi2-atk run a nested loop that dispatches every connection, blocks on
   * that lock, and the app never runs again. So the connection is left open and silent
   * ({@linkcode MAX_PARKED} per application) and closed only when the application goes.
   */
  isolated?: boolean;
}

/** What tree and element code needs: method calls and property reads on application objects. */
export interface AtspiCaller {
  /** Calls `member` on `path` of application `app`. */
  call(
    app: string,
    path: string,
    iface: string,
    member: string,
    signature?: string,
    body?: readonly unknown[],
    options?: AtspiCallOptions,
  ): Promise<unknown[]>;
  /** Reads a property and unwraps its variant. */
  property(app: string, path: string, iface: string, name: string): Promise<unknown>;
}

/** An open accessibility bus plus per-application routes. */
export class AtspiBus implements AtspiCaller {
  readonly #session: DBusConnection | null;
  readonly #a11y: DBusConnection;
  readonly #timeoutMs: number;
  readonly #peerToPeer: boolean;
  readonly #peers = new Map<string, DBusConnection | null>();
  /** Each application's private socket address, once asked for (null: it offers none). */
  readonly #addresses = new Map<string, string | null>();
  /** Connections of isolated calls, oldest first, left open (see AtspiCallOptions.isolated). */
  readonly #parked = new Map<string, DBusConnection[]>();
  readonly #peerSetup = new Map<string, Promise<void>>();
  /** Applications' object events, for read-backs that wait on them. */
  readonly events: AppEvents;
  /** The accessibility bus address. */
  readonly address: string;

  private constructor(
    session: DBusConnection | null,
    a11y: DBusConnection,
    address: string,
    options: AtspiBusOptions,
  ) {
    this.#session = session;
    this.#a11y = a11y;
    this.events = new AppEvents(a11y);
    this.address = address;
    this.#timeoutMs = options.callTimeoutMs ?? 3000;
    this.#peerToPeer = options.peerToPeer ?? true;
  }

  /**
   * Finds the accessibility bus through the session bus, turns accessibility on
   * (`org.a11y.Status.IsEnabled`) and registers for `window:` events, without which
   * toolkits do not answer `Cache.GetItems`.
   *
   * @throws {DriverError} `accessibility_unavailable` when either bus is unreachable.
   */
  static async open(options: AtspiBusOptions = {}): Promise<AtspiBus> {
    const address = options.sessionAddress ?? sessionBusAddress();
    const direct = Deno.env.get("AT_SPI_BUS_ADDRESS");
    // Over SSH the display's AT_SPI_BUS can be all there is (libatspi reads it the same way).
    if (!address && direct) return await AtspiBus.#openDirect(direct, options);
    if (!address) {
      throw new DriverError(
        "accessibility_unavailable",
        "No session bus: DBUS_SESSION_BUS_ADDRESS is not set",
        {
          hint: REMEDY,
        },
      );
    }
    const timeoutMs = options.callTimeoutMs ?? 3000;
    const session = await connectOrThrow(address, "session bus", timeoutMs);
    let a11y: DBusConnection | null = null;
    try {
      const a11yAddress = Deno.env.get("AT_SPI_BUS_ADDRESS") ||
        (await session.call(
          { ...A11Y_BUS, interface: "org.a11y.Bus", member: "GetAddress" },
          { timeoutMs },
        ).catch((error) => {
          throw new DriverError(
            "accessibility_unavailable",
            `The session bus has no AT-SPI bus: ${message(error)}`,
            {
              hint: REMEDY,
            },
            { cause: error },
          );
        }))[0] as string;
      await enableAccessibility(session, timeoutMs);
      a11y = await connectOrThrow(a11yAddress, "AT-SPI bus", timeoutMs);
      const bus = new AtspiBus(session, a11y, a11yAddress, options);
      await registerWindowEvents(a11y, timeoutMs);
      return bus;
    } catch (error) {
      await a11y?.close();
      await session.close();
      throw error;
    }
  }

  /** The accessibility bus alone, with no session bus to turn accessibility on through. */
  static async #openDirect(a11yAddress: string, options: AtspiBusOptions): Promise<AtspiBus> {
    const timeoutMs = options.callTimeoutMs ?? 3000;
    const a11y = await connectOrThrow(a11yAddress, "AT-SPI bus", timeoutMs);
    await registerWindowEvents(a11y, timeoutMs);
    return new AtspiBus(null, a11y, a11yAddress, options);
  }

  /** The accessibility bus connection. */
  get connection(): DBusConnection {
    return this.#a11y;
  }

  /** True once the accessibility bus connection is gone. */
  get isClosed(): boolean {
    return this.#a11y.isClosed;
  }

  /**
   * Calls a method on an application's object, over its peer socket when one is open.
   *
   * @throws {DBusError} The remote error, `Timeout` after the per-call budget.
   */
  call(
    app: string,
    path: string,
    iface: string,
    member: string,
    signature = "",
    body: readonly unknown[] = [],
    options: AtspiCallOptions = {},
  ): Promise<unknown[]> {
    if (options.isolated) return this.#isolatedCall(app, path, iface, member, signature, body, options);
    const peer = this.#peers.get(app);
    const direct = peer && !peer.isClosed ? peer : null;
    return (direct ?? this.#a11y).call({
      destination: direct ? undefined : app,
      path,
      interface: iface,
      member,
      signature,
      body,
    }, { timeoutMs: options.timeoutMs ?? this.#timeoutMs, signal: options.signal, reply: options.reply });
  }

  /** See {@linkcode AtspiCallOptions.isolated}. Without a private socket the shared route is used. */
  async #isolatedCall(
    app: string,
    path: string,
    iface: string,
    member: string,
    signature: string,
    body: readonly unknown[],
    options: CallOptions,
  ): Promise<unknown[]> {
    await this.preparePeer(app);
    const address = this.#addresses.get(app);
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const shared = () =>
      this.call(app, path, iface, member, signature, body, { ...options, isolated: false });
    if (!address) return await shared();
    let own: DBusConnection;
    try {
      own = await DBusConnection.connect(address, { bus: false, timeoutMs });
    } catch {
      return await shared();
    }
    try {
      return await own.call({ path, interface: iface, member, signature, body }, {
        timeoutMs,
        signal: options.signal,
        reply: options.reply,
      });
    } finally {
      this.#park(app, own);
    }
  }

  /** Keeps an isolated call's connection open and silent; closes the oldest past {@linkcode MAX_PARKED}. */
  #park(app: string, connection: DBusConnection): void {
    const parked = (this.#parked.get(app) ?? []).filter((c) => !c.isClosed);
    parked.push(connection);
    while (parked.length > MAX_PARKED) void parked.shift()!.close().catch(() => {});
    this.#parked.set(app, parked);
  }

  /** How many isolated-call connections are open to `app` (diagnostics and tests). */
  parkedCount(app: string): number {
    return (this.#parked.get(app) ?? []).filter((c) => !c.isClosed).length;
  }

  /** Reads a property of an application's object. */
  async property(app: string, path: string, iface: string, name: string): Promise<unknown> {
    const [value] = await this.call(app, path, Iface.PROPERTIES, "Get", "ss", [iface, name]);
    return (value as { value: unknown }).value;
  }

  /** Calls a method of the bus daemon of the accessibility bus. */
  daemon(member: string, signature = "", body: readonly unknown[] = []): Promise<unknown[]> {
    return this.#a11y.call(
      { ...DBUS, interface: "org.freedesktop.DBus", member, signature, body },
      { timeoutMs: this.#timeoutMs },
    );
  }

  /** True when a private socket to `app` is open: the application is then certainly alive. */
  hasLivePeer(app: string): boolean {
    const peer = this.#peers.get(app);
    return peer !== undefined && peer !== null && !peer.isClosed;
  }

  /**
   * Opens (once) the application's private socket from
   * `Application.GetApplicationBusAddress`. Failures are remembered and the bus is used.
   */
  preparePeer(app: string): Promise<void> {
    for (const [name, peer] of this.#peers) {
      if (peer?.isClosed) this.#peers.delete(name); // the application exited
    }
    const existing = this.#peers.get(app);
    if (existing === null || (existing && !existing.isClosed)) return Promise.resolve();
    if (!this.#peerToPeer) {
      this.#peers.set(app, null);
      return Promise.resolve();
    }
    let setup = this.#peerSetup.get(app);
    if (!setup) {
      setup = this.#openPeer(app).finally(() => this.#peerSetup.delete(app));
      this.#peerSetup.set(app, setup);
    }
    return setup;
  }

  async #openPeer(app: string): Promise<void> {
    let peer: DBusConnection | null = null;
    try {
      const [address] = await this.#a11y.call({
        destination: app,
        path: AtspiPath.ROOT,
        interface: Iface.APPLICATION,
        member: "GetApplicationBusAddress",
      }, { timeoutMs: this.#timeoutMs });
      if (typeof address === "string" && address !== "") {
        this.#addresses.set(app, address);
        peer = await DBusConnection.connect(address, { bus: false, timeoutMs: this.#timeoutMs });
      }
    } catch {
      peer = null;
    }
    this.#peers.set(app, peer);
  }

  /** Forgets an application's peer socket (when the application went away). */
  async forget(app: string): Promise<void> {
    const peer = this.#peers.get(app);
    this.#peers.delete(app);
    this.#addresses.delete(app);
    const parked = this.#parked.get(app) ?? [];
    this.#parked.delete(app);
    await Promise.all(parked.map((c) => c.close().catch(() => {})));
    await peer?.close();
  }

  /** Closes every connection. */
  async close(): Promise<void> {
    this.events.close();
    await Promise.allSettled(this.#peerSetup.values());
    const peers = [...this.#peers.values(), ...[...this.#parked.values()].flat()];
    this.#peers.clear();
    this.#parked.clear();
    await Promise.all(peers.map((peer) => peer?.close()));
    await this.#a11y.close();
    await this.#session?.close();
  }
}

/** Registers for `window:` events, without which toolkits do not answer `Cache.GetItems`. */
async function registerWindowEvents(a11y: DBusConnection, timeoutMs: number): Promise<void> {
  await a11y.call({
    destination: AtspiPath.REGISTRY_NAME,
    path: AtspiPath.REGISTRY,
    interface: Iface.REGISTRY,
    member: "RegisterEvent",
    signature: "s",
    body: ["window:"],
  }, { timeoutMs }).catch(() => {
    // Older registries lack RegisterEvent; GetItems then answers anyway.
  });
}

/** Sets `org.a11y.Status.IsEnabled` when it is false, so toolkits load their bridges. */
async function enableAccessibility(session: DBusConnection, timeoutMs: number): Promise<void> {
  try {
    const enabled = await getProperty(
      session,
      A11Y_BUS.destination,
      A11Y_BUS.path,
      "org.a11y.Status",
      "IsEnabled",
      {
        timeoutMs,
      },
    );
    if (enabled !== true) {
      await setProperty(
        session,
        A11Y_BUS.destination,
        A11Y_BUS.path,
        "org.a11y.Status",
        "IsEnabled",
        variant("b", true),
        { timeoutMs },
      );
    }
  } catch {
    // Not fatal: apps started with GTK_MODULES or an at-spi bridge answer anyway.
  }
}

async function connectOrThrow(address: string, what: string, timeoutMs: number): Promise<DBusConnection> {
  try {
    return await DBusConnection.connect(address, { timeoutMs, callTimeoutMs: timeoutMs });
  } catch (error) {
    throw new DriverError("accessibility_unavailable", `Cannot connect to the ${what} at "${address}"`, {
      hint: REMEDY,
      dbusError: error instanceof DBusError ? error.errorName : undefined,
    }, { cause: error });
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
