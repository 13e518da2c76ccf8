/**
 * A cursor over marshalled D-Bus data: aligned primitive reads in either byte order.
 *
 * @module
 */

const UTF8 = new TextDecoder("utf-8", { fatal: false });

/** Thrown when marshalled data is truncated or inconsistent. */
export class MarshalError extends Error {
  override name = "MarshalError";
}

/**
 * Reads primitives from `bytes[base..end)`. Alignment is relative to `base`, which
 * must be the start of the message (D-Bus aligns against the message start).
 */
export class Reader {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  /** Offset of the message start, the origin for alignment. */
  base: number;
  /** Current read offset (absolute in `bytes`). */
  pos: number;
  /** First offset past the readable data. */
  end: number;
  /** Byte order of the data. */
  littleEndian: boolean;

  constructor(bytes: Uint8Array, littleEndian = true, base = 0, end = bytes.length) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.base = base;
    this.pos = base;
    this.end = end;
    this.littleEndian = littleEndian;
  }

  /** Skips padding up to the next multiple of `n` (a power of two). */
  align(n: number): void {
    const rel = this.pos - this.base;
    this.pos = this.base + ((rel + n - 1) & ~(n - 1));
    if (this.pos > this.end) throw new MarshalError("Message is truncated (alignment past the end)");
  }

  #need(n: number): number {
    const at = this.pos;
    if (at + n > this.end) throw new MarshalError(`Message is truncated (need ${n} bytes at ${at})`);
    this.pos = at + n;
    return at;
  }

  byte(): number {
    return this.bytes[this.#need(1)];
  }
  int16(): number {
    this.align(2);
    return this.view.getInt16(this.#need(2), this.littleEndian);
  }
  uint16(): number {
    this.align(2);
    return this.view.getUint16(this.#need(2), this.littleEndian);
  }
  int32(): number {
    this.align(4);
    return this.view.getInt32(this.#need(4), this.littleEndian);
  }
  uint32(): number {
    this.align(4);
    return this.view.getUint32(this.#need(4), this.littleEndian);
  }
  int64(): bigint {
    this.align(8);
    return this.view.getBigInt64(this.#need(8), this.littleEndian);
  }
  uint64(): bigint {
    this.align(8);
    return this.view.getBigUint64(this.#need(8), this.littleEndian);
  }
  double(): number {
    this.align(8);
    return this.view.getFloat64(this.#need(8), this.littleEndian);
  }

  /** A `s` or `o`: u32 length, UTF-8 bytes, NUL. */
  string(): string {
    const length = this.uint32();
    return this.#text(length);
  }

  /** Steps over a `s` or `o` without decoding it. */
  skipString(): void {
    const length = this.uint32();
    this.#need(length + 1);
  }

  /** A `g`: u8 length, bytes, NUL. */
  signature(): string {
    const length = this.byte();
    return this.#text(length);
  }

  /** Raw bytes (copied). */
  take(length: number): Uint8Array {
    const at = this.#need(length);
    return this.bytes.slice(at, at + length);
  }

  #text(length: number): string {
    const at = this.#need(length + 1);
    if (length === 0) return "";
    const bytes = this.bytes;
    // Short ASCII strings dominate (names, paths, roles): decoding them by hand avoids
    // the TextDecoder call overhead, which is most of the cost of a small message.
    if (length <= 64) {
      for (let i = at, stop = at + length; i < stop; i++) {
        if (bytes[i] >= 0x80) return UTF8.decode(bytes.subarray(at, at + length));
      }
      // One flat string at once (a character-by-character `+=` builds a rope to flatten later).
      return String.fromCharCode.apply(null, bytes.subarray(at, at + length) as unknown as number[]);
    }
    return UTF8.decode(bytes.subarray(at, at + length));
  }
}
