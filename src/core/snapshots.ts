/**
 * Element tokens: per-window accessibility snapshots and the handles minted from them.
 *
 * A token is `s<8 hex>:<index>`; the `s<8 hex>` part is the snapshot id. A newer
 * snapshot of the same window replaces the older one at once, and each pid keeps
 * at most {@linkcode MAX_SNAPSHOTS_PER_PID} snapshots (contract.md §4.7).
 *
 * @module
 */
import { DriverError } from "./errors.ts";

/** Snapshots kept per pid before the oldest is evicted. */
export const MAX_SNAPSHOTS_PER_PID = 8;

const TOKEN_RE = /^(s[0-9a-f]{8}):(\d+)$/;
const SNAPSHOT_RE = /^s[0-9a-f]{8}$/;

/** One indexable element as a snapshot remembers it. */
export interface SnapshotElement<Ref = unknown> {
  readonly index: number;
  readonly role: string;
  readonly label: string;
  /** Back-end handle used to act on the element later (bus name and path on Linux). */
  readonly ref: Ref;
  /** Screen frame when the snapshot was taken, if known. */
  readonly frame?: { x: number; y: number; width: number; height: number } | null;
  /** Action names when the snapshot was taken. */
  readonly actions?: readonly string[];
  /** Interfaces ("text", "editable_text", "value", ...) when the snapshot was taken. */
  readonly interfaces?: readonly string[];
}

/** A registered accessibility snapshot of one window. */
export interface Snapshot<Ref = unknown> {
  readonly id: string;
  readonly pid: number;
  readonly windowId: number;
  readonly elements: readonly SnapshotElement<Ref>[];
  readonly createdAt: number;
}

/** Result of resolving a token. */
export interface ResolvedElement<Ref = unknown> {
  readonly snapshot: Snapshot<Ref>;
  readonly element: SnapshotElement<Ref>;
}

/** Mints snapshot ids and resolves element tokens. */
export class SnapshotStore {
  #counter = crypto.getRandomValues(new Uint32Array(1))[0] & 0x7fffffff;
  readonly #byId = new Map<string, Snapshot>();
  /** Newest snapshot id per window. */
  readonly #current = new Map<number, string>();

  /**
   * Registers a new snapshot of a window and returns it with the ids it replaced.
   */
  register<Ref>(
    pid: number,
    windowId: number,
    elements: readonly SnapshotElement<Ref>[],
    id: string = this.reserveId(),
  ): { snapshot: Snapshot<Ref>; invalidated: string[] } {
    const snapshot: Snapshot<Ref> = { id, pid, windowId, elements, createdAt: Date.now() };
    const invalidated: string[] = [];
    for (const [oldId, old] of this.#byId) {
      if (old.windowId === windowId) {
        this.#byId.delete(oldId);
        invalidated.push(oldId);
      }
    }
    this.#byId.set(id, snapshot);
    this.#current.set(windowId, id);
    this.#evict(pid);
    return { snapshot, invalidated };
  }

  /** Mints a snapshot id for a snapshot about to be registered (tokens embed it). */
  reserveId(): string {
    this.#counter = (this.#counter + 1) >>> 0;
    return `s${this.#counter.toString(16).padStart(8, "0")}`;
  }

  /** The newest snapshot of a window, if any. */
  current(windowId: number): Snapshot | undefined {
    const id = this.#current.get(windowId);
    return id === undefined ? undefined : this.#byId.get(id);
  }

  /**
   * Resolves an element token.
   *
   * @throws {DriverError} `invalid_element_token` when malformed or out of range,
   *   `stale_element_token` when its snapshot was replaced or evicted.
   */
  resolve(token: string): ResolvedElement {
    const match = TOKEN_RE.exec(token);
    if (!match) {
      throw new DriverError("invalid_element_token", `Element token "${token}" is malformed`, {
        hint: "pass element_token exactly as get_window_state returned it (s<8 hex>:<index>)",
      });
    }
    const snapshot = this.#byId.get(match[1]);
    if (!snapshot) {
      const current = [...this.#current.values()];
      throw new DriverError(
        "stale_element_token",
        "element_token is stale; call get_window_state again to refresh",
        {
          snapshot_id: match[1],
          current_snapshot_ids: current,
          hint: "call get_window_state again to refresh element tokens",
        },
      );
    }
    const index = Number(match[2]);
    const element = snapshot.elements[index];
    if (!element) {
      throw new DriverError(
        "invalid_element_token",
        `Element index ${index} is out of range for snapshot ${snapshot.id} (${snapshot.elements.length} elements)`,
        { hint: "use an element_token from the latest get_window_state" },
      );
    }
    return { snapshot, element };
  }

  /** Checks the shape of a snapshot id. */
  static isSnapshotId(id: string): boolean {
    return SNAPSHOT_RE.test(id);
  }

  #evict(pid: number): void {
    const ofPid = [...this.#byId.values()].filter((s) => s.pid === pid);
    for (const old of ofPid.slice(0, Math.max(0, ofPid.length - MAX_SNAPSHOTS_PER_PID))) {
      this.#byId.delete(old.id);
      if (this.#current.get(old.windowId) === old.id) this.#current.delete(old.windowId);
    }
  }
}
