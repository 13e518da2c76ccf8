/**
 * Acting on one accessible object: actions, text, values, focus and state.
 * Each helper is one or two calls; errors become `DriverError`s.
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";
import { DBusError, variant } from "../../../lib/dbus/mod.ts";
import type { AtspiCaller } from "./atspi_bus.ts";
import { AtspiPath, CoordType, Iface } from "./interfaces.ts";
import { decodeStates, type NodeStates, stateNames } from "./states.ts";

/** Calls that run application code go on a connection of their own (AtspiCallOptions.isolated). */
const ISOLATED = { isolated: true } as const;

/** The handle an `AxNode.ref` carries on Linux. */
export interface AtspiRef {
  /** Unique bus name of the application. */
  bus: string;
  /** Object path of the accessible. */
  path: string;
}

/** A node's states as booleans plus every state name. */
export interface ElementState extends NodeStates {
  names: string[];
}

/**
 * Validates an opaque `AxNode.ref`.
 *
 * @throws {DriverError} `invalid_element_token` when it is not an AT-SPI reference.
 */
export function asRef(ref: unknown): AtspiRef {
  const r = ref as Partial<AtspiRef> | null;
  if (typeof r?.bus !== "string" || typeof r.path !== "string" || !r.path.startsWith("/")) {
    throw new DriverError("invalid_element_token", "The element reference is not an AT-SPI object", {
      hint: "call get_window_state to refresh element indices",
    });
  }
  return { bus: r.bus, path: r.path };
}

/** Normalizes an action name the way cua-driver matches them: last dotted segment, alphanumerics, lowercase. */
export function normalizeActionName(name: string): string {
  const last = name.slice(name.lastIndexOf(".") + 1);
  return last.replace(/[^0-9a-z]/gi, "").toLowerCase();
}

/**
 * Runs a call and maps D-Bus failures to `DriverError`s.
 *
 * @throws {DriverError} `timeout`, `window_stale` (application gone), `stale_element_token`
 *   (object gone) or `native_call_failed`.
 */
export async function guarded<T>(what: string, ref: AtspiRef, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toDriverError(error, what, ref);
  }
}

/** Maps a D-Bus failure of `what` on `ref` to a `DriverError`. */
export function toDriverError(error: unknown, what: string, ref: AtspiRef): DriverError {
  if (error instanceof DriverError) return error;
  const name = error instanceof DBusError ? error.errorName : "";
  const data = { hint: "call get_window_state to refresh element indices", dbusError: name || undefined };
  const at = `${what} on ${ref.bus}${ref.path}`;
  if (name.endsWith(".Timeout") || name.endsWith(".NoReply")) {
    return new DriverError("timeout", `${at} got no answer in time`, {
      ...data,
      hint: "the application may be busy or hung",
    }, {
      cause: error,
    });
  }
  if (
    name.endsWith(".ServiceUnknown") || name.endsWith(".NameHasNoOwner") || name.endsWith(".Disconnected")
  ) {
    return new DriverError("window_stale", `${at} failed: the application is gone`, data, { cause: error });
  }
  if (name.endsWith(".UnknownObject")) {
    return new DriverError("stale_element_token", `${at} failed: the element no longer exists`, data, {
      cause: error,
    });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new DriverError("native_call_failed", `${at} failed: ${detail}`, {
    ...data,
    api: what,
    symbol: what,
  }, {
    cause: error,
  });
}

/**
 * Action names of an object: the count from `NActions`, then `GetName(i)` and
 * `GetLocalizedName(i)` for each. Not `GetActions`, which also computes key bindings and
 * hangs Firefox on the items of an open menu.
 */
export async function actionNames(
  bus: AtspiCaller,
  ref: AtspiRef,
): Promise<{ names: string[]; localized: string[] }> {
  let count: number;
  try {
    count = Number(await bus.property(ref.bus, ref.path, Iface.ACTION, "NActions"));
  } catch (error) {
    // An object without the Action interface (LibreOffice's Calc cells) has no actions; the
    // error its toolkit returns for the property varies ("Get failed"), so ask what it implements.
    if (!(await implementsInterface(bus, ref, Iface.ACTION))) return { names: [], localized: [] };
    throw error;
  }
  const indices = [...Array(Number.isFinite(count) ? Math.max(0, Math.min(count, 64)) : 0).keys()];
  const read = (member: string, i: number) =>
    bus.call(ref.bus, ref.path, Iface.ACTION, member, "i", [i]).then(
      ([name]) => typeof name === "string" ? name : "",
      () => "",
    );
  const [canonical, localized] = await Promise.all([
    Promise.all(indices.map((i) => read("GetName", i))),
    Promise.all(indices.map((i) => read("GetLocalizedName", i))),
  ]);
  return { names: canonical.map((name, i) => name || localized[i]), localized };
}

/** True unless the object's `GetInterfaces` answers without `iface` (unknown counts as implemented). */
async function implementsInterface(bus: AtspiCaller, ref: AtspiRef, iface: string): Promise<boolean> {
  try {
    const [interfaces] = await bus.call(ref.bus, ref.path, Iface.ACCESSIBLE, "GetInterfaces");
    return !Array.isArray(interfaces) || interfaces.includes(iface);
  } catch {
    return true;
  }
}

/**
 * Invokes the action called `actionName`: an exact name first, then a localized name,
 * then the same by normalized name (`"Click"` and `"gtk.click"` both find `click`).
 *
 * @returns The toolkit's acknowledgement.
 * @throws {DriverError} `invalid_arguments` when the object has no such action.
 */
export async function doAction(bus: AtspiCaller, ref: AtspiRef, actionName: string): Promise<boolean> {
  const { names, localized } = await actionNames(bus, ref);
  const wanted = normalizeActionName(actionName);
  const sameAs = (name: string) => wanted !== "" && normalizeActionName(name) === wanted;
  const index = [
    names.indexOf(actionName),
    localized.indexOf(actionName),
    names.findIndex(sameAs),
    localized.findIndex(sameAs),
  ].find((i) => i >= 0);
  if (index === undefined) {
    throw new DriverError("invalid_arguments", `The element has no action "${actionName}"`, {
      hint: names.length ? `available actions: ${names.join(", ")}` : "the element has no actions",
      field: "action",
    });
  }
  // Isolated: the action may open a modal dialog inside the dispatch of the connection it came on.
  const [ok] = await bus.call(ref.bus, ref.path, Iface.ACTION, "DoAction", "i", [index], ISOLATED);
  return ok === true;
}

/** The full text of a Text object (`CharacterCount`, then `GetText(0, count)`). */
export async function getText(bus: AtspiCaller, ref: AtspiRef): Promise<string> {
  const count = await bus.property(ref.bus, ref.path, Iface.TEXT, "CharacterCount");
  if (typeof count !== "number" || count <= 0) return "";
  const [text] = await bus.call(ref.bus, ref.path, Iface.TEXT, "GetText", "ii", [0, count]);
  return text as string;
}

/** Replaces the whole text (`EditableText.SetTextContents`). */
export async function setTextContents(bus: AtspiCaller, ref: AtspiRef, text: string): Promise<boolean> {
  const [ok] = await bus.call(
    ref.bus,
    ref.path,
    Iface.EDITABLE_TEXT,
    "SetTextContents",
    "s",
    [text],
    ISOLATED,
  );
  return ok === true;
}

/**
 * Inserts text at a character offset (`EditableText.InsertText`). The length argument
 * is in UTF-8 bytes as libatspi and ATK define it (GTK, Chromium, Gecko); Qt's bridge
 * reads it as UTF-16 units, so the unit follows the application's `ToolkitName`.
 */
export async function insertText(
  bus: AtspiCaller,
  ref: AtspiRef,
  offset: number,
  text: string,
): Promise<boolean> {
  const toolkit = await bus.property(ref.bus, AtspiPath.ROOT, Iface.APPLICATION, "ToolkitName").catch(() =>
    ""
  );
  const length = /^qt/i.test(String(toolkit)) ? text.length : new TextEncoder().encode(text).length;
  const [ok] = await bus.call(ref.bus, ref.path, Iface.EDITABLE_TEXT, "InsertText", "isi", [
    offset,
    text,
    length,
  ], ISOLATED);
  return ok === true;
}

/** The current numeric value (`Value.CurrentValue`). */
export async function getValue(bus: AtspiCaller, ref: AtspiRef): Promise<number> {
  return Number(await bus.property(ref.bus, ref.path, Iface.VALUE, "CurrentValue"));
}

/** The numeric value and its range (`Value` properties). */
export async function getValueRange(
  bus: AtspiCaller,
  ref: AtspiRef,
): Promise<{ current: number; min: number; max: number; step: number }> {
  const read = (name: string) => bus.property(ref.bus, ref.path, Iface.VALUE, name).then(Number, () => NaN);
  const [current, min, max, step] = await Promise.all(
    ["CurrentValue", "MinimumValue", "MaximumValue", "MinimumIncrement"].map(read),
  );
  return { current, min, max, step: Number.isFinite(step) ? step : 0 };
}

/** The caret offset in characters (`Text.CaretOffset`), -1 when unknown. */
export async function caretOffset(bus: AtspiCaller, ref: AtspiRef): Promise<number> {
  const offset = await bus.property(ref.bus, ref.path, Iface.TEXT, "CaretOffset").catch(() => -1);
  return typeof offset === "number" ? offset : -1;
}

/** Screen-absolute extents (`Component.GetExtents(SCREEN)`), null without geometry. */
export async function getExtents(
  bus: AtspiCaller,
  ref: AtspiRef,
): Promise<{ x: number; y: number; width: number; height: number } | null> {
  const [extents] = await bus.call(ref.bus, ref.path, Iface.COMPONENT, "GetExtents", "u", [CoordType.SCREEN]);
  const [x, y, width, height] = extents as number[];
  if (width <= 0 || height <= 0 || x < -16384 || y < -16384) return null;
  return { x, y, width, height };
}

/** Sets the numeric value (`Value.CurrentValue`). */
export async function setValue(bus: AtspiCaller, ref: AtspiRef, value: number): Promise<void> {
  await bus.call(ref.bus, ref.path, Iface.PROPERTIES, "Set", "ssv", [
    Iface.VALUE,
    "CurrentValue",
    variant("d", value),
  ], ISOLATED);
}

/** Moves keyboard focus to the object (`Component.GrabFocus`). */
export async function grabFocus(bus: AtspiCaller, ref: AtspiRef): Promise<boolean> {
  const [ok] = await bus.call(ref.bus, ref.path, Iface.COMPONENT, "GrabFocus", "", [], ISOLATED);
  return ok === true;
}

/** The object's current states (`Accessible.GetState`). */
export async function getState(bus: AtspiCaller, ref: AtspiRef): Promise<ElementState> {
  const [states] = await bus.call(ref.bus, ref.path, Iface.ACCESSIBLE, "GetState");
  const set = states as number[];
  return { ...decodeStates(set), names: stateNames(set) };
}
