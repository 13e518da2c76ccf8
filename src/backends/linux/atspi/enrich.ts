/**
 * The per-object details `Cache.GetItems` leaves out: screen extents, action names,
 * numeric values, and the text of unnamed text objects and of editable fields (a field's
 * name is its label, not what it holds); a password field's text is never read. Every call for every object is
 * issued at once and pipelined on one connection; follow-up calls (text after its
 * length) go out as their first answer arrives.
 *
 * @module
 */
import type { Rect } from "../../../ports/geometry.ts";
import type { ActionNameCache } from "./action_cache.ts";
import type { AtspiCaller } from "./atspi_bus.ts";
import { CoordType, Iface } from "./interfaces.ts";
import type { RawNode } from "./raw_node.ts";
import { Role } from "./roles.ts";
import { hasState, State } from "./states.ts";

/** Longest text read for a node, in characters (matches cua-driver). */
export const MAX_TEXT_CHARS = 4096;

/** Details of one node; null where the node lacks the interface or the call failed. */
export interface NodeDetails {
  frame: Rect | null;
  actions: string[];
  value: string | null;
}

/** The details of a node with nothing to fetch (not showing): one frozen record for all. */
const NO_DETAILS: NodeDetails = Object.freeze({
  frame: null,
  actions: Object.freeze([]) as unknown as string[],
  value: null,
});

/** Objects on screen by geometry, with the extents read to decide it (see onscreen_walk.ts). */
export interface OnScreen {
  onScreen: ReadonlySet<string>;
  frames: ReadonlyMap<string, Rect | null>;
}

/** An editable field: what it holds is its value, whatever its name. */
function editable(node: RawNode): boolean {
  return hasState(node.states, State.EDITABLE);
}

/** Counts of calls that failed, for diagnostics; a timeout usually means a hung app. */
export interface DetailStats {
  calls: number;
  failures: number;
  timeouts: number;
}

/**
 * Fetches the details of an application's nodes, once per node. Calls go out as soon
 * as a node is requested, so requests made in one synchronous run share one write.
 */
export class DetailFetcher {
  readonly stats: DetailStats = { calls: 0, failures: 0, timeouts: 0 };
  readonly #bus: AtspiCaller | null;
  readonly #app: string;
  readonly #actionCache: ActionNameCache | undefined;
  /** Details by path: settled at once for a node with nothing to fetch. */
  readonly #requested = new Map<string, Promise<NodeDetails> | NodeDetails>();
  readonly #shown: OnScreen | undefined;
  readonly #full: ((node: RawNode) => boolean) | undefined;

  /**
   * @param shown For toolkits that do not mark widgets SHOWING: the objects found on
   *   screen by geometry, and the extents already read for them.
   * @param full The objects whose frame and actions are read (every one when absent); the
   *   others get only their value or text.
   */
  constructor(
    bus: AtspiCaller | null,
    app: string,
    actionCache?: ActionNameCache,
    shown?: OnScreen,
    full?: (node: RawNode) => boolean,
  ) {
    this.#bus = bus;
    this.#app = app;
    this.#actionCache = actionCache;
    this.#shown = shown;
    this.#full = full;
  }

  /** Whether `node`'s frame is read (a node left out answers a null frame). */
  readsFrame(node: RawNode): boolean {
    return this.#full?.(node) ?? true;
  }

  /**
   * The details of `node`: nothing for a node that is not showing (no call is made),
   * otherwise its extents, action names, and value (or text when it has no name).
   */
  request(node: RawNode): Promise<NodeDetails> {
    const details = this.#detailsOf(node);
    if (details instanceof Promise) return details;
    // A record of its own: callers keep the action list.
    return Promise.resolve(details === NO_DETAILS ? { frame: null, actions: [], value: null } : details);
  }

  /**
   * The details of every node of `entries`, in order (as {@linkcode request}); only the
   * nodes with calls in flight are waited for. Nodes with nothing to fetch share one frozen
   * record (with a frozen empty `actions`).
   */
  async requestAll(entries: readonly { node: RawNode }[]): Promise<NodeDetails[]> {
    const out = new Array<NodeDetails>(entries.length);
    const waits: Promise<void>[] = [];
    for (let i = 0; i < entries.length; i++) {
      const details = this.#detailsOf(entries[i].node);
      if (details instanceof Promise) waits.push(details.then((settled) => void (out[i] = settled)));
      else out[i] = details;
    }
    await Promise.all(waits);
    return out;
  }

  #detailsOf(node: RawNode): Promise<NodeDetails> | NodeDetails {
    let details = this.#requested.get(node.path);
    if (details === undefined) {
      const showing = this.#bus !== null &&
        (hasState(node.states, State.SHOWING) || this.#shown?.onScreen.has(node.path) === true);
      details = showing ? this.#fetch(node) : NO_DETAILS;
      this.#requested.set(node.path, details);
    }
    return details;
  }

  /** A fetcher that fetches nothing: every node has no frame, actions or value. */
  static none(): DetailFetcher {
    return new DetailFetcher(null, "", undefined, { onScreen: new Set(), frames: new Map() });
  }

  /**
   * Fetches `node`'s details again (an object that answered before it was laid out:
   * Firefox creates the accessibles of web content on first request and gives them no
   * extents and no actions until its content process has answered).
   */
  refetch(node: RawNode): Promise<NodeDetails> {
    const details = this.#fetch(node);
    this.#requested.set(node.path, details);
    return details;
  }

  async #fetch(node: RawNode): Promise<NodeDetails> {
    const bus = this.#bus;
    if (bus === null) return { frame: null, actions: [], value: null };
    const app = this.#app;
    const guard = this.#guard;
    const has = (iface: string) => node.interfaces.includes(iface);
    const full = this.readsFrame(node);
    const known = this.#shown?.frames.get(node.path);
    const frame = known !== undefined
      ? [known === null ? null : [known.x, known.y, known.width, known.height]]
      : full && has(Iface.COMPONENT)
      ? guard(bus.call(app, node.path, Iface.COMPONENT, "GetExtents", "u", [CoordType.SCREEN]))
      : null;
    let actions: Promise<readonly string[]> | readonly string[] | null = null;
    if (full && has(Iface.ACTION)) {
      const cache = this.#actionCache;
      actions = cache?.get(app, node) ??
        fetchActionNames(bus, app, node.path, guard).then(({ names, complete }) => {
          // An empty list may be an object not set up yet (Firefox's web content): not kept.
          if (complete && names.length > 0) cache?.set(app, node, names);
          return names;
        });
    }
    let value: Promise<string | null> | null = null;
    if (has(Iface.VALUE)) {
      value = guard(bus.property(app, node.path, Iface.VALUE, "CurrentValue")).then(formatValue);
    } else if (has(Iface.TEXT) && node.role !== Role.PASSWORD_TEXT && (node.name === "" || editable(node))) {
      value = guard(bus.property(app, node.path, Iface.TEXT, "CharacterCount")).then((count) =>
        typeof count === "number" && count > 0
          ? guard(bus.call(app, node.path, Iface.TEXT, "GetText", "ii", [0, Math.min(count, MAX_TEXT_CHARS)]))
            .then((reply) => typeof reply?.[0] === "string" ? reply[0] : null)
          : null
      );
    }
    const [extents, actionList, text] = await Promise.all([frame, actions, value]);
    return { frame: toRect(extents?.[0]), actions: actionList ? [...actionList] : [], value: text ?? null };
  }

  /** Counts a call and turns its failure into null. */
  readonly #guard = <T>(promise: Promise<T>): Promise<T | null> => {
    this.stats.calls++;
    return promise.catch((error) => {
      this.stats.failures++;
      if ((error as { errorName?: string }).errorName?.endsWith(".Timeout")) this.stats.timeouts++;
      return null;
    });
  };
}

/**
 * Action names of one object: the count from the `NActions` property, then each name
 * from `GetName(i)`, falling back to `GetLocalizedName(i)` when that is empty. Not
 * `GetActions`: it also computes every action's key binding, which hangs Firefox on the
 * items of an open menu (and it sends localized names, GTK's cells descriptions).
 */
function fetchActionNames(
  bus: AtspiCaller,
  app: string,
  path: string,
  guard: <T>(promise: Promise<T>) => Promise<T | null>,
): Promise<{ names: string[]; complete: boolean }> {
  return guard(bus.property(app, path, Iface.ACTION, "NActions")).then(async (count) => {
    if (typeof count !== "number" || count < 0) return { names: [], complete: false };
    const indices = [...Array(Math.min(count, 64)).keys()];
    const canonical = await Promise.all(
      indices.map((i) => guard(bus.call(app, path, Iface.ACTION, "GetName", "i", [i]))),
    );
    let complete = true;
    const names = await Promise.all(indices.map(async (i) => {
      const name = canonical[i]?.[0];
      if (typeof name === "string" && name !== "") return name;
      complete = false;
      const localized = await guard(bus.call(app, path, Iface.ACTION, "GetLocalizedName", "i", [i]));
      return typeof localized?.[0] === "string" ? localized[0] : "";
    }));
    return { names, complete };
  });
}

/**
 * An extents tuple as a frame; null for the placeholders toolkits send for
 * unrealized widgets (huge negative origins, empty or 1-pixel sizes; matches cua-driver).
 */
export function toRect(extents: unknown): Rect | null {
  if (!Array.isArray(extents) || extents.length !== 4) return null;
  const [x, y, width, height] = extents as number[];
  if (x <= -16384 || y <= -16384 || width <= 1 || height <= 1) return null;
  return { x, y, width, height };
}

/** A numeric value as text, as JS prints numbers ("50", "0.25"); null for a non-number. */
export function formatValue(value: unknown): string | null {
  if (typeof value !== "number" || Number.isNaN(value)) return null;
  return String(value);
}
