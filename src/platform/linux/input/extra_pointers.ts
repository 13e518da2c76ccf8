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
import type { OwnedPointer, Point } from "../../types.ts";
import type { XConnection } from "../x11/connection.ts";
import { AgentMaster, removeStaleMasters } from "./agent_master.ts";
import { X11Pointer } from "./pointer.ts";
import { rootChildAt } from "./stacking.ts";

const PARK_GRID = 48;

/** A point over bare root (no window there), scanning from the bottom-right corner; null if none. */
export function bareRootPoint(conn: XConnection): Point | null {
  const { width, height } = conn.screenSize();
  for (let y = height - 1; y >= 0; y -= PARK_GRID) {
    for (let x = width - 1; x >= 0; x -= PARK_GRID) {
      if (rootChildAt(conn, { x, y }) === null) return { x, y };
    }
  }
  return null;
}

/** Agent masters handed out as {@linkcode OwnedPointer}s and taken back when closed. */
export class ExtraPointerPool {
  readonly #idle: AgentMaster[] = [];
  readonly #all = new Set<AgentMaster>();

  constructor(readonly conn: XConnection) {}

  /**
   * A private pointer of its own, idle or new.
   *
   * @throws {DriverError} `background_unavailable` when no master can be created.
   */
  acquire(): OwnedPointer {
    let master = this.#idle.pop();
    while (master && !master.alive) master = this.#idle.pop();
    if (!master) {
      if (this.#all.size === 0) removeStaleMasters(this.conn);
      master = AgentMaster.create(this.conn);
      this.#all.add(master);
    }
    const taken = master;
    const pointer = new X11Pointer(this.conn, taken);
    let closed = false;
    return Object.assign(pointer, {
      close: async (): Promise<void> => {
        if (closed) return;
        closed = true;
        try {
          if (this.conn.alive) {
            await pointer.releaseAll();
            await park(this.conn, pointer);
          }
        } finally {
          if (taken.alive && this.#all.has(taken)) this.#idle.push(taken);
        }
      },
    });
  }

  /** Removes every master (parked first, so no client still tracks it). */
  close(): void {
    const spot = this.conn.alive ? bareRootPoint(this.conn) : null;
    for (const master of this.#all) {
      // X11Pointer.move sends synchronously; close() syncs before removing the master.
      if (spot && master.alive) void new X11Pointer(this.conn, master).move(spot);
      master.close();
    }
    this.#all.clear();
    this.#idle.length = 0;
  }
}

async function park(conn: XConnection, pointer: X11Pointer): Promise<void> {
  const spot = bareRootPoint(conn);
  if (!spot) return;
  await pointer.move(spot);
  await pointer.sync();
}
