/**
 * A persistent Xlib connection with cached atoms, trapped protocol errors and
 * survival of a lost X server.
 *
 * Xlib's default error handler exits the process on a BadWindow, and its default
 * I/O error handler exits when the server goes away. Both are replaced, once per
 * process, before the first display is opened.
 *
 * @module
 */
import { cstr, readCString } from "../../../../ffi/_c.ts";
import {
  SIZEOF_XWINDOWATTRIBUTES,
  X,
  x11,
  XDisplayLayout,
  XErrorEventLayout,
  XScreenLayout,
  XWindowAttributesLayout,
} from "../../../../ffi/linux/x11.ts";
import { DriverError } from "../../../ports/errors.ts";
import type { Rect } from "../../../ports/geometry.ts";
import { openThroughReset } from "./server_reset.ts";

/** One protocol error reported by the server. */
export interface XErrorRecord {
  errorCode: number;
  requestCode: number;
  resourceId: bigint;
}

const errorsByDisplay = new Map<bigint, XErrorRecord[]>();
const deadDisplays = new Set<bigint>();
let handlersInstalled = false;
// Kept alive for the life of the process: Xlib holds their pointers.
let errorCallback: Deno.UnsafeCallback<
  { readonly parameters: readonly ["pointer", "pointer"]; readonly result: "i32" }
>;
let ioErrorCallback: Deno.UnsafeCallback<
  { readonly parameters: readonly ["pointer"]; readonly result: "i32" }
>;
let ioExitCallback: Deno.UnsafeCallback<
  { readonly parameters: readonly ["pointer", "pointer"]; readonly result: "void" }
>;

function keyOf(display: Deno.PointerValue): bigint {
  return display ? BigInt(Deno.UnsafePointer.value(display)) : 0n;
}

/** Installs the process-wide X error handlers. Idempotent. */
export function installXErrorHandlers(): void {
  if (handlersInstalled) return;
  const symbols = x11.symbols;
  // Thread-safe: errors can arrive while a nonblocking call runs on a worker thread.
  errorCallback = Deno.UnsafeCallback.threadSafe(
    { parameters: ["pointer", "pointer"], result: "i32" } as const,
    (display, event) => {
      if (!event) return 0;
      const view = new Deno.UnsafePointerView(event);
      const record: XErrorRecord = {
        errorCode: view.getUint8(XErrorEventLayout.error_code),
        requestCode: view.getUint8(XErrorEventLayout.request_code),
        resourceId: view.getBigUint64(XErrorEventLayout.resourceid),
      };
      const key = keyOf(display);
      const list = errorsByDisplay.get(key);
      if (list) list.push(record);
      else errorsByDisplay.set(key, [record]);
      return 0;
    },
  );
  errorCallback.unref();
  ioErrorCallback = Deno.UnsafeCallback.threadSafe(
    { parameters: ["pointer"], result: "i32" } as const,
    (display) => {
      deadDisplays.add(keyOf(display));
      return 0;
    },
  );
  ioErrorCallback.unref();
  ioExitCallback = Deno.UnsafeCallback.threadSafe(
    { parameters: ["pointer", "pointer"], result: "void" } as const,
    (display) => {
      // Returning instead of exiting keeps the driver alive; the connection is marked dead.
      deadDisplays.add(keyOf(display));
    },
  );
  ioExitCallback.unref();
  symbols.XInitThreads();
  symbols.XSetErrorHandler(errorCallback.pointer);
  symbols.XSetIOErrorHandler(ioErrorCallback.pointer);
  handlersInstalled = true;
}

/**
 * Xlib.h's `ScreenOfDisplay(display, screen)`: the display's `Screen` record, which Xlib keeps.
 * UNSAFE: valid while `display` is open; `screen` must be one of its screens.
 */
function screenOf(display: Deno.PointerObject, screen: number): Deno.UnsafePointerView {
  const screens = new Deno.UnsafePointerView(display).getPointer(XDisplayLayout.screens)!;
  return new Deno.UnsafePointerView(Deno.UnsafePointer.offset(screens, screen * XScreenLayout.size)!);
}

/** An open X display with an atom cache. */
export class XConnection implements Disposable {
  #display: Deno.PointerObject | null;
  readonly #key: bigint;
  readonly #atoms = new Map<string, bigint>();
  readonly #atomNames = new Map<bigint, string>();
  readonly screen: number;
  readonly root: bigint;
  readonly name: string;

  private constructor(display: Deno.PointerObject, name: string) {
    this.#display = display;
    this.#key = keyOf(display);
    this.name = name;
    // Xlib.h's DefaultScreen and RootWindow macros, as C clients compile them: the function forms
    // would cost a one-shot call a symbol binding each (about 0.5 ms).
    // UNSAFE: `display` is the Display* XOpenDisplay just returned.
    this.screen = new Deno.UnsafePointerView(display).getInt32(XDisplayLayout.default_screen);
    this.root = screenOf(display, this.screen).getBigUint64(XScreenLayout.root);
  }

  /**
   * Opens a display.
   *
   * @throws {DriverError} `display_unavailable` when the server cannot be reached.
   */
  static open(name = Deno.env.get("DISPLAY") ?? ""): XConnection {
    if (!name) {
      throw new DriverError("display_unavailable", "No X display: DISPLAY is not set", {
        hint:
          "run under an X11 session, set DISPLAY, or let cua-driver start its embedded desktop (--desktop embedded)",
      });
    }
    installXErrorHandlers();
    const display = openThroughReset(name, () => x11.symbols.XOpenDisplay(cstr(name)));
    if (!display) {
      throw new DriverError("display_unavailable", `Cannot open X display "${name}"`, {
        hint: "check that the X server is running and DISPLAY/XAUTHORITY are right",
      });
    }
    const exitHandler = x11.symbols.XSetIOErrorExitHandler;
    if (exitHandler) exitHandler(display, ioExitCallback.pointer, null);
    return new XConnection(display, name);
  }

  /** True until the server connection is lost or closed. */
  get alive(): boolean {
    return this.#display !== null && !deadDisplays.has(this.#key);
  }

  /**
   * The raw `Display*`. **UNSAFE**: valid only while {@linkcode alive}.
   *
   * @throws {DriverError} `display_unavailable` once the connection is lost.
   */
  unsafeDisplay(): Deno.PointerObject {
    if (!this.#display || deadDisplays.has(this.#key)) {
      throw new DriverError("display_unavailable", `Lost the connection to X display "${this.name}"`, {
        hint: "the X server went away; the next call reconnects if it is back",
      });
    }
    return this.#display;
  }

  /** Interns an atom, caching the answer. */
  atom(name: string): bigint {
    const cached = this.#atoms.get(name);
    if (cached !== undefined) return cached;
    const atom = x11.symbols.XInternAtom(this.unsafeDisplay(), cstr(name), X.False);
    this.#atoms.set(name, atom);
    this.#atomNames.set(atom, name);
    return atom;
  }

  /** Name of an atom, cached. */
  atomName(atom: bigint): string {
    const cached = this.#atomNames.get(atom);
    if (cached !== undefined) return cached;
    const pointer = this.trapReply(() => x11.symbols.XGetAtomName(this.unsafeDisplay(), atom)).value;
    const name = readCString(pointer);
    if (pointer) x11.symbols.XFree(pointer);
    this.#atomNames.set(atom, name);
    return name;
  }

  /**
   * Runs `fn`, then a round trip, and returns the protocol errors it caused.
   * The only way code here should make calls that can fail on a stale window.
   */
  trap<T>(fn: () => T): { value: T; errors: XErrorRecord[] } {
    const display = this.unsafeDisplay();
    errorsByDisplay.delete(this.#key);
    const value = fn();
    x11.symbols.XSync(display, X.False);
    const errors = errorsByDisplay.get(this.#key) ?? [];
    errorsByDisplay.delete(this.#key);
    if (deadDisplays.has(this.#key)) this.unsafeDisplay();
    return { value, errors };
  }

  /**
   * Like {@linkcode trap} for one request that has a reply (XGetWindowProperty, XQueryTree,
   * XGetWindowAttributes, ...), without the extra round trip: Xlib reads that request's error,
   * if any, instead of its reply, and hands it to the error handler before `fn` returns.
   */
  trapReply<T>(fn: () => T): { value: T; errors: XErrorRecord[] } {
    this.unsafeDisplay();
    errorsByDisplay.delete(this.#key);
    const value = fn();
    const errors = errorsByDisplay.get(this.#key) ?? [];
    errorsByDisplay.delete(this.#key);
    if (deadDisplays.has(this.#key)) this.unsafeDisplay();
    return { value, errors };
  }

  /** Round-trips and returns the errors recorded since the last trap or drain. */
  drainErrors(): XErrorRecord[] {
    x11.symbols.XSync(this.unsafeDisplay(), X.False);
    const errors = errorsByDisplay.get(this.#key) ?? [];
    errorsByDisplay.delete(this.#key);
    return errors;
  }

  /** Flushes the output buffer. */
  flush(): void {
    x11.symbols.XFlush(this.unsafeDisplay());
  }

  /** Screen size in pixels (Xlib's copy, as XDisplayWidth/XDisplayHeight report it). */
  screenSize(): { width: number; height: number } {
    const screen = screenOf(this.unsafeDisplay(), this.screen);
    return { width: screen.getInt32(XScreenLayout.width), height: screen.getInt32(XScreenLayout.height) };
  }

  /** Attributes of a window, or null if it does not exist. */
  windowAttributes(
    window: bigint,
  ):
    | { rect: Rect; mapState: number; overrideRedirect: boolean; depth: number; visual: Deno.PointerValue }
    | null {
    const buffer = new Uint8Array(SIZEOF_XWINDOWATTRIBUTES);
    const { value, errors } = this.trapReply(() =>
      x11.symbols.XGetWindowAttributes(this.unsafeDisplay(), window, buffer)
    );
    if (!value || errors.length) return null;
    const view = new DataView(buffer.buffer);
    const L = XWindowAttributesLayout;
    return {
      rect: {
        x: view.getInt32(L.x, true),
        y: view.getInt32(L.y, true),
        width: view.getInt32(L.width, true),
        height: view.getInt32(L.height, true),
      },
      mapState: view.getInt32(L.map_state, true),
      overrideRedirect: view.getInt32(L.override_redirect, true) !== 0,
      depth: view.getInt32(L.depth, true),
      visual: Deno.UnsafePointer.create(view.getBigUint64(L.visual, true)),
    };
  }

  /** Root-relative position of a window's origin, or null if it does not exist. */
  rootOrigin(window: bigint): { x: number; y: number } | null {
    const dx = new Int32Array(1), dy = new Int32Array(1), child = new BigUint64Array(1);
    const { value, errors } = this.trapReply(() =>
      x11.symbols.XTranslateCoordinates(this.unsafeDisplay(), window, this.root, 0, 0, dx, dy, child)
    );
    if (!value || errors.length) return null;
    return { x: dx[0], y: dy[0] };
  }

  /** Parent of a window (0n at the root), or null if it does not exist. */
  parentOf(window: bigint): bigint | null {
    const root = new BigUint64Array(1), parent = new BigUint64Array(1);
    const children = new BigUint64Array(1), count = new Uint32Array(1);
    const { value, errors } = this.trapReply(() =>
      x11.symbols.XQueryTree(this.unsafeDisplay(), window, root, parent, children, count)
    );
    if (!value || errors.length) return null;
    if (children[0]) x11.symbols.XFree(Deno.UnsafePointer.create(children[0]));
    return parent[0];
  }

  /** Children of a window, bottom-most first; null if it does not exist. */
  childrenOf(window: bigint): bigint[] | null {
    const root = new BigUint64Array(1), parent = new BigUint64Array(1);
    const children = new BigUint64Array(1), count = new Uint32Array(1);
    const { value, errors } = this.trapReply(() =>
      x11.symbols.XQueryTree(this.unsafeDisplay(), window, root, parent, children, count)
    );
    if (!value || errors.length) return null;
    if (!children[0]) return [];
    const pointer = Deno.UnsafePointer.create(children[0])!;
    const list = new BigUint64Array(Deno.UnsafePointerView.getArrayBuffer(pointer, count[0] * 8).slice(0));
    x11.symbols.XFree(pointer);
    return [...list];
  }

  /** Closes the connection. Idempotent; a dead connection is only forgotten. */
  close(): void {
    if (!this.#display) return;
    if (!deadDisplays.has(this.#key)) x11.symbols.XCloseDisplay(this.#display);
    deadDisplays.delete(this.#key);
    errorsByDisplay.delete(this.#key);
    this.#display = null;
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

/** Server vendor string, for diagnostics. */
export function serverVendor(connection: XConnection): string {
  return readCString(x11.symbols.XServerVendor(connection.unsafeDisplay()));
}
