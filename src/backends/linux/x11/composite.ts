/**
 * Keeps every top-level window's contents in an off-screen pixmap (XComposite,
 * automatic redirection) so that capturing a covered window returns its own
 * pixels rather than whatever is on top. The server still paints the screen
 * itself, so nothing changes for the user; the redirection ends with the
 * connection. Works alongside a compositing manager.
 *
 * @module
 */
import { CompositeRedirectAutomatic, xcomposite } from "../../../../ffi/linux/xcomposite.ts";
import type { XConnection } from "./connection.ts";

/** Turns on automatic redirection of the root's children; false when the server lacks Composite. */
export function enableOffscreenCapture(connection: XConnection): boolean {
  if (!xcomposite.available()) return false;
  const display = connection.unsafeDisplay();
  if (!xcomposite.symbols.XCompositeQueryExtension(display, new Int32Array(1), new Int32Array(1))) {
    return false;
  }
  const { errors } = connection.trap(() =>
    xcomposite.symbols.XCompositeRedirectSubwindows(display, connection.root, CompositeRedirectAutomatic)
  );
  return errors.length === 0;
}
