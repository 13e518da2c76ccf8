/**
 * Window property readers and writers (ICCCM/EWMH) over an {@linkcode XConnection}.
 *
 * @module
 */
import { X, x11 } from "../../../../ffi/linux/x11.ts";
import type { XConnection } from "./connection.ts";

/** A property as read: its type atom, format and items. */
export interface RawProperty {
  type: bigint;
  format: 8 | 16 | 32;
  /** Format 8: bytes. */
  bytes: Uint8Array;
  /** Format 32 items (Xlib stores them as longs). */
  longs: bigint[];
}

/** Longest property read, in 32-bit units (4 MiB). */
const MAX_LONGS = 1n << 20n;

/**
 * Reads a property; null when the window or property does not exist.
 */
export function getProperty(
  connection: XConnection,
  window: bigint,
  property: bigint,
  type: bigint = X.AnyPropertyType,
  maxLongs: bigint = MAX_LONGS,
): RawProperty | null {
  const actualType = new BigUint64Array(1), actualFormat = new Int32Array(1);
  const nitems = new BigUint64Array(1), bytesAfter = new BigUint64Array(1), data = new BigUint64Array(1);
  const { value, errors } = connection.trapReply(() =>
    x11.symbols.XGetWindowProperty(
      connection.unsafeDisplay(),
      window,
      property,
      0n,
      maxLongs,
      X.False,
      type,
      actualType,
      actualFormat,
      nitems,
      bytesAfter,
      data,
    )
  );
  const pointer = data[0] ? Deno.UnsafePointer.create(data[0]) : null;
  try {
    if (value !== X.Success || errors.length || actualType[0] === 0n || !pointer) return null;
    const format = actualFormat[0] as 8 | 16 | 32;
    const count = Number(nitems[0]);
    const unit = format === 8 ? 1 : format === 16 ? 2 : 8;
    const raw = count
      ? new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(pointer, count * unit).slice(0))
      : new Uint8Array();
    const longs: bigint[] = [];
    if (format === 32) {
      const view = new DataView(raw.buffer);
      for (let i = 0; i < count; i++) longs.push(view.getBigUint64(i * 8, true));
    }
    return { type: actualType[0], format, bytes: format === 8 ? raw : new Uint8Array(), longs };
  } finally {
    if (pointer) x11.symbols.XFree(pointer);
  }
}

/** Reads a text property (UTF8_STRING or STRING); null if absent. */
export function getText(connection: XConnection, window: bigint, name: string): string | null {
  const property = getProperty(connection, window, connection.atom(name));
  if (!property || property.format !== 8) return null;
  if (property.type === X.XA_STRING) {
    // Latin-1.
    return String.fromCharCode(...property.bytes);
  }
  return new TextDecoder().decode(property.bytes);
}

/** Reads the first CARDINAL/WINDOW/ATOM item of a format-32 property. */
export function getCardinal(connection: XConnection, window: bigint, name: string): bigint | null {
  const property = getProperty(connection, window, connection.atom(name));
  if (!property || property.format !== 32 || property.longs.length === 0) return null;
  return property.longs[0];
}

/** Reads a list of format-32 items (window lists, atom lists). */
export function getLongs(connection: XConnection, window: bigint, name: string): bigint[] | null {
  const property = getProperty(connection, window, connection.atom(name));
  if (!property || property.format !== 32) return null;
  return property.longs;
}

/** The window title: `_NET_WM_NAME` (UTF-8), else `WM_NAME`. */
export function windowTitle(connection: XConnection, window: bigint): string {
  return getText(connection, window, "_NET_WM_NAME") ?? getText(connection, window, "WM_NAME") ?? "";
}

/** `WM_CLASS` as [instance, class]. */
export function windowClass(connection: XConnection, window: bigint): [string, string] {
  const property = getProperty(connection, window, X.XA_WM_CLASS);
  if (!property || property.format !== 8) return ["", ""];
  const parts = new TextDecoder().decode(property.bytes).split("\0");
  return [parts[0] ?? "", parts[1] ?? ""];
}

/**
 * Sends a format-32 client message to the root window, as EWMH requests are sent (or,
 * with `to`, to that window itself, as ICCCM protocol messages are sent).
 */
export function sendRootClientMessage(
  connection: XConnection,
  window: bigint,
  messageType: string,
  data: readonly bigint[],
  to?: bigint,
): void {
  const event = new Uint8Array(192);
  const view = new DataView(event.buffer);
  view.setInt32(0, X.ClientMessage, true); // type
  view.setInt32(16, 1, true); // send_event
  view.setBigUint64(32, window, true); // window
  view.setBigUint64(40, connection.atom(messageType), true); // message_type
  view.setInt32(48, 32, true); // format
  for (let i = 0; i < Math.min(5, data.length); i++) {
    view.setBigInt64(56 + i * 8, BigInt.asIntN(64, data[i]), true);
  }
  connection.trap(() =>
    x11.symbols.XSendEvent(
      connection.unsafeDisplay(),
      to ?? connection.root,
      X.False,
      to === undefined ? X.SubstructureRedirectMask | X.SubstructureNotifyMask : X.NoEventMask,
      event,
    )
  );
}
