/**
 * Signature-driven marshalling: each type compiles once into a read and a write function.
 *
 * JS shapes: `y n q i u d` are numbers, `b` a boolean, `x t` bigints (numbers are
 * accepted when writing), `s o g` strings, arrays are arrays (`ay` a Uint8Array),
 * structs are arrays of their fields, `a{..}` a Map (a plain object is accepted when
 * writing), `v` a {@linkcode Variant}. Unix fds (`h`) travel as their u32 index.
 *
 * @module
 */
import { alignmentOf, type DBusType, parseSignature } from "./signature.ts";
import { MarshalError, type Reader } from "./reader.ts";
import type { Writer } from "./writer.ts";
import { isVariant, type Variant } from "./variant.ts";

/** Compiled marshaller for one complete type. */
export interface Codec {
  readonly align: number;
  read(r: Reader): unknown;
  write(w: Writer, value: unknown): void;
}

/** Compiled marshaller for a whole signature (a message body). */
export interface BodyCodec {
  readonly signature: string;
  read(r: Reader): unknown[];
  write(w: Writer, values: readonly unknown[]): void;
}

/** Largest array the spec allows (64 MiB). */
const MAX_ARRAY_BYTES = 64 * 1024 * 1024;

const typeCodecs = new Map<string, Codec>();
const bodyCodecs = new Map<string, BodyCodec>();

/**
 * The codec of a signature holding exactly one complete type (cached).
 *
 * @throws {TypeError} When the signature is malformed or holds more than one type.
 */
export function codecFor(signature: string): Codec {
  let codec = typeCodecs.get(signature);
  if (codec === undefined) {
    const types = parseSignature(signature);
    if (types.length !== 1) throw new TypeError(`Expected one complete type: "${signature}"`);
    codec = compile(types[0]);
    typeCodecs.set(signature, codec);
  }
  return codec;
}

/**
 * The codec of a message body signature (cached).
 *
 * @throws {TypeError} When the signature is malformed.
 */
export function bodyCodecFor(signature: string): BodyCodec {
  let codec = bodyCodecs.get(signature);
  if (codec === undefined) {
    const parts = parseSignature(signature).map(compile);
    codec = {
      signature,
      read(r) {
        const out = new Array(parts.length);
        for (let i = 0; i < parts.length; i++) out[i] = parts[i].read(r);
        return out;
      },
      write(w, values) {
        if (values.length !== parts.length) {
          throw new TypeError(`Signature "${signature}" needs ${parts.length} values, got ${values.length}`);
        }
        for (let i = 0; i < parts.length; i++) parts[i].write(w, values[i]);
      },
    };
    bodyCodecs.set(signature, codec);
  }
  return codec;
}

function compile(type: DBusType): Codec {
  switch (type.kind) {
    case "basic":
      return BASIC[type.code];
    case "variant":
      return VARIANT;
    case "struct":
      return structCodec(type.fields.map(compile));
    case "dict_entry":
      return structCodec([compile(type.key), compile(type.value)]);
    case "array":
      if (type.element.kind === "basic" && type.element.code === "y") return BYTE_ARRAY;
      if (type.element.kind === "dict_entry") {
        return dictCodec(compile(type.element.key), compile(type.element.value));
      }
      return arrayCodec(compile(type.element), alignmentOf(type.element));
  }
}

function int(value: unknown, min: number, max: number, code: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`Value ${String(value)} does not fit D-Bus type "${code}"`);
  }
  return value;
}

function big(value: unknown, code: string): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  throw new TypeError(`Value ${String(value)} does not fit D-Bus type "${code}"`);
}

function str(value: unknown, code: string): string {
  if (typeof value !== "string") throw new TypeError(`Value ${String(value)} is not a string for "${code}"`);
  return value;
}

const BASIC: Record<string, Codec> = {
  y: { align: 1, read: (r) => r.byte(), write: (w, v) => w.byte(int(v, 0, 255, "y")) },
  b: {
    align: 4,
    read: (r) => r.uint32() !== 0,
    write: (w, v) => {
      if (typeof v !== "boolean") throw new TypeError(`Value ${String(v)} is not a boolean for "b"`);
      w.uint32(v ? 1 : 0);
    },
  },
  n: { align: 2, read: (r) => r.int16(), write: (w, v) => w.int16(int(v, -0x8000, 0x7fff, "n")) },
  q: { align: 2, read: (r) => r.uint16(), write: (w, v) => w.uint16(int(v, 0, 0xffff, "q")) },
  i: { align: 4, read: (r) => r.int32(), write: (w, v) => w.int32(int(v, -0x80000000, 0x7fffffff, "i")) },
  u: { align: 4, read: (r) => r.uint32(), write: (w, v) => w.uint32(int(v, 0, 0xffffffff, "u")) },
  h: { align: 4, read: (r) => r.uint32(), write: (w, v) => w.uint32(int(v, 0, 0xffffffff, "h")) },
  x: { align: 8, read: (r) => r.int64(), write: (w, v) => w.int64(BigInt.asIntN(64, big(v, "x"))) },
  t: { align: 8, read: (r) => r.uint64(), write: (w, v) => w.uint64(BigInt.asUintN(64, big(v, "t"))) },
  d: {
    align: 8,
    read: (r) => r.double(),
    write: (w, v) => {
      if (typeof v !== "number") throw new TypeError(`Value ${String(v)} is not a number for "d"`);
      w.double(v);
    },
  },
  s: { align: 4, read: (r) => r.string(), write: (w, v) => w.string(str(v, "s")) },
  o: {
    align: 4,
    read: (r) => r.string(),
    write: (w, v) => {
      const path = str(v, "o");
      if (!path.startsWith("/")) throw new TypeError(`Object path must start with "/": "${path}"`);
      w.string(path);
    },
  },
  g: { align: 1, read: (r) => r.signature(), write: (w, v) => w.signature(str(v, "g")) },
};

const VARIANT: Codec = {
  align: 1,
  read(r): Variant {
    const signature = r.signature();
    return { signature, value: codecFor(signature).read(r) };
  },
  write(w, v) {
    if (!isVariant(v)) throw new TypeError(`Value ${String(v)} is not a variant ({ signature, value })`);
    const codec = codecFor(v.signature);
    w.signature(v.signature);
    codec.write(w, v.value);
  },
};

const BYTE_ARRAY: Codec = {
  align: 4,
  read(r) {
    const length = r.uint32();
    if (length > MAX_ARRAY_BYTES) throw new MarshalError(`Array of ${length} bytes is too long`);
    return r.take(length);
  },
  write(w, v) {
    const bytes = v instanceof Uint8Array ? v : Array.isArray(v) ? Uint8Array.from(v) : null;
    if (bytes === null) throw new TypeError(`Value ${String(v)} is not a byte array for "ay"`);
    w.uint32(bytes.length);
    w.put(bytes);
  },
};

function structCodec(fields: Codec[]): Codec {
  return {
    align: 8,
    read(r) {
      r.align(8);
      const out = new Array(fields.length);
      for (let i = 0; i < fields.length; i++) out[i] = fields[i].read(r);
      return out;
    },
    write(w, v) {
      if (!Array.isArray(v) || v.length !== fields.length) {
        throw new TypeError(`Struct needs an array of ${fields.length} fields`);
      }
      w.align(8);
      for (let i = 0; i < fields.length; i++) fields[i].write(w, v[i]);
    },
  };
}

/** Writes the u32 length, the element padding, then the elements; patches the length. */
function writeArray(w: Writer, elementAlign: number, writeElements: () => void): void {
  w.uint32(0);
  const lengthAt = w.pos - 4;
  w.align(elementAlign);
  const start = w.pos;
  writeElements();
  w.view.setUint32(lengthAt, w.pos - start, true);
}

/** Reads an array's length and padding; returns the offset past its last element. */
export function readArrayEnd(r: Reader, elementAlign: number): number {
  const length = r.uint32();
  if (length > MAX_ARRAY_BYTES) throw new MarshalError(`Array of ${length} bytes is too long`);
  r.align(elementAlign);
  const end = r.pos + length;
  if (end > r.end) throw new MarshalError("Message is truncated (array past the end)");
  return end;
}

function arrayCodec(element: Codec, elementAlign: number): Codec {
  return {
    align: 4,
    read(r) {
      const end = readArrayEnd(r, elementAlign);
      const out: unknown[] = [];
      while (r.pos < end) out.push(element.read(r));
      return out;
    },
    write(w, v) {
      if (!Array.isArray(v)) throw new TypeError(`Value ${String(v)} is not an array`);
      writeArray(w, elementAlign, () => {
        for (const item of v) element.write(w, item);
      });
    },
  };
}

function dictCodec(key: Codec, value: Codec): Codec {
  const numericKey = key !== BASIC.s && key !== BASIC.o && key !== BASIC.g;
  return {
    align: 4,
    read(r) {
      const end = readArrayEnd(r, 8);
      const out = new Map<unknown, unknown>();
      while (r.pos < end) {
        r.align(8);
        const k = key.read(r);
        out.set(k, value.read(r));
      }
      return out;
    },
    write(w, v) {
      let entries: Iterable<[unknown, unknown]>;
      if (v instanceof Map) entries = v.entries();
      else if (typeof v === "object" && v !== null && !Array.isArray(v)) {
        entries = Object.entries(v).map(([k, x]) => [numericKey ? Number(k) : k, x]);
      } else throw new TypeError(`Value ${String(v)} is not a Map or object for a dict`);
      writeArray(w, 8, () => {
        for (const [k, x] of entries) {
          w.align(8);
          key.write(w, k);
          value.write(w, x);
        }
      });
    },
  };
}
