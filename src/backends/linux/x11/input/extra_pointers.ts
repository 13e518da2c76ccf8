/**
 * Extra private pointers (one more agent master each) for held buttons and
 * parallel drags, kept in a pool for the life of the connection.
 *
 * Why a pool: GTK 3 aborts on any X error, and it issues XI requests for a
 * device (XIChangeCursor on enter) some time after that device's events
 * arrive. Removing a master right after its gesture races with those
 * requests: the app dies of XI_BadDevice (seen on the fixture). So a finished
 * pointer is parked over bare root, where no client tracks it, and reused;
 * masters are removed only when the input back end closes.
 *
 * @module
 */
import type { OwnedPointer } from "../../../../ports/input.ts";
import type { XConnection } from "../connection.ts";
import { AgentMaster, removeStaleMasters } from "./agent_master.ts";
import { X11Pointer } from "./pointer.ts";
import type { SpriteGuard } from "./sprite_guard.ts";
import { bareRootPoint } from "./stacking.ts";

/** Agent masters handed out as {@linkcode OwnedPointer}s and taken back when closed. */
export class ExtraPointerPool {
  readonly #idle: AgentMaster[] = [];
  readonly #all = new Set<AgentMaster>();

  constructor(readonly conn: XConnection, readonly guard: SpriteGuard | null = null) {}

  /**
   * A private pointer of its own, idle or new.
   *
   * @throws {DriverError} `background_unavailable` when no master can be created.
   */
  acquire(): OwnedPointer {
    let master = this.#idle.pop();
    while (master && !master.alive) master = this.#idle.pop();
    if (!master) {
      if (this.#all.size === 0) removeStaleMasters(this.conn, this.guard);
      master = AgentMaster.create(this.conn);
      this.guard?.enroll(master);
      this.#all.add(master);
    }
    const taken = master;
    const pointer = new X11Pointer(this.conn, taken, this.guard);
    let closed = false;
    return Object.assign(pointer, {
      close: async (): Promise<void> => {
        if (closed) return;
        closed = true;
        try {
          if (this.conn.alive) {
            await pointer.releaseAll();
            await pointer.park();
          }
        } finally {
          if (taken.alive && this.#all.has(taken)) this.#idle.push(taken);
        }
      },
    });
  }

  /** Removes every master (parked first, so no client still tracks it and its sprite shows nothing). */
  close(): void {
    const spot = this.conn.alive && !this.guard ? bareRootPoint(this.conn) : null;
    for (const master of this.#all) {
      if (this.guard) this.guard.rest(master);
      // X11Pointer.move sends synchronously; close() syncs before removing the master.
      else if (spot && master.alive) void new X11Pointer(this.conn, master).move(spot);
      this.guard?.forget(master);
      master.close();
    }
    this.#all.clear();
    this.#idle.length = 0;
  }
}
