/**
 * A second XInput2 master (pointer + keyboard) for background input.
 *
 * Created with send_core = False, its own XTEST slave devices deliver real,
 * non-synthetic events that GTK accepts, while the user's core pointer, the
 * core input focus and the stacking order stay untouched (proven on Xvfb,
 * spikes/mpx_*.c). Masters outlive the client that created them, so stale ones
 * from a crashed driver are removed at start-up.
 *
 * @module
 */
import { cstr, readCString } from "../../../../../ffi/_c.ts";
import { x11 } from "../../../../../ffi/linux/x11.ts";
import {
  XI,
  xi,
  XIAddMasterInfoLayout,
  XIDeviceInfoLayout,
  XIRemoveMasterInfoLayout,
} from "../../../../../ffi/linux/xi.ts";
import { xtst } from "../../../../../ffi/linux/xtst.ts";
import { DriverError } from "../../../../ports/errors.ts";
import type { XConnection } from "../connection.ts";
import type { SpriteGuard } from "./sprite_guard.ts";

const NAME_PREFIX = "cua-agent";
/**
 * Tells this process's masters from an earlier process's with the same pid (a container's
 * driver often gets the same small pid every time it starts).
 */
const PROCESS_TOKEN = crypto.getRandomValues(new Uint32Array(1))[0].toString(36);

/**
 * True when a master pointer's name is an agent master of a driver that is gone: its pid is
 * not running, or it is this process's pid without this process's token (an earlier process).
 * Names: `cua-agent-<pid>-<token>-<n> pointer` (and `cua-agent-<pid>-<n> pointer` from older drivers).
 */
export function isStaleMasterName(name: string): boolean {
  const match = new RegExp(`^${NAME_PREFIX}-(\\d+)-(?:([0-9a-z]+)-)?\\d+ pointer$`).exec(name);
  if (!match) return false;
  const pid = Number(match[1]);
  if (pid === Deno.pid) return match[2] !== PROCESS_TOKEN;
  try {
    Deno.statSync(`/proc/${pid}`);
    return false;
  } catch {
    return true;
  }
}

/** One device of the hierarchy. */
interface DeviceRow {
  id: number;
  name: string;
  use: number;
}

function queryDevices(conn: XConnection): DeviceRow[] {
  const display = conn.unsafeDisplay();
  const count = new Int32Array(1);
  const info = xi.symbols.XIQueryDevice(display, XI.AllDevices, count);
  if (!info) return [];
  try {
    const view = new Deno.UnsafePointerView(info);
    const rows: DeviceRow[] = [];
    for (let i = 0; i < count[0]; i++) {
      const base = i * XIDeviceInfoLayout.size;
      rows.push({
        id: view.getInt32(base + XIDeviceInfoLayout.deviceid),
        name: readCString(view.getPointer(base + XIDeviceInfoLayout.name)),
        use: view.getInt32(base + XIDeviceInfoLayout.use),
      });
    }
    return rows;
  } finally {
    xi.symbols.XIFreeDeviceInfo(info);
  }
}

function removeMaster(conn: XConnection, pointerId: number): void {
  const change = new Uint8Array(XIRemoveMasterInfoLayout.size);
  const view = new DataView(change.buffer);
  view.setInt32(XIRemoveMasterInfoLayout.type, XI.RemoveMaster, true);
  view.setInt32(XIRemoveMasterInfoLayout.deviceid, pointerId, true);
  view.setInt32(XIRemoveMasterInfoLayout.return_mode, XI.Floating, true);
  conn.trap(() => xi.symbols.XIChangeHierarchy(conn.unsafeDisplay(), change, 1));
}

/** True when the server speaks XInput 2.2 or later. */
export function xinput2Available(conn: XConnection): boolean {
  // A library that cannot be opened is library_unavailable (naming its package), not a server without XInput2.
  for (const library of [xi, xtst]) void library.symbols;
  const major = new Int32Array([2]), minor = new Int32Array([2]);
  return xi.symbols.XIQueryVersion(conn.unsafeDisplay(), major, minor) === 0 &&
    (major[0] > 2 || (major[0] === 2 && minor[0] >= 2));
}

/**
 * Removes agent masters left behind by drivers that are no longer running, each rested on
 * the guard's window first so its sprite shows nothing when it goes (sprite_guard.ts).
 */
export function removeStaleMasters(conn: XConnection, guard: SpriteGuard | null = null): number {
  let removed = 0;
  const rows = queryDevices(conn);
  for (const row of rows) {
    if (row.use !== XI.MasterPointer || !isStaleMasterName(row.name)) continue;
    if (guard) restStale(conn, guard, row, rows);
    removeMaster(conn, row.id);
    removed++;
  }
  return removed;
}

/** Moves a stale master onto the guard's rest window through its XTEST slave. */
function restStale(conn: XConnection, guard: SpriteGuard, master: DeviceRow, rows: DeviceRow[]): void {
  const base = master.name.slice(0, -" pointer".length);
  const slave = rows.find((r) => r.name === `${base} XTEST pointer`);
  if (!slave) return;
  const display = conn.unsafeDisplay();
  const device = conn.trap(() => xi.symbols.XOpenDevice(display, BigInt(slave.id))).value;
  if (!device) return;
  const stale = { pointerId: master.id, pointerDevice: device, alive: true };
  guard.rest(stale);
  guard.forget(stale);
  conn.trap(() => xi.symbols.XCloseDevice(display, device));
}

let serial = 0;

/** A live agent master and the XTEST slaves that drive it. */
export class AgentMaster {
  #closed = false;

  private constructor(
    readonly conn: XConnection,
    readonly name: string,
    readonly pointerId: number,
    readonly keyboardId: number,
    /** `XDevice*` of the master's XTEST pointer slave. */
    readonly pointerDevice: Deno.PointerObject,
    /** `XDevice*` of the master's XTEST keyboard slave. */
    readonly keyboardDevice: Deno.PointerObject,
  ) {}

  /**
   * Creates a master named `cua-agent-<pid>-<token>-<n>`.
   *
   * @throws {DriverError} `background_unavailable` when the server cannot create one.
   */
  static create(conn: XConnection): AgentMaster {
    const name = `${NAME_PREFIX}-${Deno.pid}-${PROCESS_TOKEN}-${++serial}`;
    const display = conn.unsafeDisplay();
    const nameBytes = cstr(name);
    const change = new Uint8Array(XIAddMasterInfoLayout.size);
    const view = new DataView(change.buffer);
    view.setInt32(XIAddMasterInfoLayout.type, XI.AddMaster, true);
    view.setBigUint64(
      XIAddMasterInfoLayout.name,
      BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(nameBytes))),
      true,
    );
    view.setInt32(XIAddMasterInfoLayout.send_core, 0, true);
    view.setInt32(XIAddMasterInfoLayout.enable, 1, true);
    const { errors } = conn.trap(() => xi.symbols.XIChangeHierarchy(display, change, 1));
    const unavailable = (why: string) =>
      new DriverError("background_unavailable", `Cannot create a background input device: ${why}`, {
        hint: 'retry with delivery_mode "foreground"',
      });
    if (errors.length) throw unavailable(`XIChangeHierarchy failed (X error ${errors[0].errorCode})`);
    const rows = queryDevices(conn);
    const find = (suffix: string) => rows.find((r) => r.name === `${name} ${suffix}`)?.id;
    const pointerId = find("pointer"), keyboardId = find("keyboard");
    const xtestPointer = find("XTEST pointer"), xtestKeyboard = find("XTEST keyboard");
    if (!pointerId || !keyboardId || !xtestPointer || !xtestKeyboard) {
      if (pointerId) removeMaster(conn, pointerId);
      throw unavailable("the new master has no XTEST slaves");
    }
    const pointerDevice = xi.symbols.XOpenDevice(display, BigInt(xtestPointer));
    const keyboardDevice = xi.symbols.XOpenDevice(display, BigInt(xtestKeyboard));
    if (!pointerDevice || !keyboardDevice) {
      removeMaster(conn, pointerId);
      throw unavailable("XOpenDevice failed");
    }
    return new AgentMaster(conn, name, pointerId, keyboardId, pointerDevice, keyboardDevice);
  }

  /** False once closed or when its connection is gone. */
  get alive(): boolean {
    return !this.#closed && this.conn.alive;
  }

  /** The window the agent keyboard delivers to (0 when none). */
  focus(): bigint {
    const out = new BigUint64Array(1);
    xi.symbols.XIGetFocus(this.conn.unsafeDisplay(), this.keyboardId, out);
    return out[0];
  }

  /** Points the agent keyboard at a window (0n for none). */
  setFocus(window: bigint): void {
    this.conn.trap(() => xi.symbols.XISetFocus(this.conn.unsafeDisplay(), this.keyboardId, window, 0n));
  }

  /** Removes the master from the server. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (!this.conn.alive) return;
    const display = this.conn.unsafeDisplay();
    xi.symbols.XCloseDevice(display, this.pointerDevice);
    xi.symbols.XCloseDevice(display, this.keyboardDevice);
    removeMaster(this.conn, this.pointerId);
    x11.symbols.XSync(display, 0);
  }
}
