/**
 * Builds a fake symbol table from a real one: every call is checked against the
 * real table's declared parameter and result types (what Deno's FFI would accept
 * or produce), recorded, and answered by a scripted implementation. A symbol with
 * no implementation fails loudly, so the fake never answers what it does not know.
 *
 * @module
 */
import type { FakeHeap } from "./heap.ts";

/** One recorded framework call. */
export interface FakeCall {
  table: string;
  symbol: string;
  args: unknown[];
}

const INT_RANGE: Record<string, [number, number]> = {
  u8: [0, 0xff],
  i8: [-0x80, 0x7f],
  u16: [0, 0xffff],
  i16: [-0x8000, 0x7fff],
  u32: [0, 0xffffffff],
  i32: [-0x80000000, 0x7fffffff],
};
const BIG_RANGE: Record<string, [bigint, bigint]> = {
  u64: [0n, 2n ** 64n - 1n],
  usize: [0n, 2n ** 64n - 1n],
  i64: [-(2n ** 63n), 2n ** 63n - 1n],
  isize: [-(2n ** 63n), 2n ** 63n - 1n],
};
const PRIMITIVE_SIZE: Record<string, number> = {
  u8: 1,
  i8: 1,
  bool: 1,
  u16: 2,
  i16: 2,
  u32: 4,
  i32: 4,
  f32: 4,
  u64: 8,
  i64: 8,
  usize: 8,
  isize: 8,
  f64: 8,
  pointer: 8,
  buffer: 8,
  function: 8,
};

/** The byte size of a native type (structs laid out with natural alignment). */
export function nativeSize(type: Deno.NativeType): number {
  if (typeof type === "string") return PRIMITIVE_SIZE[type];
  let size = 0;
  let align = 1;
  for (const field of type.struct) {
    const fieldSize = nativeSize(field);
    const fieldAlign = typeof field === "string" ? fieldSize : 8;
    align = Math.max(align, fieldAlign);
    size = Math.ceil(size / fieldAlign) * fieldAlign + fieldSize;
  }
  return Math.ceil(size / align) * align;
}

function isPointer(value: unknown): boolean {
  if (value === null) return true;
  if (typeof value !== "object" || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return false;
  try {
    Deno.UnsafePointer.value(value as Deno.PointerObject);
    return true;
  } catch {
    return false;
  }
}

/** Why `value` is not a valid `type` for Deno's FFI, or null when it is. */
export function typeMismatch(type: Deno.NativeType | "void", value: unknown): string | null {
  if (type === "void") return value === undefined ? null : "a value returned from a void function";
  if (typeof type === "object") {
    const size = nativeSize(type);
    return ArrayBuffer.isView(value) && value.byteLength === size ? null : `not a ${size}-byte struct buffer`;
  }
  if (type in INT_RANGE) {
    const [min, max] = INT_RANGE[type];
    return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max
      ? null
      : `${String(value)} is not a ${type}`;
  }
  if (type in BIG_RANGE) {
    const [min, max] = BIG_RANGE[type];
    const big = typeof value === "bigint"
      ? value
      : typeof value === "number" && Number.isSafeInteger(value)
      ? BigInt(value)
      : null;
    return big !== null && big >= min && big <= max ? null : `${String(value)} is not a ${type}`;
  }
  switch (type) {
    case "f32":
    case "f64":
      return typeof value === "number" ? null : `${String(value)} is not a ${type}`;
    case "bool":
      return typeof value === "boolean" ? null : `${String(value)} is not a bool`;
    case "pointer":
    case "function":
      return isPointer(value) ? null : "not a pointer object or null";
    case "buffer":
      return value === null || ArrayBuffer.isView(value) || value instanceof ArrayBuffer
        ? null
        : "not a buffer (TypedArray, DataView or ArrayBuffer) or null";
  }
  return `unknown native type ${String(type)}`;
}

// deno-lint-ignore no-explicit-any
type AnyFunction = (...args: any[]) => unknown;

/**
 * Wraps scripted implementations as a symbol table of the same shape as `table`.
 *
 * @param impl function implementations and static values by symbol name; `null` for an
 *   optional symbol the fake OS lacks.
 */
export function checkedTable<S extends Deno.ForeignLibraryInterface>(
  tableName: string,
  table: S,
  impl: { [K in keyof S]?: unknown },
  heap: FakeHeap,
  calls: FakeCall[],
  unscripted: string[] = [],
): Deno.StaticForeignLibraryInterface<S> {
  const out: Record<string, unknown> = {};
  for (const [symbol, definition] of Object.entries(table)) {
    const given = (impl as Record<string, unknown>)[symbol];
    if ("type" in definition) {
      const problem = given === undefined ? "not scripted" : typeMismatch(definition.type, given);
      if (problem) throw new TypeError(`fake ${tableName}.${symbol}: static ${problem}`);
      out[symbol] = given;
      continue;
    }
    if (given === null) {
      if (!definition.optional) throw new TypeError(`fake ${tableName}.${symbol} is required by its table`);
      out[symbol] = null;
      continue;
    }
    const where = `${tableName}.${symbol}`;
    if (typeof given !== "function") unscripted.push(where);
    out[symbol] = (...args: unknown[]) => {
      calls.push({ table: tableName, symbol, args });
      if (args.length !== definition.parameters.length) {
        heap.fail(`${where}: called with ${args.length} arguments, declared ${definition.parameters.length}`);
      }
      definition.parameters.forEach((type, i) => {
        const problem = typeMismatch(type, args[i]);
        if (problem) heap.fail(`${where}: argument ${i + 1}: ${problem}`);
      });
      if (typeof given !== "function") heap.fail(`${where} is not scripted in the fake`);
      const run = () => {
        const result = (given as AnyFunction)(...args);
        const problem = typeMismatch(definition.result, result);
        if (problem) throw new TypeError(`fake ${where} returned ${problem}`);
        return result;
      };
      if (!definition.nonblocking) return run();
      // A nonblocking symbol answers through a Promise, as Deno's worker-thread call does.
      return new Promise((resolve, reject) =>
        queueMicrotask(() => {
          try {
            resolve(run());
          } catch (error) {
            reject(error);
          }
        })
      );
    };
  }
  return out as Deno.StaticForeignLibraryInterface<S>;
}
