/**
 * Converts between the fake world's JavaScript values and objects on the fake CF
 * heap, with the ownership a real framework gives them: the top-level result of a
 * Copy is +1 to the caller, anything inside a container is held by the container.
 *
 * @module
 */
import type { FakeHeap, FakeKind, FakeObject } from "./heap.ts";
import type { FakeElement } from "./world.ts";

/** An AXValue payload. */
export type AxValuePayload =
  | { ax: "point"; x: number; y: number }
  | { ax: "size"; width: number; height: number }
  | { ax: "rect"; x: number; y: number; width: number; height: number }
  | { ax: "range"; location: number; length: number }
  | { ax: "error"; code: number };

/** A CFNumber's payload. */
export interface NumberPayload {
  value: number;
  float: boolean;
}

/** A CFURL's payload. */
export interface UrlPayload {
  /** The file path; "" for a URL of another scheme. */
  path: string;
  directory: boolean;
  /** The URL string of a non-file URL. */
  url?: string;
}

/** A value the fake can turn into a CF object. */
export type CFable =
  | string
  | number
  | boolean
  | Uint8Array
  | FakeElement
  | AxValuePayload
  | { url: string }
  | CFable[]
  | Map<string, CFable>;

/** Dictionary storage: string key → key object and value object. */
export type DictPayload = Map<string, { key: FakeObject; value: FakeObject }>;

/** CFTypeIDs of the fake (any distinct numbers serve; real ones differ per release). */
export const TYPE_IDS: Record<string, bigint> = {
  CFString: 7n,
  CFNumber: 22n,
  CFBoolean: 21n,
  CFArray: 19n,
  CFDictionary: 18n,
  CFData: 20n,
  CFURL: 29n,
  CFBundle: 31n,
  AXUIElement: 0x1a1n,
  AXValue: 0x1a2n,
  CGEvent: 0x110n,
  CGEventSource: 0x111n,
  CGImage: 0x112n,
  CGDataProvider: 0x113n,
  CGDisplayMode: 0x114n,
  ObjC: 1n,
};

function isElement(value: object): value is FakeElement {
  return "role" in value && "children" in value && "pid" in value;
}

/** Shared constants of the fake CF world. */
export class CFConstants {
  readonly true: FakeObject;
  readonly false: FakeObject;
  readonly #strings = new Map<string, FakeObject>();
  constructor(readonly heap: FakeHeap) {
    this.true = heap.constant("CFBoolean", true, "kCFBooleanTrue");
    this.false = heap.constant("CFBoolean", false, "kCFBooleanFalse");
  }

  /** An immortal CFString constant (kCGWindowNumber, NSPasteboardTypeString, ...). */
  string(value: string, name: string): FakeObject {
    let object = this.#strings.get(name);
    if (!object) {
      object = this.heap.constant("CFString", value, name);
      this.#strings.set(name, object);
    }
    return object;
  }
}

/**
 * Makes a CF object for a value. `owner` is "caller" for a +1 result, "held" for a
 * value inside a container (or autoreleased).
 */
export function toCF(
  constants: CFConstants,
  value: CFable,
  origin: string,
  owner: "caller" | "held",
): FakeObject {
  const heap = constants.heap;
  const make = (kind: FakeKind, payload: unknown) =>
    owner === "caller" ? heap.create(kind, payload, origin) : heap.createHeld(kind, payload, origin);
  if (typeof value === "boolean") {
    const object = value ? constants.true : constants.false;
    if (owner === "caller") heap.retain(object);
    else heap.hold(object);
    return object;
  }
  if (typeof value === "string") return make("CFString", value);
  if (typeof value === "number") {
    return make("CFNumber", { value, float: !Number.isInteger(value) } satisfies NumberPayload);
  }
  if (value instanceof Uint8Array) return make("CFData", value.slice());
  if (Array.isArray(value)) {
    return make("CFArray", value.map((item) => toCF(constants, item, origin, "held")));
  }
  if (value instanceof Map) {
    const payload: DictPayload = new Map();
    for (const [key, item] of value) {
      payload.set(key, {
        key: toCF(constants, key, origin, "held"),
        value: toCF(constants, item, origin, "held"),
      });
    }
    return make("CFDictionary", payload);
  }
  if ("url" in value) return make("CFURL", { path: value.url, directory: false } satisfies UrlPayload);
  if ("ax" in value) return make("AXValue", value);
  if (isElement(value)) return make("AXUIElement", value);
  throw new TypeError(`fake: cannot make a CF value of ${JSON.stringify(value)}`);
}

/** Reads a CF object back as a plain value (strings, numbers, booleans, arrays, elements). */
export function fromCF(object: FakeObject): unknown {
  switch (object.kind) {
    case "CFString":
    case "CFBoolean":
    case "CFData":
    case "AXUIElement":
    case "AXValue":
      return object.value;
    case "CFNumber":
      return (object.value as NumberPayload).value;
    case "CFURL":
      return { url: (object.value as UrlPayload).path };
    case "CFArray":
      return (object.value as FakeObject[]).map(fromCF);
    case "CFDictionary": {
      const out = new Map<string, unknown>();
      for (const [key, entry] of object.value as DictPayload) out.set(key, fromCF(entry.value));
      return out;
    }
    default:
      return object.value;
  }
}

/** A +1 container built by the caller (CFArrayCreate/CFDictionaryCreate) holds its elements. */
export function holdAll(heap: FakeHeap, objects: FakeObject[]): void {
  for (const object of objects) heap.hold(object);
}
