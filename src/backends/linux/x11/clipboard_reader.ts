/**
 * The requestor side of the X11 selection protocol (ICCCM §2.4): `XConvertSelection`,
 * waiting asynchronously for the `SelectionNotify`, and INCR transfers on read.
 *
 * @module
 */
import { X, x11, XEventLayout, XSelectionEventLayout } from "../../../../ffi/linux/x11.ts";
import { DriverError } from "../../../ports/errors.ts";
import type { XConnection } from "./connection.ts";
import { getProperty, type RawProperty } from "./properties.ts";

/** Converted selection data as read from our property. */
export interface ConvertedData {
  /** Name of the type atom the owner labelled the data with. */
  type: string;
  format: 8 | 16 | 32;
  /** Format 8 data (the whole INCR stream, when the owner sent one). */
  bytes: Uint8Array;
  /** Format 32 items. */
  longs: bigint[];
}

/** Largest property read in one request, in 32-bit units (64 MiB). */
const MAX_LONGS = 1n << 24n;
/** Largest INCR stream accepted (256 MiB). */
const MAX_INCR_BYTES = 256 * 1024 * 1024;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Converts selections into a property of our own window. Events are fed in by the
 * caller's event pump; `pump` runs that pump once (it must not block).
 */
export class SelectionReader {
  #notification: { selection: bigint; target: bigint; property: bigint } | null = null;
  #newValues = 0;
  readonly #property: bigint;

  constructor(readonly connection: XConnection, readonly window: bigint, readonly pump: () => void) {
    this.#property = connection.atom("CUA_DRIVER_SELECTION");
  }

  /** Handles a SelectionNotify event. */
  onSelectionNotify(view: DataView): void {
    const L = XSelectionEventLayout;
    if (view.getBigUint64(L.requestor, true) !== this.window) return;
    this.#notification = {
      selection: view.getBigUint64(L.selection, true),
      target: view.getBigUint64(L.target, true),
      property: view.getBigUint64(L.property, true),
    };
  }

  /** Handles a PropertyNotify on our own window (the next INCR chunk has arrived). */
  onOwnProperty(view: DataView): void {
    if (
      view.getBigUint64(XEventLayout.property_atom, true) === this.#property &&
      view.getInt32(XEventLayout.property_state, true) === X.PropertyNewValue
    ) {
      this.#newValues++;
    }
  }

  /**
   * Asks the owner of `selection` for `target` and waits up to `timeoutMs` (per INCR
   * chunk, too). Returns null when the owner refuses.
   *
   * @throws {DriverError} `clipboard_unavailable` when the owner does not answer in time.
   */
  async convert(
    selection: bigint,
    target: bigint,
    time: bigint,
    timeoutMs: number,
  ): Promise<ConvertedData | null> {
    const conn = this.connection;
    const display = conn.unsafeDisplay();
    const targetName = conn.atomName(target);
    x11.symbols.XDeleteProperty(display, this.window, this.#property);
    this.#notification = null;
    conn.trap(() =>
      x11.symbols.XConvertSelection(display, selection, target, this.#property, this.window, time)
    );
    const answered = await this.#waitFor(() => {
      const n = this.#notification;
      return n !== null && n.selection === selection && n.target === target;
    }, timeoutMs);
    if (!answered) {
      throw new DriverError(
        "clipboard_unavailable",
        `The clipboard owner did not answer a "${targetName}" request`,
        {
          hint: "the application holding the clipboard is busy or hung; copy again and retry",
        },
      );
    }
    if (this.#notification!.property === X.None) return null;
    const first = this.#take();
    if (!first) return null;
    if (conn.atomName(first.type) !== "INCR") return toConverted(conn, first);
    return await this.#receiveIncr(targetName, timeoutMs);
  }

  /** Reads the chunks of an INCR transfer until the zero-length one. */
  async #receiveIncr(targetName: string, timeoutMs: number): Promise<ConvertedData> {
    const chunks: Uint8Array[] = [];
    let total = 0;
    let type: bigint = X.None;
    for (;;) {
      const arrived = await this.#waitFor(() => this.#newValues > 0, timeoutMs);
      if (!arrived) {
        throw new DriverError(
          "clipboard_unavailable",
          `The clipboard owner stalled sending "${targetName}"`,
          {
            hint: "the application holding the clipboard is busy or hung; copy again and retry",
          },
        );
      }
      this.#newValues = 0;
      const chunk = this.#take();
      if (!chunk) continue;
      type = chunk.type;
      if (chunk.bytes.length === 0) break;
      total += chunk.bytes.length;
      if (total > MAX_INCR_BYTES) {
        throw new DriverError("clipboard_unavailable", `The clipboard "${targetName}" data is too large`, {
          limitBytes: MAX_INCR_BYTES,
        });
      }
      chunks.push(chunk.bytes);
    }
    const bytes = new Uint8Array(total);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return { type: this.connection.atomName(type), format: 8, bytes, longs: [] };
  }

  /** Reads and deletes our property (the deletion asks an INCR owner for the next chunk). */
  #take(): RawProperty | null {
    // Reset before deleting: a new value can only follow our deletion.
    this.#newValues = 0;
    const property = getProperty(this.connection, this.window, this.#property, X.AnyPropertyType, MAX_LONGS);
    x11.symbols.XDeleteProperty(this.connection.unsafeDisplay(), this.window, this.#property);
    this.connection.flush();
    return property;
  }

  /** Pumps events until `done()` or the timeout, yielding to the event loop between checks. */
  async #waitFor(done: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    let pause = 1;
    for (;;) {
      this.pump();
      if (done()) return true;
      if (Date.now() >= deadline) return false;
      await sleep(pause);
      pause = Math.min(pause * 2, 8);
    }
  }
}

function toConverted(conn: XConnection, property: RawProperty): ConvertedData {
  return {
    type: conn.atomName(property.type),
    format: property.format,
    bytes: property.bytes,
    longs: property.longs,
  };
}
