/**
 * Input a killed driver left pressed, released when a driver attaches to a display.
 *
 * A driver killed mid-drag or mid-typing never sends its releases: the user's XTEST devices
 * (`Virtual core XTEST pointer` / `keyboard`) keep a button or Shift down for every client,
 * and so does the private master of the dead driver (agent_master.ts). On attaching, a
 * driver reads each of those devices' state (XQueryDeviceState, what `xinput query-state`
 * prints) and sends a release through the same XTEST device for every button and key that
 * is down. The user's XTEST devices are left alone while another driver is attached to the
 * display (driver_presence.ts): its press may be a drag in progress. Private masters of dead
 * drivers are released whatever else runs; they are removed later, rested first
 * (agent_master.ts), because GTK aborts when a device it tracks vanishes under it.
 *
 * @module
 */
import { readCString } from "../../../../../ffi/_c.ts";
import {
  XDeviceStateLayout,
  XI,
  xi,
  XIDeviceInfoLayout,
  XInputClass,
  XInputClassLayout,
} from "../../../../../ffi/linux/xi.ts";
import { xtst } from "../../../../../ffi/linux/xtst.ts";
import type { HeldInputReport } from "../../../../ports/input.ts";
import type { XConnection } from "../connection.ts";

/** The user's XTEST devices, which every XTEST client (the driver's foreground input) drives. */
const CORE_XTEST = new Set(["Virtual core XTEST pointer", "Virtual core XTEST keyboard"]);

/** What one reset found and released. */
export type HeldInputReset = HeldInputReport;

interface Row {
  id: number;
  name: string;
  use: number;
  attachment: number;
}

function devices(conn: XConnection): Row[] {
  const count = new Int32Array(1);
  const info = xi.symbols.XIQueryDevice(conn.unsafeDisplay(), XI.AllDevices, count);
  if (!info) return [];
  try {
    const view = new Deno.UnsafePointerView(info);
    return Array.from({ length: count[0] }, (_, i) => {
      const base = i * XIDeviceInfoLayout.size;
      return {
        id: view.getInt32(base + XIDeviceInfoLayout.deviceid),
        name: readCString(view.getPointer(base + XIDeviceInfoLayout.name)),
        use: view.getInt32(base + XIDeviceInfoLayout.use),
        attachment: view.getInt32(base + XIDeviceInfoLayout.attachment),
      };
    });
  } finally {
    xi.symbols.XIFreeDeviceInfo(info);
  }
}

/** The buttons and keys a device reports down (bit n of its class's array is button or key n). */
function heldOn(conn: XConnection, device: Deno.PointerObject): { buttons: number[]; keys: number[] } {
  const held = { buttons: [] as number[], keys: [] as number[] };
  const state = conn.trapReply(() => xi.symbols.XQueryDeviceState(conn.unsafeDisplay(), device)).value;
  if (!state) return held;
  try {
    const view = new Deno.UnsafePointerView(state);
    const classes = view.getInt32(XDeviceStateLayout.num_classes);
    let at = view.getPointer(XDeviceStateLayout.data);
    for (let i = 0; i < classes && at; i++) {
      const cls = new Deno.UnsafePointerView(at);
      const kind = cls.getUint8(XInputClassLayout.class);
      const length = cls.getUint8(XInputClassLayout.length);
      if (kind === XInputClass.KeyClass || kind === XInputClass.ButtonClass) {
        const count = Math.min(cls.getInt16(XInputClassLayout.count), 256);
        const out = kind === XInputClass.KeyClass ? held.keys : held.buttons;
        for (let n = 1; n < count; n++) {
          if (cls.getUint8(XInputClassLayout.bits + (n >> 3)) & (1 << (n & 7))) out.push(n);
        }
      }
      if (length === 0) break;
      at = Deno.UnsafePointer.offset(at, length);
    }
  } finally {
    xi.symbols.XFreeDeviceState(state);
  }
  return held;
}

/** Releases what one XTEST device holds, through that device; returns what was down. */
function release(conn: XConnection, row: Row): { buttons: number[]; keys: number[] } {
  const display = conn.unsafeDisplay();
  const device = conn.trap(() => xi.symbols.XOpenDevice(display, BigInt(row.id))).value;
  if (!device) return { buttons: [], keys: [] };
  try {
    const held = heldOn(conn, device);
    const none = new Int32Array(1);
    conn.trap(() => {
      for (const key of held.keys) xtst.symbols.XTestFakeDeviceKeyEvent(display, device, key, 0, none, 0, 0n);
      for (const button of held.buttons) {
        xtst.symbols.XTestFakeDeviceButtonEvent(display, device, button, 0, none, 0, 0n);
      }
    });
    return held;
  } finally {
    conn.trap(() => xi.symbols.XCloseDevice(display, device));
  }
}

/**
 * Releases every button and key held on the user's XTEST devices (unless `othersAttached`
 * names another driver) and on the XTEST slaves of the stale private masters.
 *
 * @param isStale Tells a stale private master by its device name (agent_master.ts).
 * @param othersAttached Why the user's devices must be left alone, or null.
 */
export function releaseHeldInput(
  conn: XConnection,
  isStale: (masterName: string) => boolean,
  othersAttached: string | null,
): HeldInputReset {
  const rows = devices(conn);
  const staleMasters = rows.filter((r) => r.use === XI.MasterPointer && isStale(r.name));
  const staleIds = new Set<number>();
  for (const master of staleMasters) {
    staleIds.add(master.id);
    const keyboard = rows.find((r) => r.use === XI.MasterKeyboard && r.attachment === master.id);
    if (keyboard) staleIds.add(keyboard.id);
  }
  const targets = rows.filter((r) =>
    (r.use === XI.SlavePointer || r.use === XI.SlaveKeyboard) && /XTEST (pointer|keyboard)$/.test(r.name) &&
    (staleIds.has(r.attachment) || (othersAttached === null && CORE_XTEST.has(r.name)))
  );
  const released: HeldInputReset["released"] = [];
  for (const row of targets) {
    const held = release(conn, row);
    if (held.buttons.length || held.keys.length) released.push({ device: row.name, ...held });
  }
  return {
    at: new Date().toISOString(),
    released,
    stale_masters: staleMasters.map((m) => m.name),
    ...(othersAttached === null ? {} : { core_skipped: othersAttached }),
  };
}
