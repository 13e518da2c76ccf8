/**
 * The Linux accessibility back end: AT-SPI over a built-in D-Bus client.
 *
 * @module
 */
import { type ScrolledBy, scrollIntoView } from "./scroll_into_view.ts";
import { DriverError } from "../../../ports/errors.ts";
import type {
  AccessibilityBackend,
  AppStateSample,
  AxSnapshotOptions,
  AxTree,
  AxWatch,
  ValueRange,
} from "../../../ports/accessibility.ts";
import type { Rect } from "../../../ports/geometry.ts";
import { DBusError } from "../../../lib/dbus/mod.ts";
import { ActionNameCache } from "./action_cache.ts";
import { AppLocator } from "./app_locator.ts";
import { sampleApp } from "./app_sample.ts";
import { AtspiBus } from "./atspi_bus.ts";
import * as ops from "./element_ops.ts";
import { fetchCacheItems } from "./fetch_nodes.ts";
import { AtspiPath, Iface } from "./interfaces.ts";
import { cellAgain } from "./table_cells.ts";
import { type AppToolkit, appToolkit } from "./onscreen_walk.ts";
import { frameOffset } from "./window_match.ts";
import { buildWindowTree, type WindowTreeTimings } from "./window_tree.ts";

/** Options of {@linkcode AtspiAccessibility}. */
export interface AtspiAccessibilityOptions {
  /** The X11 client bounds of a window (null when it is gone); used to pick its top level. */
  windowBounds(windowId: number): Promise<Rect | null>;
  /** Session bus address; defaults to `DBUS_SESSION_BUS_ADDRESS`. */
  sessionBusAddress?: string;
  /** Per-call timeout in milliseconds (default 3000). */
  callTimeoutMs?: number;
  /** Use applications' private sockets when offered (default true). */
  peerToPeer?: boolean;
  /** Why process `pid` has no accessible application (a sentence), or null when unknown. */
  explainMissing?(pid: number): Promise<string | null>;
}

/** What {@linkcode AtspiAccessibility.diagnose} found. */
export interface AtspiDiagnosis {
  registeredApps: number;
  /** `Cache.GetItems` on one application; null when none is registered. */
  getItems: { app: string; ok: boolean; items: number | null; error: string | null } | null;
}

/**
 * Accessibility trees and element actions through AT-SPI. Connects lazily on first use
 * and reconnects when the bus went away.
 *
 * @example
 * ```ts ignore
 * const ax = new AtspiAccessibility({ windowBounds: (id) => x11.clientBounds(id) });
 * const tree = await ax.tree(pid, xid, { maxNodes: 5000, maxDepth: 64 }, AbortSignal.timeout(10_000));
 * await ax.close();
 * ```
 */
export class AtspiAccessibility implements AccessibilityBackend {
  readonly #options: AtspiAccessibilityOptions;
  #bus: Promise<{ bus: AtspiBus; apps: AppLocator }> | null = null;
  readonly #actionCache = new ActionNameCache();
  /**
   * Per application bus name that reports window-relative coordinates (GTK4): the window
   * and its top level's own extents, to rebase later frame reads.
   */
  readonly #windowRelative = new Map<string, { windowId: number; topLevel: Rect }>();
  /** Per application bus name: its toolkit's name and version. */
  readonly #toolkits = new Map<string, Promise<AppToolkit>>();
  /** Phase timings of the last {@linkcode tree} call, for benchmarks. */
  lastTimings: Partial<WindowTreeTimings> = {};

  constructor(options: AtspiAccessibilityOptions) {
    this.#options = options;
  }

  /**
   * The tree of window `windowId` of process `pid`. A process without an accessible
   * application gives an empty tree with `error` set.
   *
   * @throws {DriverError} `accessibility_unavailable` when the bus cannot be reached;
   *   `aborted` when `signal` fires.
   */
  async tree(
    pid: number,
    windowId: number,
    options: AxSnapshotOptions,
    signal: AbortSignal,
  ): Promise<AxTree> {
    if (signal.aborted) throw aborted(signal);
    const windowBounds = options.windowBounds
      ? Promise.resolve(options.windowBounds)
      : this.#options.windowBounds(windowId);
    windowBounds.catch(() => {}); // awaited (or dropped) below; never unhandled
    const { bus, apps } = await this.#connection();
    const started = performance.now();
    let app: string | null;
    try {
      app = await apps.find(pid);
    } catch (error) {
      return failedTree(`Cannot list AT-SPI applications: ${describe(error)}`);
    }
    if (app === null) {
      const why = await this.#options.explainMissing?.(pid).catch(() => null) ?? null;
      return failedTree(
        why
          ? `No AT-SPI application for pid ${pid}: ${why}`
          : `No AT-SPI application for pid ${pid}: the app has no accessibility bridge or has not registered yet`,
      );
    }
    await bus.preparePeer(app);
    try {
      this.lastTimings = { locate: performance.now() - started };
      let toolkit = this.#toolkits.get(app);
      if (!toolkit) {
        toolkit = appToolkit(bus, app);
        this.#toolkits.set(app, toolkit);
      }
      const tree = await buildWindowTree(
        bus,
        app,
        {
          ...options,
          windowBounds,
          signal,
          actionCache: this.#actionCache,
          toolkit,
          onWindowRelative: (topLevel) => this.#windowRelative.set(app!, { windowId, topLevel }),
        },
        this.lastTimings,
      );
      if (tree.nodes.length <= 1) apps.invalidate(pid); // look again next time (lazy toolkits)
      return tree;
    } catch (error) {
      apps.invalidate(pid);
      if (signal.aborted) throw aborted(signal);
      if (error instanceof DriverError) throw error;
      if (!(error instanceof DBusError)) throw error;
      if (error.errorName.endsWith(".ServiceUnknown") || error.errorName.endsWith(".Disconnected")) {
        await bus.forget(app);
        this.#actionCache.forget(app);
      }
      return failedTree(`Cannot read the AT-SPI tree of pid ${pid}: ${describe(error)}`);
    }
  }

  /**
   * Connects now rather than on the first call (about 50 to 100 ms: session bus, AT-SPI
   * bus, registry).
   *
   * @throws {DriverError} `accessibility_unavailable` when the bus cannot be reached.
   */
  async connect(): Promise<void> {
    await this.#connection();
  }

  /**
   * The address of the accessibility bus (connecting first if needed).
   *
   * @throws {DriverError} `accessibility_unavailable` when the bus cannot be reached.
   */
  async busAddress(): Promise<string> {
    return (await this.#connection()).bus.address;
  }

  /**
   * For health_report, on the driver's own connection (opened if needed, as on first
   * use): how many applications the registry lists, and whether `Cache.GetItems`
   * answers on the first of them (up to three) that has a cache.
   *
   * @throws {DriverError} `accessibility_unavailable` when the bus cannot be reached.
   */
  async diagnose(): Promise<AtspiDiagnosis> {
    const { bus } = await this.#connection();
    const [children] = await bus.call(
      AtspiPath.REGISTRY_NAME,
      AtspiPath.ROOT,
      Iface.ACCESSIBLE,
      "GetChildren",
    );
    const apps = (children as [string, string][]).map(([name]) => name);
    let getItems: AtspiDiagnosis["getItems"] = null;
    for (const app of apps.slice(0, 3)) {
      try {
        const items = await fetchCacheItems(bus, app);
        getItems = items === null
          ? { app, ok: false, items: null, error: "no usable Cache.GetItems (the per-object walk is used)" }
          : { app, ok: true, items: items.length, error: null };
        if (getItems.ok) break;
      } catch (error) {
        getItems = { app, ok: false, items: null, error: describe(error) };
      }
    }
    return { registeredApps: apps.length, getItems };
  }

  /** Action names of an element. */
  async actionNames(ref: unknown): Promise<string[]> {
    return (await this.#op("GetActions", ref, (bus, r) => ops.actionNames(bus, r))).names;
  }

  /** Invokes the named action of an element; see {@linkcode ops.doAction}. */
  doAction(ref: unknown, actionName: string): Promise<boolean> {
    return this.#op("DoAction", ref, (bus, r) => ops.doAction(bus, r, actionName));
  }

  /** Replaces an element's text. */
  setText(ref: unknown, text: string): Promise<boolean> {
    return this.#op("SetTextContents", ref, (bus, r) => ops.setTextContents(bus, r, text));
  }

  /** Inserts text at a character offset. */
  insertText(ref: unknown, offset: number, text: string): Promise<boolean> {
    return this.#op("InsertText", ref, (bus, r) => ops.insertText(bus, r, offset, text));
  }

  /** An element's full text. */
  text(ref: unknown): Promise<string> {
    return this.#op("GetText", ref, (bus, r) => ops.getText(bus, r));
  }

  /** The caret offset, -1 when unknown. */
  caretOffset(ref: unknown): Promise<number> {
    return this.#op("CaretOffset", ref, (bus, r) => ops.caretOffset(bus, r));
  }

  /** Sets an element's numeric value. */
  setValue(ref: unknown, value: number): Promise<void> {
    return this.#op("SetCurrentValue", ref, (bus, r) => ops.setValue(bus, r, value));
  }

  /** An element's numeric value and range. */
  value(ref: unknown): Promise<ValueRange> {
    return this.#op("CurrentValue", ref, (bus, r) => ops.getValueRange(bus, r));
  }

  /**
   * An element's screen frame, rebased like its snapshot's frames when the app reports
   * window-relative coordinates (GTK4), against the window's current position.
   */
  async frame(ref: unknown): Promise<Rect | null> {
    const frame = await this.#op("GetExtents", ref, (bus, r) => ops.getExtents(bus, r));
    const relative = frame ? this.#windowRelative.get(ops.asRef(ref).bus) : undefined;
    if (!frame || !relative) return frame;
    const bounds = await this.#options.windowBounds(relative.windowId).catch(() => null);
    const { dx, dy } = frameOffset(relative.topLevel, bounds);
    return { ...frame, x: frame.x + dx, y: frame.y + dy };
  }

  /** Scrolls an element into view (scroll_into_view.ts). */
  scrollIntoView(ref: unknown): Promise<ScrolledBy | null> {
    return this.#op("ScrollTo", ref, (bus, r) => scrollIntoView(bus, r));
  }

  /** Moves keyboard focus to an element. */
  grabFocus(ref: unknown): Promise<boolean> {
    return this.#op("GrabFocus", ref, (bus, r) => ops.grabFocus(bus, r));
  }

  /** An element's current states. */
  state(ref: unknown): Promise<ops.ElementState> {
    return this.#op("GetState", ref, (bus, r) => ops.getState(bus, r));
  }

  /**
   * Watches the application owning `ref` for AT-SPI object events (see event_watch.ts).
   *
   * @throws {DriverError} `accessibility_unavailable` when the bus cannot be reached.
   */
  async watch(ref: unknown): Promise<AxWatch> {
    const r = ops.asRef(ref);
    const { bus } = await this.#connection();
    return await bus.events.watch(r.bus, r.path);
  }

  /**
   * The accessible state of the application of `pid` and the details of `refs`, for an
   * action's before/after comparison; null when the app has no accessible application,
   * is gone or does not answer.
   */
  async sample(pid: number, refs: readonly unknown[], signal: AbortSignal): Promise<AppStateSample | null> {
    try {
      const { bus, apps } = await this.#connection();
      const app = await apps.find(pid);
      if (app === null) return null;
      await bus.preparePeer(app);
      const atspiRefs = refs.flatMap((ref) => {
        try {
          return [ops.asRef(ref)];
        } catch {
          return [];
        }
      });
      return await sampleApp(bus, app, atspiRefs, signal);
    } catch {
      return null;
    }
  }

  /** Closes every connection; the next call reconnects. */
  async close(): Promise<void> {
    const pending = this.#bus;
    this.#bus = null;
    if (!pending) return;
    try {
      await (await pending).bus.close();
    } catch {
      // It never opened.
    }
  }

  async #op<T>(
    what: string,
    ref: unknown,
    run: (bus: AtspiBus, ref: ops.AtspiRef) => Promise<T>,
  ): Promise<T> {
    const r = ops.asRef(ref);
    const { bus } = await this.#connection();
    try {
      return await ops.guarded(what, r, () => run(bus, r));
    } catch (error) {
      // A spreadsheet cell's object can be replaced between an observation and an action:
      // the same row and column of its table give the current one.
      if (!(error instanceof DriverError) || error.code !== "stale_element_token") throw error;
      const path = await cellAgain(bus, r.bus, r.path).catch(() => null);
      if (path === null) throw error;
      const again = { bus: r.bus, path };
      return await ops.guarded(what, again, () => run(bus, again));
    }
  }

  async #connection(): Promise<{ bus: AtspiBus; apps: AppLocator }> {
    if (this.#bus) {
      const current = await this.#bus.catch(() => null);
      if (current && !current.bus.isClosed) return current;
      if (current) await current.bus.close();
      this.#bus = null;
    }
    const opening = AtspiBus.open({
      sessionAddress: this.#options.sessionBusAddress,
      callTimeoutMs: this.#options.callTimeoutMs,
      peerToPeer: this.#options.peerToPeer,
    }).then((bus) => ({ bus, apps: new AppLocator(bus) }));
    this.#bus = opening;
    try {
      return await opening;
    } catch (error) {
      this.#bus = null;
      throw error;
    }
  }
}

function aborted(signal: AbortSignal): DriverError {
  return new DriverError("aborted", "The accessibility snapshot was aborted", {}, { cause: signal.reason });
}

function failedTree(error: string): AxTree {
  return { nodes: [], truncated: false, error };
}

function describe(error: unknown): string {
  if (error instanceof DBusError && error.errorName.endsWith(".Timeout")) {
    return "the application did not answer in time (it may be busy or hung)";
  }
  return error instanceof Error ? error.message : String(error);
}
