/**
 * The X11 CLIPBOARD selection through libX11: {@linkcode X11Clipboard}.
 *
 * @module
 */
import { isAbsolute } from "node:path";
import { SIZEOF_XEVENT, X, x11, XEventLayout } from "../../../ffi/linux/x11.ts";
import { DriverError } from "../../ports/errors.ts";
import type { ClipboardBackend, ClipboardContent } from "../../ports/clipboard.ts";
import {
  type ClipboardPayload,
  META_TARGETS,
  offeredTargets,
  SelectionOwner,
} from "./x11/clipboard_owner.ts";
import { type ConvertedData, SelectionReader } from "./x11/clipboard_reader.ts";
import { XConnection } from "./x11/connection.ts";

/** How long an owner gets to answer one conversion (and each INCR chunk). */
const CONVERT_TIMEOUT_MS = 1000;
/**
 * The same for an image: the owner encodes it before answering (GTK took more than a second
 * for a 2 MB 820x800 PNG on the loaded 2-core test machines, failing the read).
 */
const IMAGE_CONVERT_TIMEOUT_MS = 5000;
/** How long a clipboard manager gets to copy our data on dispose. */
const HANDOFF_TIMEOUT_MS = 2000;
/** Event polling period while we own the selection or an INCR transfer runs. */
const POLL_MS = 10;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Text targets to read, most preferred first. */
const TEXT_READ_ORDER = ["UTF8_STRING", "text/plain;charset=utf-8", "STRING", "TEXT"];

interface State {
  connection: XConnection;
  window: bigint;
  clipboard: bigint;
  timeAtom: bigint;
  owner: SelectionOwner;
  reader: SelectionReader;
}

/**
 * The CLIPBOARD selection of an X display (PRIMARY is never touched).
 *
 * Uses its own connection and an unmapped 1×1 window, both opened on first use.
 * Writing takes ownership with a real server timestamp and serves `SelectionRequest`
 * events (TARGETS, TIMESTAMP, MULTIPLE, every offered format, INCR for large data) from
 * an unref'd poller that runs only while the selection is ours. Reading asks the owner
 * and waits asynchronously, or answers from memory when the owner is this instance.
 *
 * As with X11 selections in general, written content lives in this process: it
 * vanishes when the process exits or calls {@linkcode X11Clipboard.dispose}, unless a
 * clipboard manager owns `CLIPBOARD_MANAGER`, in which case `dispose()` hands the
 * content over to it first (ICCCM `SAVE_TARGETS`).
 *
 * @example
 * ```ts
 * await using clipboard = new X11Clipboard(":0");
 * await clipboard.writeText("héllo");
 * const { text } = await clipboard.read({ text: true, image: false });
 * ```
 */
export class X11Clipboard implements ClipboardBackend, AsyncDisposable {
  #state: State | null = null;
  #poller: ReturnType<typeof setInterval> | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #probeTime: bigint | null = null;
  readonly #event = new Uint8Array(SIZEOF_XEVENT);

  /** @param displayName X display to use, e.g. ":0". */
  constructor(readonly displayName: string = Deno.env.get("DISPLAY") ?? "") {}

  /**
   * Reads the available types and, if asked for, the text and PNG image.
   * With no owner the clipboard is empty: `{ types: [], text: null, imagePng: null }`.
   *
   * @throws {DriverError} `clipboard_unavailable` when the display or the owner fails.
   */
  read(options: { text: boolean; image: boolean }): Promise<ClipboardContent> {
    return this.#serialize(() => this.#read(options));
  }

  /** Offers text as UTF8_STRING, text/plain(;charset=utf-8), TEXT and STRING; returns the types. */
  writeText(text: string): Promise<string[]> {
    return this.#serialize(() => this.#write({ kind: "text", text }));
  }

  /** Offers PNG bytes as image/png; returns the types. */
  writeImage(png: Uint8Array): Promise<string[]> {
    if (png.length < 8 || PNG_SIGNATURE.some((byte, i) => png[i] !== byte)) {
      return Promise.reject(
        new DriverError("invalid_arguments", "The image is not a PNG file", { field: "image" }),
      );
    }
    return this.#serialize(() => this.#write({ kind: "image", png: png.slice() }));
  }

  /** Offers absolute file paths as text/uri-list, GNOME/Nautilus file lists and text; returns the types. */
  writeFiles(paths: string[]): Promise<string[]> {
    const relative = paths.find((path) => !isAbsolute(path));
    if (paths.length === 0 || relative !== undefined) {
      return Promise.reject(
        new DriverError("invalid_arguments", `File paths must be absolute: "${relative ?? ""}"`, {
          field: "paths",
        }),
      );
    }
    return this.#serialize(() => this.#write({ kind: "files", paths: [...paths] }));
  }

  /**
   * Hands the content to a clipboard manager if one runs, then destroys the window
   * and closes the connection. A later call opens them again.
   */
  dispose(): Promise<void> {
    return this.#serialize(async () => {
      const state = this.#state;
      if (!state) return;
      try {
        if (state.connection.alive && state.owner.payload && state.owner.confirmedOwner()) {
          await this.#handOff(state);
        }
      } catch {
        // Best effort: the content is lost as it would be without a manager.
      }
      this.#close();
    });
  }

  /** Same as {@linkcode X11Clipboard.dispose}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  async #read(options: { text: boolean; image: boolean }): Promise<ClipboardContent> {
    const state = this.#open();
    this.#pump();
    const payload = state.owner.payload;
    if (payload && state.owner.confirmedOwner()) return fromPayload(payload, options);
    if (payload) state.owner.clear();
    const display = state.connection.unsafeDisplay();
    if (x11.symbols.XGetSelectionOwner(display, state.clipboard) === X.None) {
      return { types: [], text: null, imagePng: null };
    }
    const time = this.#serverTime(state);
    const convert = (target: string, timeoutMs = CONVERT_TIMEOUT_MS) =>
      state.reader.convert(state.clipboard, state.connection.atom(target), time, timeoutMs);
    const targets = await convert("TARGETS");
    const offered = targets?.format === 32
      ? targets.longs.map((atom) => state.connection.atomName(atom)).filter((name) => name !== "")
      : null;
    const types = [...new Set(offered ?? [])].filter((name) => !META_TARGETS.has(name)).sort();
    let text: string | null = null;
    if (options.text) {
      // Owners without TARGETS still get asked for the two classic text targets.
      const candidates = offered
        ? TEXT_READ_ORDER.filter((t) => offered.includes(t))
        : ["UTF8_STRING", "STRING"];
      for (const target of candidates) {
        const data = await convert(target);
        if (data?.format === 8) {
          text = decodeText(data);
          break;
        }
      }
    }
    let imagePng: Uint8Array | null = null;
    if (options.image && types.includes("image/png")) {
      const data = await convert("image/png", IMAGE_CONVERT_TIMEOUT_MS);
      if (data?.format === 8 && data.bytes.length > 0) imagePng = data.bytes;
    }
    return { types, text, imagePng };
  }

  #write(payload: ClipboardPayload): Promise<string[]> {
    const state = this.#open();
    this.#pump();
    const time = this.#serverTime(state);
    if (!state.owner.own(payload, time)) {
      throw new DriverError("clipboard_unavailable", "Cannot take ownership of the X11 clipboard", {
        hint: "another client took the clipboard at the same moment; retry",
      });
    }
    this.#startPolling();
    return Promise.resolve(typesOf(payload));
  }

  /** ICCCM clipboard-manager hand-off: the manager copies every target before it answers. */
  async #handOff(state: State): Promise<void> {
    const conn = state.connection;
    const manager = conn.atom("CLIPBOARD_MANAGER");
    if (x11.symbols.XGetSelectionOwner(conn.unsafeDisplay(), manager) === X.None) return;
    const time = this.#serverTime(state);
    await state.reader.convert(manager, conn.atom("SAVE_TARGETS"), time, HANDOFF_TIMEOUT_MS);
  }

  /** Opens the connection and window, or reopens them after the server went away. */
  #open(): State {
    if (this.#state?.connection.alive) return this.#state;
    if (this.#state) this.#close();
    let connection: XConnection;
    try {
      connection = XConnection.open(this.displayName);
    } catch (error) {
      throw new DriverError(
        "clipboard_unavailable",
        `Cannot open X display "${this.displayName}" for the clipboard`,
        {
          hint: error instanceof DriverError ? error.data.hint : undefined,
        },
        { cause: error },
      );
    }
    const display = connection.unsafeDisplay();
    const window = x11.symbols.XCreateSimpleWindow(display, connection.root, -10, -10, 1, 1, 0, 0n, 0n);
    x11.symbols.XSelectInput(display, window, X.PropertyChangeMask);
    const clipboard = connection.atom("CLIPBOARD");
    this.#state = {
      connection,
      window,
      clipboard,
      timeAtom: connection.atom("CUA_DRIVER_TIMESTAMP"),
      owner: new SelectionOwner(connection, window, clipboard),
      reader: new SelectionReader(connection, window, () => this.#pump()),
    };
    return this.#state;
  }

  #close(): void {
    this.#stopPolling();
    const state = this.#state;
    this.#state = null;
    if (!state) return;
    if (state.connection.alive) {
      state.connection.trap(() => x11.symbols.XDestroyWindow(state.connection.unsafeDisplay(), state.window));
    }
    state.connection.close();
  }

  /**
   * A real server timestamp (ICCCM discourages CurrentTime): a zero-length property
   * write on our window, read back from its PropertyNotify.
   */
  #serverTime(state: State): bigint {
    this.#probeTime = null;
    state.connection.trap(() =>
      x11.symbols.XChangeProperty(
        state.connection.unsafeDisplay(),
        state.window,
        state.timeAtom,
        X.XA_STRING,
        8,
        X.PropModeReplace,
        new Uint8Array(1),
        0,
      )
    );
    this.#pump();
    return this.#probeTime ?? X.CurrentTime;
  }

  /** Dispatches every queued event. Never blocks: XNextEvent only runs when XPending says so. */
  #pump(): void {
    const state = this.#state;
    if (!state) return;
    const { connection, owner, reader, window } = state;
    const view = new DataView(this.#event.buffer);
    while (connection.alive && x11.symbols.XPending(connection.unsafeDisplay()) > 0) {
      x11.symbols.XNextEvent(connection.unsafeDisplay(), this.#event);
      switch (view.getInt32(XEventLayout.type, true)) {
        case X.SelectionRequest:
          owner.onSelectionRequest(view);
          break;
        case X.SelectionClear:
          owner.onSelectionClear(view);
          break;
        case X.SelectionNotify:
          reader.onSelectionNotify(view);
          break;
        case X.PropertyNotify:
          if (view.getBigUint64(XEventLayout.window, true) !== window) {
            owner.onRequestorProperty(view);
          } else if (view.getBigUint64(XEventLayout.property_atom, true) === state.timeAtom) {
            this.#probeTime = view.getBigUint64(XEventLayout.property_time, true);
          } else {
            reader.onOwnProperty(view);
          }
          break;
      }
    }
    owner.expireTransfers();
  }

  #startPolling(): void {
    if (this.#poller !== null) return;
    this.#poller = setInterval(() => {
      const owner = this.#state?.owner;
      try {
        this.#pump();
      } catch {
        // The connection died; the next call reopens it.
      }
      if (!owner || !this.#state?.connection.alive || (!owner.payload && !owner.busy)) this.#stopPolling();
    }, POLL_MS);
    Deno.unrefTimer(this.#poller!);
  }

  #stopPolling(): void {
    if (this.#poller === null) return;
    clearInterval(this.#poller);
    this.#poller = null;
  }

  /** Runs operations one at a time and maps unexpected failures to `clipboard_unavailable`. */
  #serialize<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(operation).catch((error) => {
      if (error instanceof DriverError && error.code !== "display_unavailable") throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new DriverError("clipboard_unavailable", `The X11 clipboard failed: ${message}`, {
        hint: "check that the X server is still running, then retry",
      }, { cause: error });
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

/** The types a payload is offered as, the way {@linkcode X11Clipboard.read} reports them. */
function typesOf(payload: ClipboardPayload): string[] {
  return [...new Set(offeredTargets(payload))].sort();
}

function fromPayload(
  payload: ClipboardPayload,
  options: { text: boolean; image: boolean },
): ClipboardContent {
  let text: string | null = null;
  if (options.text && payload.kind === "text") text = payload.text;
  if (options.text && payload.kind === "files") text = payload.paths.join("\n");
  const imagePng = options.image && payload.kind === "image" ? payload.png.slice() : null;
  return { types: typesOf(payload), text, imagePng };
}

/** STRING is ISO 8859-1; everything else read as text is UTF-8. Stops at a NUL. */
function decodeText(data: ConvertedData): string {
  const nul = data.bytes.indexOf(0);
  const bytes = nul >= 0 ? data.bytes.subarray(0, nul) : data.bytes;
  if (data.type !== "STRING") return new TextDecoder().decode(bytes);
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return text;
}
