/**
 * The screen's questions over the wire client, answered as the Xlib path (`xlib_screen.ts`)
 * answers them: the monitor list from RandR 1.5's GetMonitors, as XRRGetMonitors reads it
 * (active monitors, primary first, ids in the server's order, names from their atoms; the
 * whole root when RandR is older or lists none), and the pointer from QueryPointer.
 *
 * @module
 */
import type { CursorPosition, DisplayInfo } from "../../../ports/screen.ts";
import { displayList, type Monitor } from "./monitor_list.ts";
import { type XWire, XWireError } from "../../../lib/x11/wire.ts";

const RR_QUERY_VERSION = 0;
const RR_GET_MONITORS = 42;

/** The display's monitors, primary first. */
export async function wireDisplays(wire: XWire): Promise<DisplayInfo[]> {
  const randr = await wire.extension("RANDR");
  if (randr === null) return displayList(wire.name, wire.screen, null);
  // Sent together; a server older than RandR 1.5 answers GetMonitors with an error.
  const [version, reply] = await wire.answers(queryVersion(randr), getMonitors(randr, wire.screen.root));
  if (version instanceof XWireError) throw version;
  const major = version.getUint32(8, true), minor = version.getUint32(12, true);
  if (major < 1 || (major === 1 && minor < 5)) return displayList(wire.name, wire.screen, null);
  if (reply instanceof XWireError) throw reply;
  const found = parseMonitors(reply);
  const names = await wire.atomNames(found.filter((m) => m.nameAtom !== 0).map((m) => m.nameAtom));
  let named = 0;
  const monitors = found.map(({ nameAtom, primary, x, y, width, height }): Monitor => ({
    name: nameAtom !== 0 ? names[named++] : null,
    primary,
    bounds: { x, y, width, height },
  }));
  return displayList(wire.name, wire.screen, monitors);
}

/** The core pointer's position on the root window (XQueryPointer's root_x and root_y). */
export async function wirePointer(wire: XWire): Promise<CursorPosition> {
  const request = new Uint8Array(8);
  const view = new DataView(request.buffer);
  request[0] = 38; // QueryPointer
  view.setUint16(2, 2, true);
  view.setUint32(4, wire.screen.root, true);
  const [reply] = await wire.requests(request);
  return { x: reply.getInt16(16, true), y: reply.getInt16(18, true), source: "x11" };
}

/** One MONITORINFO of a GetMonitors reply. */
export interface WireMonitor {
  nameAtom: number;
  primary: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The monitors of a GetMonitors reply, in the server's order. */
export function parseMonitors(reply: DataView): WireMonitor[] {
  const count = reply.getUint32(12, true);
  const monitors: WireMonitor[] = [];
  let at = 32;
  for (let i = 0; i < count && at + 24 <= reply.byteLength; i++) {
    monitors.push({
      nameAtom: reply.getUint32(at, true),
      primary: reply.getUint8(at + 4) !== 0,
      x: reply.getInt16(at + 8, true),
      y: reply.getInt16(at + 10, true),
      width: reply.getUint16(at + 12, true),
      height: reply.getUint16(at + 14, true),
    });
    at += 24 + reply.getUint16(at + 6, true) * 4; // and the monitor's outputs
  }
  return monitors;
}

/** RRQueryVersion 1.6 (the server answers with what it speaks, at most that). */
function queryVersion(major: number): Uint8Array {
  const request = new Uint8Array(12);
  const view = new DataView(request.buffer);
  request[0] = major;
  request[1] = RR_QUERY_VERSION;
  view.setUint16(2, 3, true);
  view.setUint32(4, 1, true);
  view.setUint32(8, 6, true);
  return request;
}

/** RRGetMonitors of `root`, active monitors only (XRRGetMonitors with get_active True). */
function getMonitors(major: number, root: number): Uint8Array {
  const request = new Uint8Array(12);
  const view = new DataView(request.buffer);
  request[0] = major;
  request[1] = RR_GET_MONITORS;
  view.setUint16(2, 3, true);
  view.setUint32(4, root, true);
  request[8] = 1;
  return request;
}
