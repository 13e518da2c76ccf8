/**
 * A growable little-endian buffer for marshalling D-Bus data.
 *
 * @module
 */

const UTF8 = new TextEncoder();

/**
 * Appends aligned primitives. Alignment is relative to `base`, the start of the
 * message being written, so several messages can share one buffer.
 */
export class Writer {
  bytes: Uint8Array;
  view: DataView;
  /** Offset of the current message start, the origin for alignment. */
  base = 0;
  /** Write offset. */
  pos = 0;

  constructor(capacity = 4096) {
    this.bytes = new Uint8Array(capacity);
    this.view = new DataView(this.bytes.buffer);
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    const need = this.pos + n;
    if (need <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < need) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.pos));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }

  /** Writes zero padding up to the next multiple of `n` (a power of two). */
  align(n: number): void {
    const rel = this.pos - this.base;
    const pad = ((rel + n - 1) & ~(n - 1)) - rel;
    if (pad === 0) return;
    this.ensure(pad);
    this.bytes.fill(0, this.pos, this.pos + pad);
    this.pos += pad;
  }

  byte(v: number): void {
    this.ensure(1);
    this.bytes[this.pos++] = v;
  }
  int16(v: number): void {
    this.align(2);
    this.ensure(2);
    this.view.setInt16(this.pos, v, true);
    this.pos += 2;
  }
  uint16(v: number): void {
    this.align(2);
    this.ensure(2);
    this.view.setUint16(this.pos, v, true);
    this.pos += 2;
  }
  int32(v: number): void {
    this.align(4);
    this.ensure(4);
    this.view.setInt32(this.pos, v, true);
    this.pos += 4;
  }
  uint32(v: number): void {
    this.align(4);
    this.ensure(4);
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
  }
  int64(v: bigint): void {
    this.align(8);
    this.ensure(8);
    this.view.setBigInt64(this.pos, v, true);
    this.pos += 8;
  }
  uint64(v: bigint): void {
    this.align(8);
    this.ensure(8);
    this.view.setBigUint64(this.pos, v, true);
    this.pos += 8;
  }
  double(v: number): void {
    this.align(8);
    this.ensure(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  /** A `s` or `o`: u32 length, UTF-8 bytes, NUL. */
  string(s: string): void {
    this.align(4);
    this.ensure(4 + s.length * 3 + 1);
    const at = this.pos;
    const length = this.#text(s, at + 4);
    this.view.setUint32(at, length, true);
    this.pos = at + 4 + length;
    this.bytes[this.pos++] = 0;
  }

  /** A `g`: u8 length, bytes, NUL. */
  signature(s: string): void {
    this.ensure(1 + s.length + 1);
    const at = this.pos;
    const length = this.#text(s, at + 1);
    if (length > 255) throw new RangeError(`Signature is longer than 255 bytes: "${s}"`);
    this.bytes[at] = length;
    this.pos = at + 1 + length;
    this.bytes[this.pos++] = 0;
  }

  /** Raw bytes. */
  put(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.bytes.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** Writes `s` as UTF-8 at `at` (capacity already ensured); returns the byte length. */
  #text(s: string, at: number): number {
    const bytes = this.bytes;
    const n = s.length;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === 0) throw new TypeError("D-Bus strings cannot contain NUL characters");
      if (c >= 0x80) {
        if (s.includes("\0", i)) throw new TypeError("D-Bus strings cannot contain NUL characters");
        return UTF8.encodeInto(s, bytes.subarray(at)).written;
      }
      bytes[at + i] = c;
    }
    return n;
  }
}
