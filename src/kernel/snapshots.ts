/**
 * Element tokens: per-window accessibility snapshots and the handles minted from them.
 *
 * A token is `s<8 hex>:<index>`; the `s<8 hex>` part is the snapshot id. A newer
 * snapshot of the same window replaces the older one at once, and each pid keeps
 * at most {@linkcode MAX_SNAPSHOTS_PER_PID} snapshots (contract.md §4.7).
 *
 * @module
 */
import type { AxInterface, AxRole } from "../ports/accessibility.ts";
import { DriverError } from "../ports/errors.ts";

/** Snapshots kept per pid before the oldest is evicted. */
export const MAX_SNAPSHOTS_PER_PID = 8;
/** How many gone snapshots the store remembers the reason of. */
const GONE_REMEMBERED = 256;

const TOKEN_RE = /^(s[0-9a-f]{8}):(\d+)$/;
const SNAPSHOT_RE = /^s[0-9a-f]{8}$/;

/** One indexable element as a snapshot remembers it. */
export interface SnapshotElement<Ref = unknown> {
  readonly index: number;
  /** Neutral role. */
  readonly role: AxRole;
  /** The platform's role name, as get_window_state showed it. */
  readonly platformRole: string;
  readonly label: string;
  /** Its value and focus when the snapshot was taken (what a successor diff compares). */
  readonly value?: string;
  readonly focused?: boolean;
  /** Back-end handle used to act on the element later (bus name and path on Linux). */
  readonly ref: Ref;
  /** Screen frame when the snapshot was taken, if known. */
  readonly frame?: { x: number; y: number; width: number; height: number } | null;
  /** Action names when the snapshot was taken. */
  readonly actions?: readonly string[];
  /** Interfaces ("text", "editable_text", "value", ...) when the snapshot was taken. */
  readonly interfaces?: readonly AxInterface[];
}

/** A registered accessibility snapshot of one window. */
export interface Snapshot<Ref = unknown> {
  readonly id: string;
  readonly pid: number;
  readonly windowId: number;
  /** The session that read it; its tokens resolve only there. */
  readonly sessionId: string;
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
  /** Newest snapshot id per session and window. */
  readonly #current = new Map<string, string>();
  readonly #goneWhy = new Map<string, string>();

  /**
   * Registers a new snapshot of a window and returns it with the ids it replaced. With
   * `keepPrevious` (a filtered look, which shows part of the same tree) the window's earlier
   * snapshots stay valid beside it, within the per-pid bound.
   */
  register<Ref>(
    pid: number,
    windowId: number,
    elements: readonly SnapshotElement<Ref>[],
    id: string = this.reserveId(),
    sessionId = "",
    keepPrevious = false,
  ): { snapshot: Snapshot<Ref>; invalidated: string[] } {
    const snapshot: Snapshot<Ref> = { id, pid, windowId, sessionId, elements, createdAt: Date.now() };
    const invalidated: string[] = [];
    for (const [oldId, old] of this.#byId) {
      if (!keepPrevious && old.windowId === windowId && old.sessionId === sessionId) {
        this.#byId.delete(oldId);
        this.#gone(oldId, `a newer get_window_state of window ${windowId} (${id}) replaced it`);
        invalidated.push(oldId);
      }
    }
    this.#byId.set(id, snapshot);
    this.#current.set(`${sessionId}|${windowId}`, id);
    this.#evict(pid);
    return { snapshot, invalidated };
  }

  /** Remembers why a snapshot went away, for the stale-token message (bounded). */
  #gone(id: string, why: string): void {
    this.#goneWhy.set(id, why);
    while (this.#goneWhy.size > GONE_REMEMBERED) this.#goneWhy.delete(this.#goneWhy.keys().next().value!);
  }

  /** Mints a snapshot id for a snapshot about to be registered (tokens embed it). */
  reserveId(): string {
    this.#counter = (this.#counter + 1) >>> 0;
    return `s${this.#counter.toString(16).padStart(8, "0")}`;
  }

  /** The newest snapshot of a window read in a session, if any. */
  current(windowId: number, sessionId = ""): Snapshot | undefined {
    const id = this.#current.get(`${sessionId}|${windowId}`);
    return id === undefined ? undefined : this.#byId.get(id);
  }

  /** Forgets every snapshot of an ended session. */
  dropSession(sessionId: string): void {
    for (const [id, snapshot] of this.#byId) {
      if (snapshot.sessionId !== sessionId) continue;
      this.#byId.delete(id);
      this.#gone(id, "its session ended");
    }
    for (const key of [...this.#current.keys()]) {
      if (key.startsWith(`${sessionId}|`)) this.#current.delete(key);
    }
  }

  /**
   * Resolves an element token.
   *
   * @throws {DriverError} `invalid_element_token` when malformed or out of range,
   *   `stale_element_token` when its snapshot was replaced or evicted.
   */
  resolve(token: string, sessionId?: string): ResolvedElement {
    const match = TOKEN_RE.exec(token);
    if (!match) {
      throw new DriverError("invalid_element_token", `Element token "${token}" is malformed`, {
        hint: "pass element_token exactly as get_window_state returned it (s<8 hex>:<index>)",
      });
    }
    const found = this.#byId.get(match[1]);
    const snapshot = found && (sessionId === undefined || found.sessionId === sessionId) ? found : undefined;
    if (!snapshot) {
      const current = [...this.#current.entries()]
        .filter(([key]) => sessionId === undefined || key.startsWith(`${sessionId}|`))
        .map(([, id]) => this.#byId.get(id))
        .filter((s): s is Snapshot => s !== undefined);
      const why = found
        ? "it belongs to another session (pass that session's label, or observe in this one)"
        : this.#goneWhy.get(match[1]) ??
          "this driver process never made it (it restarted, or the token came from another process)";
      throw new DriverError("stale_element_token", `Element token "${token}" is stale: ${why}`, {
        snapshot_id: match[1],
        reason: found ? "other_session" : this.#goneWhy.has(match[1]) ? "replaced_or_ended" : "unknown",
        current_snapshot_ids: current.map((s) => s.id),
        current_snapshots: current.map((s) => ({ snapshot_id: s.id, pid: s.pid, window_id: s.windowId })),
        hint: "call get_window_state again for fresh element tokens",
      });
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
      this.#gone(old.id, `more than ${MAX_SNAPSHOTS_PER_PID} newer snapshots of pid ${pid} pushed it out`);
      const key = `${old.sessionId}|${old.windowId}`;
      if (this.#current.get(key) === old.id) this.#current.delete(key);
    }
  }
}
