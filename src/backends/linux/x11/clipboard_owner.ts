/**
 * The owner side of the X11 CLIPBOARD selection (ICCCM §2.2–2.7): the formats a
 * payload is offered in, and the answers to `SelectionRequest` events, including
 * `MULTIPLE` and INCR transfers for large data.
 *
 * @module
 */
import { pathToFileURL } from "node:url";
import {
  SIZEOF_XEVENT,
  X,
  x11,
  XEventLayout,
  XSelectionClearEventLayout,
  XSelectionEventLayout,
  XSelectionRequestEventLayout,
} from "../../../../ffi/linux/x11.ts";
import type { XConnection } from "./connection.ts";
import { getProperty } from "./properties.ts";

/** What the driver offers on the clipboard. */
export type ClipboardPayload =
  | { kind: "text"; text: string }
  | { kind: "image"; png: Uint8Array }
  | { kind: "files"; paths: readonly string[] };

/** Targets that describe the selection rather than hold content. */
export const META_TARGETS: ReadonlySet<string> = new Set([
  "TARGETS",
  "TIMESTAMP",
  "MULTIPLE",
  "SAVE_TARGETS",
]);

const TEXT_TARGETS = ["UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "TEXT", "STRING"];
const FILE_TARGETS = ["text/uri-list", "x-special/gnome-copied-files", "x-special/nautilus-clipboard"];

/** Content targets offered for a payload, in order of preference. */
export function offeredTargets(payload: ClipboardPayload): string[] {
  switch (payload.kind) {
    case "text":
      return [...TEXT_TARGETS];
    case "image":
      return ["image/png"];
    case "files":
      return [...FILE_TARGETS, ...TEXT_TARGETS];
  }
}

/** The bytes of a payload in one target, and the type atom name to label them with; null if not offered. */
export function encodeTarget(
  payload: ClipboardPayload,
  target: string,
): { type: string; bytes: Uint8Array } | null {
  if (payload.kind === "image") return target === "image/png" ? { type: target, bytes: payload.png } : null;
  let text: string;
  if (payload.kind === "files") {
    const uris = payload.paths.map((path) => pathToFileURL(path).href);
    if (target === "text/uri-list") return utf8(target, uris.map((uri) => uri + "\r\n").join(""));
    if (target === "x-special/gnome-copied-files") return utf8(target, `copy\n${uris.join("\n")}`);
    if (target === "x-special/nautilus-clipboard") {
      return utf8(target, `x-special/nautilus-clipboard\ncopy\n${uris.join("\n")}\n`);
    }
    text = payload.paths.join("\n");
  } else {
    text = payload.text;
  }
  if (target === "STRING") return { type: "STRING", bytes: latin1(text) };
  if (target === "TEXT") return utf8("UTF8_STRING", text);
  return TEXT_TARGETS.includes(target) ? utf8(target, text) : null;
}

function utf8(type: string, text: string): { type: string; bytes: Uint8Array } {
  return { type, bytes: new TextEncoder().encode(text) };
}

/** ISO 8859-1 bytes; characters outside it become "?". */
function latin1(text: string): Uint8Array {
  const out: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out.push(code <= 0xff ? code : 0x3f);
  }
  return Uint8Array.from(out);
}

/** An INCR transfer in progress (ICCCM §2.7.2). */
interface Transfer {
  requestor: bigint;
  property: bigint;
  type: bigint;
  data: Uint8Array;
  offset: number;
  lastActivity: number;
}

/** Transfers idle for this long are abandoned (the requestor went away). */
const TRANSFER_IDLE_MS = 10_000;

/**
 * Owns CLIPBOARD with one window on one connection and serves requests for a payload.
 * Events are fed in by the caller's event pump.
 */
export class SelectionOwner {
  #payload: ClipboardPayload | null = null;
  #time: bigint = X.CurrentTime;
  readonly #transfers = new Map<string, Transfer>();
  readonly #chunk: number;

  constructor(readonly connection: XConnection, readonly window: bigint, readonly selection: bigint) {
    const display = connection.unsafeDisplay();
    const units = Number(x11.symbols.XExtendedMaxRequestSize(display)) ||
      Number(x11.symbols.XMaxRequestSize(display));
    // Leave room for the ChangeProperty request header.
    this.#chunk = Math.min(256 * 1024, units * 4 - 1024);
  }

  /** The payload being served, or null when the selection was lost or never taken. */
  get payload(): ClipboardPayload | null {
    return this.#payload;
  }

  /** True while INCR transfers are still running (they outlive a lost selection). */
  get busy(): boolean {
    return this.#transfers.size > 0;
  }

  /** Takes the selection at server time `time`; true when the server confirms the ownership. */
  own(payload: ClipboardPayload, time: bigint): boolean {
    const display = this.connection.unsafeDisplay();
    this.connection.trap(() => x11.symbols.XSetSelectionOwner(display, this.selection, this.window, time));
    if (x11.symbols.XGetSelectionOwner(display, this.selection) !== this.window) {
      this.#payload = null;
      return false;
    }
    this.#payload = payload;
    this.#time = time;
    return true;
  }

  /** True when the server still names our window as the owner. */
  confirmedOwner(): boolean {
    const display = this.connection.unsafeDisplay();
    return x11.symbols.XGetSelectionOwner(display, this.selection) === this.window;
  }

  /** Forgets the payload (the selection was lost). */
  clear(): void {
    this.#payload = null;
  }

  /** Handles a SelectionClear event. */
  onSelectionClear(view: DataView): void {
    const L = XSelectionClearEventLayout;
    if (
      view.getBigUint64(L.window, true) === this.window &&
      view.getBigUint64(L.selection, true) === this.selection
    ) {
      this.#payload = null;
    }
  }

  /** Handles a SelectionRequest event: converts, then answers with a SelectionNotify. */
  onSelectionRequest(view: DataView): void {
    const L = XSelectionRequestEventLayout;
    const requestor = view.getBigUint64(L.requestor, true);
    const selection = view.getBigUint64(L.selection, true);
    const target = view.getBigUint64(L.target, true);
    const time = view.getBigUint64(L.time, true);
    // Obsolete clients send None: ICCCM says to use the target atom as the property.
    const property = view.getBigUint64(L.property, true) || target;
    let ok = false;
    if (selection === this.selection && this.#payload) {
      ok = this.connection.atomName(target) === "MULTIPLE"
        ? this.#convertMultiple(requestor, property)
        : this.#convert(requestor, target, property);
    }
    this.#notify(requestor, selection, target, ok ? property : X.None, time);
  }

  /** Handles a PropertyNotify on a requestor's window: the next INCR chunk is due. */
  onRequestorProperty(view: DataView): void {
    if (view.getInt32(XEventLayout.property_state, true) !== X.PropertyDelete) return;
    const key = transferKey(
      view.getBigUint64(XEventLayout.window, true),
      view.getBigUint64(XEventLayout.property_atom, true),
    );
    const transfer = this.#transfers.get(key);
    if (!transfer) return;
    const chunk = transfer.data.subarray(transfer.offset, transfer.offset + this.#chunk);
    transfer.offset += chunk.length;
    transfer.lastActivity = Date.now();
    const written = this.#write(transfer.requestor, transfer.property, transfer.type, 8, chunk, chunk.length);
    // A zero-length chunk ends the transfer.
    if (!written || chunk.length === 0) this.#endTransfer(key);
  }

  /** Abandons transfers whose requestor stopped reading. */
  expireTransfers(now = Date.now()): void {
    for (const [key, transfer] of this.#transfers) {
      if (now - transfer.lastActivity > TRANSFER_IDLE_MS) this.#endTransfer(key);
    }
  }

  /** Writes one target to `property` on `requestor`; false when refused. */
  #convert(requestor: bigint, target: bigint, property: bigint): boolean {
    const conn = this.connection;
    const name = conn.atomName(target);
    const payload = this.#payload!;
    if (name === "TARGETS") {
      const names = ["TARGETS", "TIMESTAMP", "MULTIPLE", ...offeredTargets(payload)];
      const atoms = BigUint64Array.from(names.map((n) => conn.atom(n)));
      return this.#write(requestor, property, X.XA_ATOM, 32, atoms, atoms.length);
    }
    if (name === "TIMESTAMP") {
      return this.#write(requestor, property, conn.atom("INTEGER"), 32, BigUint64Array.of(this.#time), 1);
    }
    const encoded = encodeTarget(payload, name);
    if (!encoded) return false;
    const type = conn.atom(encoded.type);
    if (encoded.bytes.length <= this.#chunk) {
      return this.#write(requestor, property, type, 8, encoded.bytes, encoded.bytes.length);
    }
    return this.#startTransfer(requestor, property, type, encoded.bytes);
  }

  /** MULTIPLE: converts each (target, property) pair listed on the requestor's property. */
  #convertMultiple(requestor: bigint, property: bigint): boolean {
    const pairs = getProperty(this.connection, requestor, property);
    if (!pairs || pairs.format !== 32 || pairs.longs.length % 2 !== 0) return false;
    const answer = BigUint64Array.from(pairs.longs);
    for (let i = 0; i < answer.length; i += 2) {
      const multiple = this.connection.atomName(answer[i]) === "MULTIPLE";
      if (multiple || !answer[i + 1] || !this.#convert(requestor, answer[i], answer[i + 1])) {
        answer[i + 1] = X.None;
      }
    }
    return this.#write(requestor, property, pairs.type, 32, answer, answer.length);
  }

  /** Starts an INCR transfer: announces the size, then waits for the requestor to delete it. */
  #startTransfer(requestor: bigint, property: bigint, type: bigint, data: Uint8Array): boolean {
    const conn = this.connection;
    const { errors } = conn.trap(() =>
      x11.symbols.XSelectInput(conn.unsafeDisplay(), requestor, X.PropertyChangeMask)
    );
    if (errors.length) return false;
    const key = transferKey(requestor, property);
    this.#transfers.set(key, { requestor, property, type, data, offset: 0, lastActivity: Date.now() });
    const size = BigUint64Array.of(BigInt(data.length));
    if (this.#write(requestor, property, conn.atom("INCR"), 32, size, 1)) return true;
    this.#endTransfer(key);
    return false;
  }

  #endTransfer(key: string): void {
    const transfer = this.#transfers.get(key);
    if (!transfer) return;
    this.#transfers.delete(key);
    const stillUsed = [...this.#transfers.values()].some((t) => t.requestor === transfer.requestor);
    if (!stillUsed) {
      this.connection.trap(() =>
        x11.symbols.XSelectInput(this.connection.unsafeDisplay(), transfer.requestor, X.NoEventMask)
      );
    }
  }

  /** XChangeProperty (replace) on another client's window; false when it failed (window gone). */
  #write(
    requestor: bigint,
    property: bigint,
    type: bigint,
    format: 8 | 32,
    data: Uint8Array | BigUint64Array,
    count: number,
  ): boolean {
    const bytes = data instanceof Uint8Array
      ? data
      : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const buffer = bytes.length ? bytes : new Uint8Array(1);
    const { errors } = this.connection.trap(() =>
      x11.symbols.XChangeProperty(
        this.connection.unsafeDisplay(),
        requestor,
        property,
        type,
        format,
        X.PropModeReplace,
        buffer as Uint8Array<ArrayBuffer>,
        count,
      )
    );
    return errors.length === 0;
  }

  /** Sends the SelectionNotify that completes (or refuses) a request. */
  #notify(requestor: bigint, selection: bigint, target: bigint, property: bigint, time: bigint): void {
    const event = new Uint8Array(SIZEOF_XEVENT);
    const view = new DataView(event.buffer);
    const L = XSelectionEventLayout;
    view.setInt32(XEventLayout.type, X.SelectionNotify, true);
    view.setInt32(XEventLayout.send_event, 1, true);
    view.setBigUint64(L.requestor, requestor, true);
    view.setBigUint64(L.selection, selection, true);
    view.setBigUint64(L.target, target, true);
    view.setBigUint64(L.property, property, true);
    view.setBigUint64(L.time, time, true);
    this.connection.trap(() =>
      x11.symbols.XSendEvent(this.connection.unsafeDisplay(), requestor, X.False, X.NoEventMask, event)
    );
  }
}

function transferKey(requestor: bigint, property: bigint): string {
  return `${requestor}:${property}`;
}
