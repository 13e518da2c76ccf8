/**
 * Which drivers are attached to an X display, told by the X server itself: each driver owns a
 * selection of its own (`_CUA_DRIVER_<pid>_<token>`) through an unmapped window, and lists the
 * selection's atom in the root window's `_CUA_DRIVER_INSTANCES`. The server drops a selection
 * the moment its owner's connection closes, so a driver that was killed is gone from the answer
 * even though its entry stays in the list (pruned when nobody else is attached). held_input.ts
 * asks this before it releases the user's XTEST devices: another driver's press may be a drag
 * in progress.
 *
 * @module
 */
import { X, x11 } from "../../../../../ffi/linux/x11.ts";
import { getLongs } from "../properties.ts";
import type { XConnection } from "../connection.ts";

const LIST = "_CUA_DRIVER_INSTANCES";
const PropModeAppend = 2;

/** This process's registration on one connection. */
export interface DriverPresence {
  /** The selection this driver owns. */
  readonly selection: bigint;
  /** Other drivers attached to the display when this one registered. */
  readonly others: number;
}

function writeAtoms(conn: XConnection, atoms: readonly bigint[], mode: number): void {
  const data = new BigUint64Array(atoms);
  conn.trap(() =>
    x11.symbols.XChangeProperty(
      conn.unsafeDisplay(),
      conn.root,
      conn.atom(LIST),
      X.XA_ATOM,
      32,
      mode,
      new Uint8Array(data.buffer),
      atoms.length,
    )
  );
}

/**
 * Registers this driver on the connection's display and counts the other drivers attached.
 * The registration lasts as long as the connection.
 */
export function announceDriver(conn: XConnection): DriverPresence {
  const display = conn.unsafeDisplay();
  const listed = getLongs(conn, conn.root, LIST) ?? [];
  const live = listed.filter((atom) =>
    conn.trapReply(() => x11.symbols.XGetSelectionOwner(display, atom)).value !== X.None
  );
  const token = crypto.getRandomValues(new Uint32Array(1))[0].toString(36);
  const selection = conn.atom(`_CUA_DRIVER_${Deno.pid}_${token}`);
  const window = x11.symbols.XCreateSimpleWindow(display, conn.root, -1, -1, 1, 1, 0, 0n, 0n);
  conn.trap(() => x11.symbols.XSetSelectionOwner(display, selection, window, X.CurrentTime));
  if (live.length === 0) writeAtoms(conn, [selection], X.PropModeReplace);
  else writeAtoms(conn, [selection], PropModeAppend);
  return { selection, others: live.length };
}
