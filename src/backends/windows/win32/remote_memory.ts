/**
 * A scratch buffer inside another process, for the common-control messages whose
 * lParam is a pointer (TVM_GETITEMW, LVM_GETITEMTEXTW, TCM_GETITEMRECT, ...): Windows
 * marshals WM_GETTEXT across processes but not these, so the struct and its text buffer
 * must live in the control's own address space (the technique pywinauto's RemoteMemoryBlock
 * uses). Allocated with VirtualAllocEx, filled and read with Write/ReadProcessMemory.
 *
 * The structs written here are the 64-bit layouts, so a 32-bit (WOW64) process is not
 * opened: {@linkcode RemoteBuffer.open} answers null for it, as for a process the driver
 * may not open (another user, a higher integrity level).
 *
 * @module
 */
import { kernel32, MEM, PAGE_READWRITE, PROCESS } from "../../../../ffi/windows/kernel32.ts";

/** A buffer in another process; released (VirtualFreeEx, CloseHandle) on dispose. */
export class RemoteBuffer implements Disposable {
  #process: Deno.PointerValue;
  #base: Deno.PointerValue;

  private constructor(process: Deno.PointerValue, base: Deno.PointerValue, readonly size: number) {
    this.#process = process;
    this.#base = base;
  }

  /**
   * Allocates `size` bytes in process `pid`.
   *
   * @returns null when the process cannot be opened for memory access, is 32-bit, or the
   *   allocation fails.
   */
  static open(pid: number, size: number): RemoteBuffer | null {
    const process = kernel32.symbols.OpenProcess(
      PROCESS.VM_OPERATION | PROCESS.VM_READ | PROCESS.VM_WRITE | PROCESS.QUERY_INFORMATION,
      0,
      pid,
    );
    if (!process) return null;
    const wow64 = new Int32Array(1);
    if (!kernel32.symbols.IsWow64Process(process, wow64) || wow64[0] !== 0) {
      kernel32.symbols.CloseHandle(process);
      return null;
    }
    const base = kernel32.symbols.VirtualAllocEx(
      process,
      null,
      BigInt(size),
      MEM.COMMIT | MEM.RESERVE,
      PAGE_READWRITE,
    );
    if (!base) {
      kernel32.symbols.CloseHandle(process);
      return null;
    }
    return new RemoteBuffer(process, base, size);
  }

  /** The buffer's address in the other process (an lParam). */
  get address(): bigint {
    return BigInt(Deno.UnsafePointer.value(this.#base));
  }

  /** Writes `bytes` at `offset`; false when the write failed. */
  write(bytes: Uint8Array<ArrayBuffer>, offset = 0): boolean {
    const written = new BigUint64Array(1);
    // UNSAFE: offset + bytes.length <= size, checked here; the region stays committed until dispose.
    if (offset + bytes.length > this.size) return false;
    const at = Deno.UnsafePointer.create(this.address + BigInt(offset));
    return kernel32.symbols.WriteProcessMemory(this.#process, at, bytes, BigInt(bytes.length), written) !== 0;
  }

  /** Reads `length` bytes at `offset`; null when the read failed. */
  read(length: number, offset = 0): Uint8Array<ArrayBuffer> | null {
    if (offset + length > this.size) return null;
    const out = new Uint8Array(length);
    const got = new BigUint64Array(1);
    const at = Deno.UnsafePointer.create(this.address + BigInt(offset));
    return kernel32.symbols.ReadProcessMemory(this.#process, at, out, BigInt(length), got) ? out : null;
  }

  /** Reads a NUL-terminated UTF-16 string of at most `units` code units at `offset`. */
  readWide(offset: number, units: number): string | null {
    const bytes = this.read(units * 2, offset);
    if (!bytes) return null;
    const view = new Uint16Array(bytes.buffer);
    const end = view.indexOf(0);
    return String.fromCharCode(...view.subarray(0, end < 0 ? view.length : end));
  }

  [Symbol.dispose](): void {
    if (!this.#process) return;
    kernel32.symbols.VirtualFreeEx(this.#process, this.#base, 0n, MEM.RELEASE);
    kernel32.symbols.CloseHandle(this.#process);
    this.#process = null;
  }
}
