/**
 * The fake Accessibility API over the fake Mac's element trees. Attribute values
 * come back in the shapes macOS uses (CFString, CFNumber, CFBoolean, AXValue
 * points/sizes/rects/ranges, arrays of fresh AXUIElementRefs), and errors with the
 * codes it uses (kAXErrorAPIDisabled without trust, kAXErrorCannotComplete from a
 * hung app, kAXErrorInvalidUIElement for a destroyed element).
 *
 * @module
 */
import type { AX_SYMBOLS } from "../../../../ffi/darwin/accessibility.ts";
import { AXError } from "../../../../ffi/darwin/accessibility.ts";
import { bytesOf, viewOf, writeOut } from "./cf.ts";
import type { FakeHeap, FakeObject } from "./heap.ts";
import { type AxValuePayload, type CFable, type CFConstants, fromCF, toCF, TYPE_IDS } from "./values.ts";
import { adopt, element, type FakeElement, type FakeMac } from "./world.ts";

/** The longest messaging timeout the driver may leave in force before messaging a hung app. */
export const MAX_SAFE_TIMEOUT_S = 5;

const AX_VALUE_TYPES: Record<number, AxValuePayload["ax"]> = {
  1: "point",
  2: "size",
  3: "rect",
  4: "range",
  5: "error",
};

function windowOf(node: FakeElement): FakeElement | null {
  let current: FakeElement | null = node;
  while (current && current.role !== "AXWindow") current = current.parent;
  return current;
}

/** The value of an attribute: undefined when unsupported, null when it has no value. */
export function attribute(world: FakeMac, node: FakeElement, name: string): CFable | null | undefined {
  const frame = node.frame;
  const app = world.app(node.pid);
  switch (name) {
    case "AXRole":
      return node.role;
    case "AXSubrole":
      return node.subrole ?? (node.role === "AXApplication" ? undefined : null);
    case "AXRoleDescription":
      return node.role.replace(/^AX/, "").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
    case "AXTitle":
      return node.title ?? (node.role === "AXWindow" || node.role === "AXButton" ? "" : undefined);
    case "AXDescription":
      return node.description ?? null;
    case "AXHelp":
      return node.help ?? null;
    case "AXIdentifier":
      return node.identifier ?? undefined;
    case "AXPlaceholderValue":
      return node.placeholder ?? undefined;
    case "AXValue":
      return node.value ?? undefined;
    case "AXMinValue":
      return node.minValue ?? undefined;
    case "AXMaxValue":
      return node.maxValue ?? undefined;
    case "AXEnabled":
      return node.role === "AXApplication" ? undefined : node.enabled;
    case "AXFocused":
      return node.role === "AXApplication" ? undefined : node.focused;
    case "AXSelected":
      return node.selected ?? undefined;
    case "AXExpanded":
      return node.expanded ?? undefined;
    case "AXPosition":
      return frame ? { ax: "point", x: frame.x, y: frame.y } : undefined;
    case "AXSize":
      return frame ? { ax: "size", width: frame.width, height: frame.height } : undefined;
    case "AXFrame":
      return frame ? { ax: "rect", ...frame } : undefined;
    case "AXChildren":
      return node.children;
    case "AXParent":
      return node.parent ?? null;
    case "AXWindow":
      return node.role === "AXApplication" ? undefined : windowOf(node) ?? null;
    case "AXTopLevelUIElement":
      return windowOf(node) ?? null;
    case "AXWindows":
      return node.role === "AXApplication" ? node.children.filter((c) => c.role === "AXWindow") : undefined;
    case "AXMainWindow":
    case "AXFocusedWindow":
      if (node.role !== "AXApplication") return undefined;
      return node.children.find((c) => c.role === "AXWindow" && c.extra.AXMain === true) ?? null;
    case "AXFocusedUIElement":
      return node.role === "AXApplication" ? app?.focused ?? null : undefined;
    case "AXFrontmost":
      return node.role === "AXApplication" ? world.frontmost === node.pid : undefined;
    case "AXMenuBar":
      return node.role === "AXApplication"
        ? node.children.find((c) => c.role === "AXMenuBar") ?? null
        : undefined;
    case "AXSelectedTextRange":
      return node.selectedRange ? { ax: "range", ...node.selectedRange } : undefined;
    case "AXSelectedText": {
      if (!node.selectedRange || typeof node.value !== "string") return undefined;
      const { location, length } = node.selectedRange;
      return node.value.slice(location, location + length);
    }
    case "AXNumberOfCharacters":
      return typeof node.value === "string" ? node.value.length : undefined;
  }
  return name in node.extra ? node.extra[name] as CFable : undefined;
}

/** The implementation of AX_SYMBOLS. */
export function fakeAccessibility(
  heap: FakeHeap,
  constants: CFConstants,
  world: FakeMac,
): { [K in keyof typeof AX_SYMBOLS]?: unknown } {
  const systemWide = element(-1, "AXSystemWide");
  const timeouts = new WeakMap<FakeObject, number>();
  let globalTimeout: number | null = null;
  const ptr = (object: FakeObject) => heap.pointer(object);
  const target = (ref: Deno.PointerValue, api: string) => heap.deref(ref, api, ["AXUIElement"]);

  /** The status a message to an element gets before any attribute is read. */
  function reach(object: FakeObject, api: string): number {
    const node = object.value as FakeElement;
    if (!world.accessibilityTrusted) return AXError.APIDisabled;
    if (node === systemWide) return AXError.Success;
    const app = world.app(node.pid);
    if (!app) return AXError.CannotComplete;
    if (!node.alive) return AXError.InvalidUIElement;
    if (app.hangAfter !== undefined && app.hangAfter-- <= 0) app.hung = true;
    if (app.hung) {
      const timeout = timeouts.get(object) ?? globalTimeout;
      if (timeout === null || timeout > MAX_SAFE_TIMEOUT_S) {
        heap.fail(
          `${api}: pid ${node.pid} is hung and no messaging timeout of at most ${MAX_SAFE_TIMEOUT_S} s is set`,
        );
      }
      return AXError.CannotComplete;
    }
    return AXError.Success;
  }

  function copyValue(node: FakeElement, name: string, api: string): FakeObject | number {
    const value = attribute(world, node, name);
    if (value === undefined) return AXError.AttributeUnsupported;
    if (value === null) return AXError.NoValue;
    return toCF(constants, value, `${api}(${name})`, "caller");
  }

  function nameOf(ref: Deno.PointerValue, api: string): string {
    return heap.deref(ref, api, ["CFString"]).value as string;
  }

  function setValue(node: FakeElement, name: string, value: unknown): number {
    switch (name) {
      case "AXValue":
        if (!node.valueSettable) return AXError.AttributeUnsupported;
        if (typeof node.value === "number") {
          if (typeof value !== "number") return AXError.IllegalArgument;
          node.value = Math.min(node.maxValue ?? Infinity, Math.max(node.minValue ?? -Infinity, value));
        } else {
          if (typeof value !== "string") return AXError.IllegalArgument;
          node.value = value;
          node.selectedRange = { location: value.length, length: 0 };
        }
        return AXError.Success;
      case "AXFocused":
        if (value !== true) return AXError.IllegalArgument;
        world.focus(node);
        return AXError.Success;
      case "AXSelectedText":
        if (!node.valueSettable || typeof value !== "string" || typeof node.value !== "string") {
          return AXError.AttributeUnsupported;
        }
        world.insertText(node, value);
        return AXError.Success;
      case "AXSelectedTextRange": {
        const range = value as AxValuePayload;
        if (range?.ax !== "range" || typeof node.value !== "string") return AXError.IllegalArgument;
        node.selectedRange = { location: range.location, length: range.length };
        return AXError.Success;
      }
      case "AXPosition":
      case "AXSize": {
        const geometry = value as AxValuePayload;
        if (node.role !== "AXWindow" || !node.frame) return AXError.AttributeUnsupported;
        if (geometry?.ax === "point" && name === "AXPosition") {
          node.frame = { ...node.frame, x: geometry.x, y: geometry.y };
        } else if (geometry?.ax === "size" && name === "AXSize") {
          node.frame = {
            ...node.frame,
            width: Math.max(200, geometry.width),
            height: Math.max(100, geometry.height),
          };
        } else return AXError.IllegalArgument;
        const win = world.windows.find((w) => w.ax === node);
        if (win) win.bounds = { ...node.frame };
        return AXError.Success;
      }
      case "AXManualAccessibility": {
        // Chromium exposes its web content only to clients that set this on the application.
        const app = world.app(node.pid);
        if (node.role !== "AXApplication" || !app?.bundleId?.startsWith("com.google.Chrome")) {
          return AXError.AttributeUnsupported;
        }
        for (const web of world.elements(node)) {
          if (web.role === "AXWebArea" && web.children.length === 0) {
            adopt(web, [
              element(node.pid, "AXLink", {
                title: "Gmail",
                frame: { x: 900, y: 150, width: 40, height: 20 },
                actions: ["AXPress"],
              }),
              element(node.pid, "AXTextField", {
                description: "Search Google",
                value: "",
                valueSettable: true,
                frame: { x: 400, y: 400, width: 500, height: 40 },
              }),
            ]);
          }
        }
        return AXError.Success;
      }
      case "AXFrontmost":
        if (node.role !== "AXApplication" || value !== true) return AXError.AttributeUnsupported;
        world.activate(node.pid);
        return AXError.Success;
      case "AXMain": {
        const win = world.windows.find((w) => w.ax === node);
        if (!win || value !== true) return AXError.AttributeUnsupported;
        for (const sibling of node.parent?.children ?? []) {
          if (sibling.role === "AXWindow") sibling.extra.AXMain = false;
        }
        node.extra.AXMain = true;
        // A main window comes first among its app's windows; the app itself is not activated.
        world.orderFrontInApp(win.id);
        return AXError.Success;
      }
    }
    return AXError.AttributeUnsupported;
  }

  return {
    AXIsProcessTrusted: () => world.accessibilityTrusted,
    AXIsProcessTrustedWithOptions: (options: Deno.PointerValue) => {
      if (options !== null) {
        const dict = fromCF(heap.deref(options, "AXIsProcessTrustedWithOptions", ["CFDictionary"])) as Map<
          string,
          unknown
        >;
        if (dict.get("AXTrustedCheckOptionPrompt") === true) world.promptsShown.push("accessibility");
      }
      return world.accessibilityTrusted;
    },
    kAXTrustedCheckOptionPrompt: ptr(
      constants.string("AXTrustedCheckOptionPrompt", "kAXTrustedCheckOptionPrompt"),
    ),
    AXUIElementGetTypeID: () => TYPE_IDS.AXUIElement,
    AXUIElementCreateApplication: (pid: number) => {
      const app = world.app(pid);
      const node = app?.ax ?? element(pid, "AXApplication");
      return ptr(heap.create("AXUIElement", node, "AXUIElementCreateApplication"));
    },
    AXUIElementCreateSystemWide: () =>
      ptr(heap.create("AXUIElement", systemWide, "AXUIElementCreateSystemWide")),
    AXUIElementSetMessagingTimeout: (ref: Deno.PointerValue, seconds: number) => {
      const object = target(ref, "AXUIElementSetMessagingTimeout");
      if (!(seconds > 0)) return AXError.IllegalArgument;
      if (object.value === systemWide) globalTimeout = seconds;
      else timeouts.set(object, seconds);
      return AXError.Success;
    },
    AXUIElementGetPid: (ref: Deno.PointerValue, out: unknown) => {
      const node = target(ref, "AXUIElementGetPid").value as FakeElement;
      viewOf(heap, out, 4, "AXUIElementGetPid").setInt32(0, node.pid, true);
      return AXError.Success;
    },
    AXUIElementCopyAttributeValue: (ref: Deno.PointerValue, name: Deno.PointerValue, out: unknown) => {
      const api = "AXUIElementCopyAttributeValue";
      const object = target(ref, api);
      const attributeName = nameOf(name, api);
      const status = reach(object, api);
      if (status !== AXError.Success) return status;
      const node = object.value as FakeElement;
      if (node === systemWide) {
        if (attributeName !== "AXFocusedApplication") return AXError.AttributeUnsupported;
        const front = world.frontmost === null ? null : world.app(world.frontmost);
        if (!front) return AXError.NoValue;
        writeOut(heap, out, toCF(constants, front.ax, `${api}(AXFocusedApplication)`, "caller"), api);
        return AXError.Success;
      }
      const value = copyValue(node, attributeName, api);
      if (typeof value === "number") return value;
      writeOut(heap, out, value, api);
      return AXError.Success;
    },
    AXUIElementCopyMultipleAttributeValues: (
      ref: Deno.PointerValue,
      names: Deno.PointerValue,
      options: number,
      out: unknown,
    ) => {
      const api = "AXUIElementCopyMultipleAttributeValues";
      const object = target(ref, api);
      const list = fromCF(heap.deref(names, api, ["CFArray"])) as unknown[];
      if (list.some((n) => typeof n !== "string")) heap.fail(`${api}: attribute names must be CFStrings`);
      const status = reach(object, api);
      if (status !== AXError.Success) return status;
      const node = object.value as FakeElement;
      const values: CFable[] = [];
      for (const attributeName of list as string[]) {
        const value = attribute(world, node, attributeName);
        if ((value === undefined || value === null) && options & 1) {
          return value === null ? AXError.NoValue : AXError.AttributeUnsupported;
        }
        values.push(
          value === undefined
            ? { ax: "error", code: AXError.AttributeUnsupported }
            : value === null
            ? { ax: "error", code: AXError.NoValue }
            : value,
        );
      }
      writeOut(heap, out, toCF(constants, values, api, "caller"), api);
      return AXError.Success;
    },
    AXUIElementCopyAttributeValues: (
      ref: Deno.PointerValue,
      name: Deno.PointerValue,
      index: bigint,
      max: bigint,
      out: unknown,
    ) => {
      const api = "AXUIElementCopyAttributeValues";
      const object = target(ref, api);
      const status = reach(object, api);
      if (status !== AXError.Success) return status;
      const value = attribute(world, object.value as FakeElement, nameOf(name, api));
      if (!Array.isArray(value)) {
        return value === undefined ? AXError.AttributeUnsupported : AXError.IllegalArgument;
      }
      if (index < 0n || index > BigInt(value.length)) return AXError.IllegalArgument;
      const slice = value.slice(Number(index), Number(index + max));
      writeOut(heap, out, toCF(constants, slice, api, "caller"), api);
      return AXError.Success;
    },
    AXUIElementGetAttributeValueCount: (ref: Deno.PointerValue, name: Deno.PointerValue, out: unknown) => {
      const api = "AXUIElementGetAttributeValueCount";
      const object = target(ref, api);
      const status = reach(object, api);
      if (status !== AXError.Success) return status;
      const value = attribute(world, object.value as FakeElement, nameOf(name, api));
      if (!Array.isArray(value)) return AXError.IllegalArgument;
      viewOf(heap, out, 8, api).setBigInt64(0, BigInt(value.length), true);
      return AXError.Success;
    },
    AXUIElementIsAttributeSettable: (ref: Deno.PointerValue, name: Deno.PointerValue, out: unknown) => {
      const api = "AXUIElementIsAttributeSettable";
      const object = target(ref, api);
      const status = reach(object, api);
      if (status !== AXError.Success) return status;
      const node = object.value as FakeElement;
      const attributeName = nameOf(name, api);
      const settable = (attributeName === "AXValue" || attributeName === "AXSelectedText" ||
            attributeName === "AXSelectedTextRange") && node.valueSettable === true ||
        attributeName === "AXFocused" && node.role !== "AXApplication" ||
        (attributeName === "AXPosition" || attributeName === "AXSize" || attributeName === "AXMain") &&
          node.role === "AXWindow";
      bytesOf(out)[0] = settable ? 1 : 0;
      return AXError.Success;
    },
    AXUIElementSetAttributeValue: (
      ref: Deno.PointerValue,
      name: Deno.PointerValue,
      value: Deno.PointerValue,
    ) => {
      const api = "AXUIElementSetAttributeValue";
      const object = target(ref, api);
      const attributeName = nameOf(name, api);
      const given = fromCF(heap.deref(value, api));
      const status = reach(object, api);
      if (status !== AXError.Success) return status;
      return setValue(object.value as FakeElement, attributeName, given);
    },
    AXUIElementCopyActionNames: (ref: Deno.PointerValue, out: unknown) => {
      const api = "AXUIElementCopyActionNames";
      const object = target(ref, api);
      const status = reach(object, api);
      if (status !== AXError.Success) return status;
      writeOut(heap, out, toCF(constants, (object.value as FakeElement).actions, api, "caller"), api);
      return AXError.Success;
    },
    AXUIElementPerformAction: (ref: Deno.PointerValue, action: Deno.PointerValue) => {
      const api = "AXUIElementPerformAction";
      const object = target(ref, api);
      const actionName = nameOf(action, api);
      const status = reach(object, api);
      if (status !== AXError.Success) return status;
      const node = object.value as FakeElement;
      if (!node.enabled) return AXError.CannotComplete;
      return world.perform(node, actionName) ? AXError.Success : AXError.ActionUnsupported;
    },
    AXUIElementCopyParameterizedAttributeValue: (
      ref: Deno.PointerValue,
      _name: Deno.PointerValue,
      _parameter: Deno.PointerValue,
      _out: unknown,
    ) => {
      const status = reach(
        target(ref, "AXUIElementCopyParameterizedAttributeValue"),
        "AXUIElementCopyParameterizedAttributeValue",
      );
      return status !== AXError.Success ? status : AXError.ParameterizedAttributeUnsupported;
    },
    AXUIElementCopyElementAtPosition: (ref: Deno.PointerValue, x: number, y: number, out: unknown) => {
      const api = "AXUIElementCopyElementAtPosition";
      const object = target(ref, api);
      const status = reach(object, api);
      if (status !== AXError.Success) return status;
      const node = object.value as FakeElement;
      const win = world.windowAt({ x, y });
      if (!win?.ax || (node !== systemWide && win.pid !== node.pid)) return AXError.NoValue;
      const hit = world.hitTest(win.ax, { x, y });
      if (!hit) return AXError.NoValue;
      writeOut(heap, out, toCF(constants, hit, api, "caller"), api);
      return AXError.Success;
    },
    _AXUIElementGetWindow: (ref: Deno.PointerValue, out: unknown) => {
      const node = target(ref, "_AXUIElementGetWindow").value as FakeElement;
      if (node.windowId === undefined) return AXError.IllegalArgument;
      viewOf(heap, out, 4, "_AXUIElementGetWindow").setUint32(0, node.windowId, true);
      return AXError.Success;
    },
    AXValueGetTypeID: () => TYPE_IDS.AXValue,
    AXValueCreate: (type: number, buffer: unknown) => {
      const kind = AX_VALUE_TYPES[type];
      if (!kind || kind === "error") heap.fail(`AXValueCreate: type ${type} is not creatable`);
      const view = viewOf(heap, buffer, kind === "rect" ? 32 : 16, "AXValueCreate");
      const f = (i: number) => view.getFloat64(i * 8, true);
      const payload: AxValuePayload = kind === "point"
        ? { ax: "point", x: f(0), y: f(1) }
        : kind === "size"
        ? { ax: "size", width: f(0), height: f(1) }
        : kind === "rect"
        ? { ax: "rect", x: f(0), y: f(1), width: f(2), height: f(3) }
        : {
          ax: "range",
          location: Number(view.getBigInt64(0, true)),
          length: Number(view.getBigInt64(8, true)),
        };
      return ptr(heap.create("AXValue", payload, "AXValueCreate"));
    },
    AXValueGetType: (ref: Deno.PointerValue) => {
      const payload = heap.deref(ref, "AXValueGetType", ["AXValue"]).value as AxValuePayload;
      return Number(Object.entries(AX_VALUE_TYPES).find(([, name]) => name === payload.ax)![0]);
    },
    AXValueGetValue: (ref: Deno.PointerValue, type: number, out: unknown) => {
      const payload = heap.deref(ref, "AXValueGetValue", ["AXValue"]).value as AxValuePayload;
      if (AX_VALUE_TYPES[type] !== payload.ax) return false;
      const view = viewOf(
        heap,
        out,
        payload.ax === "rect" ? 32 : payload.ax === "error" ? 4 : 16,
        "AXValueGetValue",
      );
      const put = (...values: number[]) => values.forEach((v, i) => view.setFloat64(i * 8, v, true));
      if (payload.ax === "point") put(payload.x, payload.y);
      else if (payload.ax === "size") put(payload.width, payload.height);
      else if (payload.ax === "rect") put(payload.x, payload.y, payload.width, payload.height);
      else if (payload.ax === "range") {
        view.setBigInt64(0, BigInt(payload.location), true);
        view.setBigInt64(8, BigInt(payload.length), true);
      } else view.setInt32(0, payload.code, true);
      return true;
    },
  };
}
