/**
 * Whether the X server offers an extension, for probes and for choices that depend on
 * the server (a software server without DRI3 gets GTK 4's software renderer).
 *
 * @module
 */
import { cstr } from "../../../../ffi/_c.ts";
import { x11 } from "../../../../ffi/linux/x11.ts";
import type { XConnection } from "./connection.ts";

/** True when the server behind `connection` has the extension `name` (`XQueryExtension`). */
export function hasExtension(connection: XConnection, name: string): boolean {
  const opcode = new Int32Array(1), event = new Int32Array(1), error = new Int32Array(1);
  return x11.symbols.XQueryExtension(connection.unsafeDisplay(), cstr(name), opcode, event, error) !== 0;
}
