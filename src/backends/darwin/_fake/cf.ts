/**
 * The fake CoreFoundation: CF objects on the fake heap, with the Create/Get rule
 * ownership of the real framework.
 *
 * @module
 */
import type { CF_SYMBOLS } from "../../../../ffi/darwin/core_foundation.ts";
import { readCFRange } from "../../../../ffi/darwin/geometry.ts";
import type { FakeMac } from "./world.ts";
import type { FakeHeap, FakeObject } from "./heap.ts";
import {
  type CFConstants,
  type DictPayload,
  holdAll,
  type NumberPayload,
  TYPE_IDS,
  type UrlPayload,
} from "./values.ts";

/** A view of a "buffer" argument's bytes. */
export function bytesOf(buffer: unknown): Uint8Array {
  if (buffer instanceof ArrayBuffer) return new Uint8Array(buffer);
  const view = buffer as ArrayBufferView;
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** A DataView of a "buffer" argument, checked to hold at least `size` bytes. */
export function viewOf(heap: FakeHeap, buffer: unknown, size: number, api: string): DataView {
  if (buffer === null) heap.fail(`${api}: NULL output buffer`);
  const bytes = bytesOf(buffer);
  if (bytes.byteLength < size) heap.fail(`${api}: buffer of ${bytes.byteLength} bytes, ${size} needed`);
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Reads `count` pointers from a `const void **` buffer. */
export function readPointers(heap: FakeHeap, buffer: unknown, count: number, api: string): bigint[] {
  const view = viewOf(heap, buffer, count * 8, api);
  return Array.from({ length: count }, (_, i) => view.getBigUint64(i * 8, true));
}

/** Writes an object's address into a `CFTypeRef *` out-parameter. */
export function writeOut(heap: FakeHeap, buffer: unknown, object: FakeObject | null, api: string): void {
  viewOf(heap, buffer, 8, api).setBigUint64(0, object?.address ?? 0n, true);
}

/** The implementation of CF_SYMBOLS. */
export function fakeCoreFoundation(
  heap: FakeHeap,
  constants: CFConstants,
  callbacks: { array: FakeObject; key: FakeObject; value: FakeObject },
  runLoopTicks: { count: number; world?: FakeMac } = { count: 0 },
): { [K in keyof typeof CF_SYMBOLS]?: unknown } {
  const ptr = (object: FakeObject) => heap.pointer(object);
  const deref = heap.deref.bind(heap);
  const objectsAt = (addresses: bigint[], api: string) =>
    addresses.map((address) => deref(Deno.UnsafePointer.create(address), api));
  const expectCallbacks = (pointer: Deno.PointerValue, expected: FakeObject, api: string) => {
    const address = pointer === null ? 0n : BigInt(Deno.UnsafePointer.value(pointer));
    if (address !== expected.address) {
      heap.fail(`${api}: callbacks are not ${expected.origin}; the container would not retain its values`);
    }
  };
  return {
    CFRelease: (ref: Deno.PointerValue) => heap.release(deref(ref, "CFRelease"), "CFRelease"),
    CFRetain: (ref: Deno.PointerValue) => {
      const object = deref(ref, "CFRetain");
      heap.retain(object);
      return ref;
    },
    CFGetTypeID: (ref: Deno.PointerValue) => {
      const object = deref(ref, "CFGetTypeID");
      if (object.kind === "ObjC") {
        const bridged = { NSString: "CFString", NSArray: "CFArray", NSData: "CFData", NSURL: "CFURL" };
        return TYPE_IDS[bridged[object.className as keyof typeof bridged] ?? "ObjC"];
      }
      return TYPE_IDS[object.kind] ?? 0n;
    },
    CFEqual: (a: Deno.PointerValue, b: Deno.PointerValue) => {
      const x = deref(a, "CFEqual");
      const y = deref(b, "CFEqual");
      return x === y || (x.kind === y.kind && x.value === y.value);
    },
    CFHash: (ref: Deno.PointerValue) => {
      const object = deref(ref, "CFHash");
      const value = object.value as { id?: number };
      return BigInt(object.kind === "AXUIElement" ? value.id ?? 0 : Number(object.address % 1000n));
    },
    CFStringGetTypeID: () => TYPE_IDS.CFString,
    CFStringCreateWithCharacters: (alloc: Deno.PointerValue, chars: unknown, count: bigint) => {
      if (alloc !== null) heap.fail("CFStringCreateWithCharacters: allocator must be NULL");
      const view = viewOf(heap, chars, Number(count) * 2, "CFStringCreateWithCharacters");
      let text = "";
      for (let i = 0; i < Number(count); i++) text += String.fromCharCode(view.getUint16(i * 2, true));
      return ptr(heap.create("CFString", text, "CFStringCreateWithCharacters"));
    },
    CFStringGetLength: (ref: Deno.PointerValue) =>
      BigInt((deref(ref, "CFStringGetLength", ["CFString"]).value as string).length),
    CFStringGetCharacters: (ref: Deno.PointerValue, range: Uint8Array, out: unknown) => {
      const text = deref(ref, "CFStringGetCharacters", ["CFString"]).value as string;
      const { location, length } = readCFRange(range);
      if (location < 0 || location + length > text.length) {
        heap.fail("CFStringGetCharacters: range out of bounds");
      }
      const view = viewOf(heap, out, length * 2, "CFStringGetCharacters");
      for (let i = 0; i < length; i++) view.setUint16(i * 2, text.charCodeAt(location + i), true);
    },
    CFNumberGetTypeID: () => TYPE_IDS.CFNumber,
    CFNumberCreate: (alloc: Deno.PointerValue, type: bigint, cell: unknown) => {
      if (alloc !== null) heap.fail("CFNumberCreate: allocator must be NULL");
      const view = viewOf(heap, cell, 8, "CFNumberCreate");
      const t = Number(type);
      const value = t === 4
        ? Number(view.getBigInt64(0, true))
        : t === 6 || t === 13
        ? view.getFloat64(0, true)
        : t === 3
        ? view.getInt32(0, true)
        : heap.fail(`CFNumberCreate: number type ${t} is not scripted`);
      return ptr(heap.create("CFNumber", { value, float: t === 6 || t === 13 }, "CFNumberCreate"));
    },
    CFNumberGetValue: (ref: Deno.PointerValue, type: bigint, cell: unknown) => {
      const { value } = deref(ref, "CFNumberGetValue", ["CFNumber"]).value as NumberPayload;
      const view = viewOf(heap, cell, 8, "CFNumberGetValue");
      const t = Number(type);
      if (t === 4) view.setBigInt64(0, BigInt(Math.trunc(value)), true);
      else if (t === 6 || t === 13) view.setFloat64(0, value, true);
      else if (t === 3) view.setInt32(0, Math.trunc(value), true);
      else heap.fail(`CFNumberGetValue: number type ${t} is not scripted`);
      return Number.isInteger(value) || t === 6 || t === 13;
    },
    CFNumberIsFloatType: (ref: Deno.PointerValue) =>
      (deref(ref, "CFNumberIsFloatType", ["CFNumber"]).value as NumberPayload).float,
    CFBooleanGetTypeID: () => TYPE_IDS.CFBoolean,
    CFBooleanGetValue: (ref: Deno.PointerValue) =>
      deref(ref, "CFBooleanGetValue", ["CFBoolean"]).value as boolean,
    kCFBooleanTrue: ptr(constants.true),
    kCFBooleanFalse: ptr(constants.false),
    CFRunLoopRunInMode: (mode: Deno.PointerValue, seconds: number, returnAfterSource: boolean) => {
      const name = heap.deref(mode, "CFRunLoopRunInMode", ["CFString"]).value;
      if (name !== "kCFRunLoopDefaultMode") heap.fail(`CFRunLoopRunInMode: unexpected mode ${String(name)}`);
      if (seconds > 1) {
        heap.fail("CFRunLoopRunInMode: the driver must not block its event loop on the run loop");
      }
      const world = runLoopTicks.world;
      // Off the main thread this runs that thread's own run loop: NSWorkspace's sources are not in it.
      if (world && !world.mainThread) return 3;
      runLoopTicks.count++;
      // One pass with a zero timeout handles at most one ready source.
      if (world && world.runLoopSources > 0) {
        world.runLoopSources--;
        return returnAfterSource ? 4 : 3; // kCFRunLoopRunHandledSource, or kCFRunLoopRunTimedOut
      }
      return 3; // kCFRunLoopRunTimedOut: nothing else to do
    },
    kCFRunLoopDefaultMode: ptr(constants.string("kCFRunLoopDefaultMode", "kCFRunLoopDefaultMode")),
    CFArrayGetTypeID: () => TYPE_IDS.CFArray,
    CFArrayCreate: (alloc: Deno.PointerValue, values: unknown, count: bigint, cb: Deno.PointerValue) => {
      if (alloc !== null) heap.fail("CFArrayCreate: allocator must be NULL");
      expectCallbacks(cb, callbacks.array, "CFArrayCreate");
      const items = objectsAt(readPointers(heap, values, Number(count), "CFArrayCreate"), "CFArrayCreate");
      holdAll(heap, items);
      return ptr(heap.create("CFArray", items, "CFArrayCreate"));
    },
    CFArrayGetCount: (ref: Deno.PointerValue) => BigInt(arrayItems(heap, ref, "CFArrayGetCount").length),
    CFArrayGetValues: (ref: Deno.PointerValue, range: Uint8Array, out: unknown) => {
      const items = arrayItems(heap, ref, "CFArrayGetValues");
      const { location, length } = readCFRange(range);
      if (location < 0 || location + length > items.length) {
        heap.fail("CFArrayGetValues: range out of bounds");
      }
      const view = viewOf(heap, out, length * 8, "CFArrayGetValues");
      for (let i = 0; i < length; i++) view.setBigUint64(i * 8, items[location + i].address, true);
    },
    CFDictionaryGetTypeID: () => TYPE_IDS.CFDictionary,
    CFDictionaryCreate: (
      alloc: Deno.PointerValue,
      keys: unknown,
      values: unknown,
      count: bigint,
      keyCallbacks: Deno.PointerValue,
      valueCallbacks: Deno.PointerValue,
    ) => {
      if (alloc !== null) heap.fail("CFDictionaryCreate: allocator must be NULL");
      expectCallbacks(keyCallbacks, callbacks.key, "CFDictionaryCreate");
      expectCallbacks(valueCallbacks, callbacks.value, "CFDictionaryCreate");
      const n = Number(count);
      const keyObjects = objectsAt(readPointers(heap, keys, n, "CFDictionaryCreate"), "CFDictionaryCreate");
      const valueObjects = objectsAt(
        readPointers(heap, values, n, "CFDictionaryCreate"),
        "CFDictionaryCreate",
      );
      const payload: DictPayload = new Map();
      keyObjects.forEach((key, i) => {
        if (key.kind !== "CFString") heap.fail("CFDictionaryCreate: the fake supports CFString keys only");
        payload.set(key.value as string, { key, value: valueObjects[i] });
      });
      holdAll(heap, [...keyObjects, ...valueObjects]);
      return ptr(heap.create("CFDictionary", payload, "CFDictionaryCreate"));
    },
    CFDictionaryGetValue: (ref: Deno.PointerValue, key: Deno.PointerValue) => {
      const dict = deref(ref, "CFDictionaryGetValue", ["CFDictionary"]).value as DictPayload;
      const keyObject = deref(key, "CFDictionaryGetValue", ["CFString"]);
      const entry = dict.get(keyObject.value as string);
      return entry ? ptr(entry.value) : null;
    },
    CFDataGetTypeID: () => TYPE_IDS.CFData,
    CFDataCreate: (alloc: Deno.PointerValue, bytes: unknown, length: bigint) => {
      if (alloc !== null) heap.fail("CFDataCreate: allocator must be NULL");
      const copy = bytesOf(bytes).slice(0, Number(length));
      return ptr(heap.create("CFData", copy, "CFDataCreate"));
    },
    CFDataGetLength: (ref: Deno.PointerValue) => BigInt(dataBytes(heap, ref, "CFDataGetLength").length),
    CFDataGetBytes: (ref: Deno.PointerValue, range: Uint8Array, out: unknown) => {
      const bytes = dataBytes(heap, ref, "CFDataGetBytes");
      const { location, length } = readCFRange(range);
      if (location < 0 || location + length > bytes.length) heap.fail("CFDataGetBytes: range out of bounds");
      viewOf(heap, out, length, "CFDataGetBytes");
      bytesOf(out).set(bytes.subarray(location, location + length));
    },
    CFURLGetTypeID: () => TYPE_IDS.CFURL,
    CFURLCreateFromFileSystemRepresentation: (
      alloc: Deno.PointerValue,
      buffer: unknown,
      length: bigint,
      directory: boolean,
    ) => {
      if (alloc !== null) heap.fail("CFURLCreateFromFileSystemRepresentation: allocator must be NULL");
      const path = new TextDecoder().decode(bytesOf(buffer).subarray(0, Number(length)));
      return ptr(
        heap.create(
          "CFURL",
          { path, directory } satisfies UrlPayload,
          "CFURLCreateFromFileSystemRepresentation",
        ),
      );
    },
    CFURLCreateWithBytes: (
      alloc: Deno.PointerValue,
      buffer: unknown,
      length: bigint,
      encoding: number,
      base: Deno.PointerValue,
    ) => {
      if (alloc !== null || base !== null) heap.fail("CFURLCreateWithBytes: allocator and base must be NULL");
      if (encoding !== 0x08000100) heap.fail("CFURLCreateWithBytes: the fake reads UTF-8 only");
      const url = new TextDecoder().decode(bytesOf(buffer).subarray(0, Number(length)));
      const path = url.startsWith("file://") ? decodeURI(url.slice(7)) : "";
      return ptr(
        heap.create("CFURL", { path, directory: false, url } satisfies UrlPayload, "CFURLCreateWithBytes"),
      );
    },
    CFURLGetFileSystemRepresentation: (
      ref: Deno.PointerValue,
      _resolve: boolean,
      out: unknown,
      max: bigint,
    ) => {
      const object = deref(ref, "CFURLGetFileSystemRepresentation", ["CFURL", "ObjC"]);
      const { path } = object.value as UrlPayload;
      if (!path) return false;
      const encoded = new TextEncoder().encode(path);
      if (encoded.length + 1 > Number(max)) return false;
      const bytes = bytesOf(out);
      bytes.set(encoded);
      bytes[encoded.length] = 0;
      return true;
    },
  };
}

function arrayItems(heap: FakeHeap, ref: Deno.PointerValue, api: string): FakeObject[] {
  const object = heap.deref(ref, api, ["CFArray", "ObjC"]);
  if (object.kind === "ObjC" && object.className !== "NSArray") heap.fail(`${api}: not an array`);
  return object.value as FakeObject[];
}

function dataBytes(heap: FakeHeap, ref: Deno.PointerValue, api: string): Uint8Array {
  const object = heap.deref(ref, api, ["CFData", "ObjC"]);
  return object.value as Uint8Array;
}
