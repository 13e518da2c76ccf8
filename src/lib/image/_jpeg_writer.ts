/**
 * Byte and bit output for the JPEG encoder: marker segments and the entropy-coded
 * segment with 0xFF byte stuffing.
 *
 * @module
 */
import { type HuffmanSpec, ZIGZAG } from "./_jpeg_tables.ts";

/** A growable buffer that writes JPEG markers and Huffman bits. */
export class JpegBitWriter {
  #buffer: Uint8Array;
  #at = 0;
  #accumulator = 0;
  #pending = 0; // bits held in #accumulator

  /** @param capacity Initial size in bytes; grows as needed. */
  constructor(capacity: number) {
    this.#buffer = new Uint8Array(capacity);
  }

  /** Makes room for `bytes` more bytes; call before a run of {@linkcode bits}. */
  reserve(bytes: number): void {
    if (this.#at + bytes <= this.#buffer.length) return;
    const grown = new Uint8Array(Math.max(this.#buffer.length * 2, this.#at + bytes));
    grown.set(this.#buffer.subarray(0, this.#at));
    this.#buffer = grown;
  }

  #byte(value: number): void {
    this.#buffer[this.#at++] = value;
  }

  #u16(value: number): void {
    this.#buffer[this.#at++] = value >> 8;
    this.#buffer[this.#at++] = value & 0xff;
  }

  /**
   * Appends the low `size` bits of `value` (size 1-16), most significant first, stuffing a
   * zero after each 0xFF. Space must have been reserved.
   */
  bits(value: number, size: number): void {
    let pending = this.#pending + size;
    const accumulator = (this.#accumulator << size) | (value & ((1 << size) - 1));
    while (pending >= 8) {
      pending -= 8;
      const b = (accumulator >>> pending) & 0xff;
      this.#buffer[this.#at++] = b;
      if (b === 0xff) this.#buffer[this.#at++] = 0;
    }
    this.#accumulator = accumulator & ((1 << pending) - 1);
    this.#pending = pending;
  }

  /**
   * Writes SOI, APP0 (JFIF 1.01), DQT, SOF0 (Y 2x2, Cb 1x1, Cr 1x1), DHT and SOS.
   *
   * @param width Image width.
   * @param height Image height.
   * @param luma Luminance quantisation table, natural order.
   * @param chroma Chrominance quantisation table, natural order.
   * @param tables Huffman tables: luma DC, luma AC, chroma DC, chroma AC.
   */
  headers(width: number, height: number, luma: Uint8Array, chroma: Uint8Array, tables: HuffmanSpec[]): void {
    this.reserve(1024);
    this.#u16(0xffd8); // SOI
    this.#u16(0xffe0); // APP0
    this.#u16(16);
    // "JFIF\0", version 1.01, no density units, aspect 1:1, no thumbnail
    for (const b of [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]) this.#byte(b);
    this.#u16(0xffdb); // DQT
    this.#u16(2 + 65 * 2);
    for (const [id, table] of [[0, luma], [1, chroma]] as const) {
      this.#byte(id);
      for (let i = 0; i < 64; i++) this.#byte(table[ZIGZAG[i]]);
    }
    this.#u16(0xffc0); // SOF0
    this.#u16(8 + 3 * 3);
    this.#byte(8);
    this.#u16(height);
    this.#u16(width);
    this.#byte(3);
    for (const [id, sampling, table] of [[1, 0x22, 0], [2, 0x11, 1], [3, 0x11, 1]]) {
      this.#byte(id), this.#byte(sampling), this.#byte(table);
    }
    this.#u16(0xffc4); // DHT
    this.#u16(2 + tables.reduce((n, t) => n + 17 + t.symbols.length, 0));
    const classes = [0x00, 0x10, 0x01, 0x11]; // (class << 4) | id
    tables.forEach((table, i) => {
      this.#byte(classes[i]);
      for (const count of table.counts) this.#byte(count);
      for (const symbol of table.symbols) this.#byte(symbol);
    });
    this.#u16(0xffda); // SOS
    this.#u16(6 + 2 * 3);
    this.#byte(3);
    for (const [id, tables] of [[1, 0x00], [2, 0x11], [3, 0x11]]) this.#byte(id), this.#byte(tables);
    this.#byte(0), this.#byte(63), this.#byte(0); // spectral selection 0-63, no approximation
  }

  /** Pads the last byte with 1 bits, writes EOI and returns the file. */
  finish(): Uint8Array {
    this.reserve(8);
    if (this.#pending > 0) this.bits(0x7f, 8 - this.#pending);
    this.#u16(0xffd9); // EOI
    return this.#buffer.slice(0, this.#at);
  }
}
