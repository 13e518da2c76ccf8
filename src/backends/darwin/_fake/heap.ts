/**
 * The fake frameworks' object heap: every CF/objc object the fake hands out has an
 * address, a kind and two reference counts, so a test can tell exactly who owns it.
 *
 * - `owned`: references the caller holds (a Create/Copy result, a CFRetain);
 *   CFRelease takes one back. Releasing with none left is an over-release.
 * - `held`: references held on the caller's behalf by something else (a container,
 *   an autorelease pool). When both reach 0 the object is freed; any later use of its
 *   address is a use-after-release.
 *
 * Constants (kCFBooleanTrue, the kCGWindow* keys) are immortal but still count
 * `owned`, so releasing a constant one was never given is caught too.
 *
 * @module
 */

/** Kinds of objects the fake creates. */
export type FakeKind =
  | "CFString"
  | "CFNumber"
  | "CFBoolean"
  | "CFArray"
  | "CFDictionary"
  | "CFData"
  | "CFURL"
  | "CFBundle"
  | "AXUIElement"
  | "AXValue"
  | "CGEvent"
  | "CGEventSource"
  | "CGImage"
  | "CGDataProvider"
  | "CGDisplayMode"
  | "ObjC"
  | "Class"
  | "Selector"
  | "Pool"
  | "Callbacks";

/** One object on the fake heap. */
export interface FakeObject {
  readonly address: bigint;
  readonly kind: FakeKind;
  /** The value: a string, number, array of objects, Map, bytes, or a world record. */
  value: unknown;
  owned: number;
  held: number;
  readonly immortal: boolean;
  /** The API call that produced it, for leak reports. */
  readonly origin: string;
  freed: boolean;
  /** For an ObjC instance: its class name. */
  className?: string;
}

/** The object heap and the ownership violations seen so far. */
export class FakeHeap {
  readonly #objects = new Map<bigint, FakeObject>();
  #next = 0x6000_0000_1000n;
  /** Ownership and type violations, in the order they happened. */
  readonly violations: string[] = [];

  #allocate(kind: FakeKind, value: unknown, origin: string, immortal: boolean): FakeObject {
    const object: FakeObject = {
      address: this.#next,
      kind,
      value,
      owned: 0,
      held: 0,
      immortal,
      origin,
      freed: false,
    };
    this.#next += 0x40n;
    this.#objects.set(object.address, object);
    return object;
  }

  /** A new object returned +1 to the caller (Create rule). */
  create(kind: FakeKind, value: unknown, origin: string): FakeObject {
    const object = this.#allocate(kind, value, origin, false);
    object.owned = 1;
    return object;
  }

  /** A new object held by something other than the caller (a container, a pool). */
  createHeld(kind: FakeKind, value: unknown, origin: string): FakeObject {
    const object = this.#allocate(kind, value, origin, false);
    object.held = 1;
    return object;
  }

  /** An immortal object (a framework constant, a class, a selector). */
  constant(kind: FakeKind, value: unknown, origin: string): FakeObject {
    return this.#allocate(kind, value, origin, true);
  }

  /** The pointer of an object. */
  pointer(object: FakeObject): Deno.PointerObject {
    return Deno.UnsafePointer.create(object.address)!;
  }

  /** The object behind an address, or undefined when the fake never made it. */
  peek(address: bigint): FakeObject | undefined {
    return this.#objects.get(address);
  }

  /**
   * The live object behind a pointer argument. Records a violation (and throws) for
   * NULL, an unknown address, a freed object, or another kind than expected.
   */
  deref(pointer: Deno.PointerValue, api: string, kinds?: readonly FakeKind[]): FakeObject {
    if (pointer === null) this.fail(`${api}: NULL passed where an object is required`);
    const address = BigInt(Deno.UnsafePointer.value(pointer));
    const object = this.#objects.get(address);
    if (!object) this.fail(`${api}: 0x${address.toString(16)} is not an object the frameworks returned`);
    if (object.freed) {
      this.fail(`${api}: use after release of a ${object.kind} from ${object.origin}`);
    }
    if (kinds && !kinds.includes(object.kind)) {
      this.fail(`${api}: expected ${kinds.join(" or ")}, got ${object.kind} from ${object.origin}`);
    }
    return object;
  }

  /** Records a violation and throws it (the call fails as a crash would). */
  fail(message: string): never {
    this.violations.push(message);
    throw new FakeViolation(message);
  }

  /** CFRetain. */
  retain(object: FakeObject): void {
    object.owned++;
  }

  /** CFRelease: gives back one caller reference. */
  release(object: FakeObject, api: string): void {
    if (object.owned === 0) {
      this.fail(`${api}: over-release of a ${object.kind} from ${object.origin} the caller does not own`);
    }
    object.owned--;
    this.#maybeFree(object);
  }

  /** Another holder (container, pool) takes a reference. */
  hold(object: FakeObject): void {
    object.held++;
  }

  /** A holder gives its reference back. */
  unhold(object: FakeObject): void {
    object.held--;
    this.#maybeFree(object);
  }

  #maybeFree(object: FakeObject): void {
    if (object.immortal || object.owned > 0 || object.held > 0 || object.freed) return;
    object.freed = true;
    for (const child of containedObjects(object)) this.unhold(child);
  }

  /** Objects the caller still owns (leaks, once the back end has closed). */
  leaks(): FakeObject[] {
    return [...this.#objects.values()].filter((o) => !o.immortal && !o.freed && o.owned > 0);
  }

  /** Objects of a kind that are still alive. */
  live(kind: FakeKind): FakeObject[] {
    return [...this.#objects.values()].filter((o) => o.kind === kind && !o.freed);
  }
}

/** Thrown by the fake where the real framework would misbehave or crash. */
export class FakeViolation extends Error {
  override name = "FakeViolation";
}

/** The objects a container holds a reference to. */
export function containedObjects(object: FakeObject): FakeObject[] {
  if (object.kind === "CFArray") return object.value as FakeObject[];
  if (object.kind === "CGImage" || object.kind === "CFBundle") {
    const inner = object.value as { provider?: FakeObject | null; held?: FakeObject[] };
    return [...(inner.provider ? [inner.provider] : []), ...(inner.held ?? [])];
  }
  if (object.kind === "CFDictionary") {
    return [...(object.value as Map<string, { key: FakeObject; value: FakeObject }>).values()]
      .flatMap((entry) => [entry.key, entry.value]);
  }
  return [];
}
