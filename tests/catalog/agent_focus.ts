/**
 * Recovery between catalog cells (test-only): clears the keyboard focus of the driver's
 * private XInput2 keyboards ("cua-agent-*" masters). Openbox tracks every master
 * keyboard's focus, so while a private keyboard's focus rests on the window that holds
 * the user's focus, the window manager cannot make that window active again; the cell
 * that left it there has already failed with "desktop disturbed", and this lets the
 * next cells start from a clean desktop instead of failing in a cascade.
 *
 * @module
 */
import { readCString } from "../../ffi/_c.ts";
import { XI, xi, XIDeviceInfoLayout } from "../../ffi/linux/xi.ts";
import { XConnection } from "../../src/backends/linux/x11/connection.ts";

/** Sets every private master keyboard's focus to None; returns how many there were. */
export function clearAgentKeyboardFocus(display: string): number {
  const conn = XConnection.open(display);
  try {
    const count = new Int32Array(1);
    const info = xi.symbols.XIQueryDevice(conn.unsafeDisplay(), XI.AllMasterDevices, count);
    if (!info) return 0;
    const ids: number[] = [];
    try {
      const view = new Deno.UnsafePointerView(info);
      for (let i = 0; i < count[0]; i++) {
        const base = i * XIDeviceInfoLayout.size;
        const name = readCString(view.getPointer(base + XIDeviceInfoLayout.name));
        if (
          view.getInt32(base + XIDeviceInfoLayout.use) === XI.MasterKeyboard && name.startsWith("cua-agent")
        ) {
          ids.push(view.getInt32(base + XIDeviceInfoLayout.deviceid));
        }
      }
    } finally {
      xi.symbols.XIFreeDeviceInfo(info);
    }
    for (const id of ids) conn.trap(() => xi.symbols.XISetFocus(conn.unsafeDisplay(), id, 0n, 0n));
    conn.flush();
    return ids.length;
  } finally {
    conn.close();
  }
}
