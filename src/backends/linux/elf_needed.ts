/**
 * The shared libraries an ELF executable asks for by name (its DT_NEEDED entries), read from
 * the file without running or loading it. The launch guard uses them to tell a program that
 * opens windows (it needs libX11, libxcb, GTK, Qt, Wayland ...) from one that does not.
 *
 * Only the program headers, the dynamic segment and its string table are read, so a large
 * binary (Chromium) costs a few small reads.
 *
 * @module
 */

/** ELF's magic number, `\x7fELF`. */
export const ELF_MAGIC = [0x7f, 0x45, 0x4c, 0x46] as const;

const PT_LOAD = 1;
const PT_DYNAMIC = 2;
const DT_NULL = 0n;
const DT_NEEDED = 1n;
const DT_STRTAB = 5n;
/** A dynamic segment or string table larger than this is not one a real program has. */
const MAX_TABLE = 1 << 20;

function readAt(file: Deno.FsFile, offset: number, length: number): Uint8Array {
  const buffer = new Uint8Array(length);
  file.seekSync(offset, Deno.SeekMode.Start);
  let filled = 0;
  while (filled < length) {
    const n = file.readSync(buffer.subarray(filled));
    if (n === null || n === 0) break;
    filled += n;
  }
  return buffer.subarray(0, filled);
}

/** True when the bytes start with ELF's magic number. */
export function isElf(bytes: Uint8Array): boolean {
  return ELF_MAGIC.every((b, i) => bytes[i] === b);
}

/**
 * The DT_NEEDED names of an ELF file (`["libgtk-3.so.0", "libc.so.6", ...]`).
 *
 * @returns The names, `[]` for a static ELF file, or null when the file is not an ELF file
 *   (a script, a directory) or cannot be read.
 */
export function elfNeeded(path: string): string[] | null {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch {
    return null;
  }
  try {
    return parse(file);
  } catch {
    return null;
  } finally {
    file.close();
  }
}

function parse(file: Deno.FsFile): string[] | null {
  const header = readAt(file, 0, 64);
  if (header.length < 52 || !isElf(header)) return null;
  const wide = header[4] === 2;
  const little = header[5] === 1;
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const word = (v: DataView, at: number) =>
    wide ? Number(v.getBigUint64(at, little)) : v.getUint32(at, little);
  const phoff = word(view, wide ? 0x20 : 0x1c);
  const phentsize = view.getUint16(wide ? 0x36 : 0x2a, little);
  const phnum = view.getUint16(wide ? 0x38 : 0x2c, little);
  if (phnum === 0 || phentsize < (wide ? 56 : 32) || phnum > 256) return null;
  const table = readAt(file, phoff, phentsize * phnum);
  const ph = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const loads: { vaddr: number; offset: number; size: number }[] = [];
  let dynamic: { offset: number; size: number } | null = null;
  for (let i = 0; i < phnum; i++) {
    const at = i * phentsize;
    if (at + phentsize > table.length) break;
    const type = ph.getUint32(at, little);
    const offset = word(ph, at + (wide ? 8 : 4));
    const vaddr = word(ph, at + (wide ? 16 : 8));
    const size = word(ph, at + (wide ? 32 : 16));
    if (type === PT_LOAD) loads.push({ vaddr, offset, size });
    else if (type === PT_DYNAMIC) dynamic = { offset, size };
  }
  if (dynamic === null) return [];
  const bytes = readAt(file, dynamic.offset, Math.min(dynamic.size, MAX_TABLE));
  const dyn = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entrySize = wide ? 16 : 8;
  const needed: number[] = [];
  let strtab: number | null = null;
  for (let at = 0; at + entrySize <= bytes.length; at += entrySize) {
    const tag = wide ? dyn.getBigInt64(at, little) : BigInt(dyn.getInt32(at, little));
    const value = wide ? Number(dyn.getBigUint64(at + 8, little)) : dyn.getUint32(at + 4, little);
    if (tag === DT_NULL) break;
    if (tag === DT_NEEDED) needed.push(value);
    else if (tag === DT_STRTAB) strtab = value;
  }
  if (strtab === null) return needed.length === 0 ? [] : null;
  const load = loads.find((l) => strtab! >= l.vaddr && strtab! < l.vaddr + l.size);
  const strOffset = load === undefined ? strtab : strtab - load.vaddr + load.offset;
  const decoder = new TextDecoder();
  return needed.map((index) => {
    const chunk = readAt(file, strOffset + index, 256);
    const end = chunk.indexOf(0);
    return decoder.decode(end < 0 ? chunk : chunk.subarray(0, end));
  });
}
