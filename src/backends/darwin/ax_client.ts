/**
 * The Accessibility API with ownership and errors handled once: attribute reads
 * (one element, several attributes in one round trip), writes, actions, and the
 * pairing of AX windows with CGWindowIDs. Every message to an app is bounded by a
 * messaging timeout, so a hung app costs at most that long and never blocks the
 * driver's event loop (the calls run on worker threads).
 *
 * @module
 */
import { AXError, axErrorName, AXValueType } from "../../../ffi/darwin/accessibility.ts";
import { readCFRange, readCGPoint, readCGRect, readCGSize } from "../../../ffi/darwin/geometry.ts";
import { DriverError } from "../../ports/errors.ts";
import type { Point, Rect } from "../../ports/geometry.ts";
import { type CFRef, outCell, type Owned, readOut } from "./cf.ts";
import type { DarwinContext } from "./context.ts";
import { accessibilityDenied } from "./tcc.ts";

/** A decoded attribute value. Element references are left as {@linkcode CFRef}s (Get rule). */
export type AxValue =
  | string
  | number
  | boolean
  | { point: Point }
  | { size: { width: number; height: number } }
  | { rect: Rect }
  | { range: { location: number; length: number } }
  | { element: CFRef }
  | { elements: CFRef[] }
  | { other: string };

/** The text of a decoded value, or null. */
export function textOf(value: AxValue | null): string | null {
  return typeof value === "string" ? value : null;
}

/** The number of a decoded value (booleans as 0/1), or null. */
export function numberOf(value: AxValue | null): number | null {
  return typeof value === "number" ? value : typeof value === "boolean" ? Number(value) : null;
}

/** The truth of a decoded value (numbers as non-zero), or null. */
export function booleanOf(value: AxValue | null): boolean | null {
  return typeof value === "boolean" ? value : typeof value === "number" ? value !== 0 : null;
}

/** The point of a decoded value, or null. */
export function pointOf(value: AxValue | null): Point | null {
  return value !== null && typeof value === "object" && "point" in value ? value.point : null;
}

/** The size of a decoded value, or null. */
export function sizeOf(value: AxValue | null): { width: number; height: number } | null {
  return value !== null && typeof value === "object" && "size" in value ? value.size : null;
}

/** The range of a decoded value, or null. */
export function rangeOf(value: AxValue | null): { location: number; length: number } | null {
  return value !== null && typeof value === "object" && "range" in value ? value.range : null;
}

/** Seconds an app may take to answer one accessibility message. */
export const AX_MESSAGING_TIMEOUT_S = 2;

/** Statuses that mean "no such value here", not a failure. */
const ABSENT: ReadonlySet<number> = new Set([AXError.NoValue, AXError.AttributeUnsupported]);

/** Statuses with which an element says it has no actions. */
const NO_ACTIONS: ReadonlySet<number> = new Set([
  AXError.Failure,
  AXError.IllegalArgument,
  AXError.ActionUnsupported,
  AXError.NotImplemented,
]);

/**
 * The DriverError for a failed accessibility call.
 *
 * @param what names the operation for the message ("reading AXChildren of pid 512").
 */
export function axFailure(api: string, status: number, what: string, pid?: number): DriverError {
  const name = axErrorName(status);
  switch (status) {
    case AXError.APIDisabled:
      return accessibilityDenied(`${what[0].toUpperCase()}${what.slice(1)}`);
    case AXError.InvalidUIElement:
      return new DriverError("stale_element_token", `The element is gone (${name}) while ${what}`, {
        api,
        status,
        hint: "call get_window_state to refresh element tokens",
      });
    case AXError.CannotComplete:
      return new DriverError(
        "timeout",
        `The app${
          pid ? ` (pid ${pid})` : ""
        } did not answer within ${AX_MESSAGING_TIMEOUT_S} s while ${what} (${name})`,
        {
          api,
          status,
          hint: 'the app may be busy or hung; retry, or act by pixel with delivery_mode "foreground"',
        },
      );
    default:
      return new DriverError("native_call_failed", `${api} failed with ${name} while ${what}`, {
        api,
        status,
      });
  }
}

/** Accessibility calls over the injected frameworks. */
export class AxClient {
  readonly #ctx: DarwinContext;
  #systemWide: Owned | null = null;

  constructor(ctx: DarwinContext) {
    this.#ctx = ctx;
  }

  get #ax() {
    return this.#ctx.fw.ax;
  }

  /** The system-wide element, with the global messaging timeout set on first use. */
  systemWide(): CFRef {
    if (!this.#systemWide) {
      this.#systemWide = this.#ctx.cf.ownOrThrow(
        this.#ax.AXUIElementCreateSystemWide(),
        "AXUIElementCreateSystemWide",
      );
      // The system-wide element's timeout applies to every element that has none of its own.
      this.#ax.AXUIElementSetMessagingTimeout(this.#systemWide.ref, AX_MESSAGING_TIMEOUT_S);
    }
    return this.#systemWide.ref;
  }

  /** The application element of a pid (+1), with the messaging timeout set. */
  application(pid: number): Owned {
    this.systemWide();
    const app = this.#ctx.cf.ownOrThrow(
      this.#ax.AXUIElementCreateApplication(pid),
      "AXUIElementCreateApplication",
    );
    this.#ax.AXUIElementSetMessagingTimeout(app.ref, AX_MESSAGING_TIMEOUT_S);
    return app;
  }

  /** The pid that owns an element. */
  pidOf(element: CFRef): number | null {
    const cell = new Int32Array(1);
    return this.#ax.AXUIElementGetPid(element, cell) === AXError.Success ? cell[0] : null;
  }

  /**
   * Copies one attribute (+1), or null when the element has no such value.
   *
   * @throws {DriverError} for any other failure (see {@linkcode axFailure}).
   */
  async copy(element: CFRef, attribute: string): Promise<Owned | null> {
    const cell = outCell();
    const status = await this.#ax.AXUIElementCopyAttributeValue(
      element,
      this.#ctx.cf.constant(attribute),
      cell,
    );
    if (ABSENT.has(status)) return null;
    if (status !== AXError.Success) {
      throw axFailure(
        "AXUIElementCopyAttributeValue",
        status,
        `reading ${attribute}`,
        this.pidOf(element) ?? undefined,
      );
    }
    return this.#ctx.cf.own(readOut(cell));
  }

  /** Reads and decodes one attribute; null when absent. Element values are not kept. */
  async read(element: CFRef, attribute: string): Promise<AxValue | null> {
    using value = await this.copy(element, attribute);
    return value ? this.decode(value.ref) : null;
  }

  /**
   * Copies several attributes in one round trip (+1 array). Entries that failed
   * individually come back as null.
   *
   * @param names a CFArray of attribute names (kept by the caller; see {@linkcode nameList}).
   */
  async copyMany(
    element: CFRef,
    names: CFRef,
    count: number,
  ): Promise<{ array: Owned; values: (CFRef | null)[] }> {
    const cell = outCell();
    const status = await this.#ax.AXUIElementCopyMultipleAttributeValues(element, names, 0, cell);
    if (status !== AXError.Success) {
      throw axFailure(
        "AXUIElementCopyMultipleAttributeValues",
        status,
        "reading attributes",
        this.pidOf(element) ?? undefined,
      );
    }
    const array = this.#ctx.cf.ownOrThrow(readOut(cell), "AXUIElementCopyMultipleAttributeValues");
    const items = this.#ctx.cf.items(array.ref);
    const values = Array.from({ length: count }, (_, i) => {
      const item = items[i] ?? null;
      return item !== null && this.#isError(item) ? null : item;
    });
    return { array, values };
  }

  /** A CFArray of attribute names, for {@linkcode copyMany} (the caller releases it). */
  nameList(names: readonly string[]): Owned {
    return this.#ctx.cf.array(names.map((name) => this.#ctx.cf.constant(name)));
  }

  #isError(ref: CFRef): boolean {
    return this.#ctx.cf.kind(ref) === "ax_value" && this.#ax.AXValueGetType(ref) === AXValueType.AXError;
  }

  /** Decodes a value. Element references in it are valid only while the value's owner is. */
  decode(ref: CFRef): AxValue {
    const cf = this.#ctx.cf;
    switch (cf.kind(ref)) {
      case "string":
        return cf.toString(ref)!;
      case "boolean":
        return cf.toBoolean(ref)!;
      case "number":
        return cf.toNumber(ref)!;
      case "ax_element":
        return { element: ref };
      case "array":
        return { elements: cf.items(ref).filter((item) => cf.kind(item) === "ax_element") };
      case "url":
        return cf.toPath(ref) ?? "";
      case "ax_value":
        return this.#decodeAxValue(ref);
      default:
        return { other: cf.kind(ref) };
    }
  }

  #decodeAxValue(ref: CFRef): AxValue {
    const type = this.#ax.AXValueGetType(ref);
    const buffer = new Uint8Array(32);
    if (!this.#ax.AXValueGetValue(ref, type, buffer)) return { other: `AXValue type ${type}` };
    switch (type) {
      case AXValueType.CGPoint:
        return { point: readCGPoint(buffer) };
      case AXValueType.CGSize:
        return { size: readCGSize(buffer) };
      case AXValueType.CGRect:
        return { rect: readCGRect(buffer) };
      case AXValueType.CFRange:
        return { range: readCFRange(buffer) };
      default:
        return { other: `AXValue type ${type}` };
    }
  }

  /** An AXValue (+1) of a point, size or range. */
  geometry(
    value: { point: Point } | { size: { width: number; height: number } } | {
      range: { location: number; length: number };
    },
  ): Owned {
    let type: number;
    let bytes: Uint8Array<ArrayBuffer>;
    if ("point" in value) {
      type = AXValueType.CGPoint;
      bytes = new Uint8Array(new Float64Array([value.point.x, value.point.y]).buffer);
    } else if ("size" in value) {
      type = AXValueType.CGSize;
      bytes = new Uint8Array(new Float64Array([value.size.width, value.size.height]).buffer);
    } else {
      type = AXValueType.CFRange;
      bytes = new Uint8Array(
        new BigInt64Array([BigInt(value.range.location), BigInt(value.range.length)]).buffer,
      );
    }
    return this.#ctx.cf.ownOrThrow(this.#ax.AXValueCreate(type, bytes), "AXValueCreate");
  }

  /** Action names of an element ([] when it has none). */
  async actions(element: CFRef): Promise<string[]> {
    const cell = outCell();
    const status = await this.#ax.AXUIElementCopyActionNames(element, cell);
    // Elements that take no actions answer in several ways; none of them is a failure of the walk.
    if (ABSENT.has(status) || NO_ACTIONS.has(status)) return [];
    if (status !== AXError.Success) {
      throw axFailure(
        "AXUIElementCopyActionNames",
        status,
        "reading actions",
        this.pidOf(element) ?? undefined,
      );
    }
    using names = this.#ctx.cf.own(readOut(cell));
    return names ? this.#ctx.cf.items(names.ref).map((ref) => this.#ctx.cf.toString(ref) ?? "") : [];
  }

  /**
   * Performs an action: true when the app accepted it, false when the element does not
   * support it or refused it (disabled).
   *
   * @throws {DriverError} for a gone element, a hung app or a missing permission.
   */
  async perform(element: CFRef, action: string): Promise<boolean> {
    const status = await this.#ax.AXUIElementPerformAction(element, this.#ctx.cf.constant(action));
    if (status === AXError.Success) return true;
    if (
      status === AXError.ActionUnsupported || status === AXError.Failure || status === AXError.IllegalArgument
    ) {
      return false;
    }
    throw axFailure(
      "AXUIElementPerformAction",
      status,
      `performing ${action}`,
      this.pidOf(element) ?? undefined,
    );
  }

  /**
   * Writes an attribute: true when the app accepted the value, false when the attribute
   * is not settable or the value was rejected.
   *
   * @throws {DriverError} for a gone element, a hung app or a missing permission.
   */
  async set(element: CFRef, attribute: string, value: CFRef): Promise<boolean> {
    const status = await this.#ax.AXUIElementSetAttributeValue(
      element,
      this.#ctx.cf.constant(attribute),
      value,
    );
    if (status === AXError.Success) return true;
    if (ABSENT.has(status) || status === AXError.IllegalArgument || status === AXError.Failure) return false;
    throw axFailure(
      "AXUIElementSetAttributeValue",
      status,
      `setting ${attribute}`,
      this.pidOf(element) ?? undefined,
    );
  }

  /** True when an attribute can be written. */
  async settable(element: CFRef, attribute: string): Promise<boolean> {
    const cell = new Uint8Array(1);
    const status = await this.#ax.AXUIElementIsAttributeSettable(
      element,
      this.#ctx.cf.constant(attribute),
      cell,
    );
    return status === AXError.Success && cell[0] !== 0;
  }

  /** The CGWindowID of an AX window through the private SPI; null when it is unavailable. */
  windowIdOf(axWindow: CFRef): number | null {
    const spi = this.#ax._AXUIElementGetWindow;
    if (spi === null) return null;
    const cell = new Uint32Array(1);
    return spi(axWindow, cell) === AXError.Success ? cell[0] : null;
  }

  /** Retained references to an app's windows (AXWindows); the caller releases them. */
  async windows(app: CFRef): Promise<Owned[]> {
    using list = await this.copy(app, "AXWindows");
    if (!list) return [];
    return this.#ctx.cf.items(list.ref).map((ref) => this.#ctx.cf.retain(ref));
  }

  /**
   * The AX window of `pid` showing CGWindowID `windowId` (+1), or null. Pairs by the
   * private `_AXUIElementGetWindow` when present, else by an equal frame and title.
   */
  async findWindow(
    pid: number,
    windowId: number,
    hint: { bounds: Rect; title: string | null },
  ): Promise<Owned | null> {
    using app = this.application(pid);
    const windows = await this.windows(app.ref);
    let found: Owned | null = null;
    for (const axWindow of windows) {
      if (!found && await this.#matches(axWindow.ref, windowId, hint)) found = axWindow;
      else axWindow.release();
    }
    return found;
  }

  async #matches(
    axWindow: CFRef,
    windowId: number,
    hint: { bounds: Rect; title: string | null },
  ): Promise<boolean> {
    const id = this.windowIdOf(axWindow);
    if (id !== null) return id === windowId;
    const position = pointOf(await this.read(axWindow, "AXPosition"));
    const size = sizeOf(await this.read(axWindow, "AXSize"));
    if (!position || !size) return false;
    const same = (a: number, b: number) => Math.abs(a - b) < 1;
    const { bounds } = hint;
    if (
      !same(position.x, bounds.x) || !same(position.y, bounds.y) ||
      !same(size.width, bounds.width) || !same(size.height, bounds.height)
    ) return false;
    if (hint.title === null) return true;
    const title = await this.read(axWindow, "AXTitle");
    return title === hint.title;
  }

  /** Releases the system-wide element. */
  close(): void {
    this.#systemWide?.release();
    this.#systemWide = null;
  }
}
