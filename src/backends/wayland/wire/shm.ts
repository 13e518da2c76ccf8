/**
 * Anonymous shared memory (memfd) the compositor writes captures into or reads keymaps from,
 * and pipes for clipboard transfers: the descriptors the wire passes.
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";
import { errno, FD, unixFd } from "../../../../ffi/linux/unix_fd.ts";

/** A mapped memfd. Close it when done (unmaps and closes the descriptor). */
export class SharedMemory {
  #closed = false;
  private constructor(
    readonly fd: number,
    readonly size: number,
    readonly pointer: Deno.PointerObject,
    /** The mapping itself (no copy): valid until {@linkcode close}. */
    readonly bytes: Uint8Array,
  ) {}

  /**
   * A new memfd of `size` bytes, mapped shared read-write.
   *
   * @throws {DriverError} `native_call_failed` when the kernel refuses.
   */
  static create(size: number, name = "cua-driver"): SharedMemory {
    const lib = unixFd.symbols;
    const fd = lib.memfd_create(new TextEncoder().encode(`${name}\0`), FD.MFD_CLOEXEC);
    if (fd < 0) throw new DriverError("native_call_failed", `memfd_create() failed (errno ${errno()})`);
    if (lib.ftruncate(fd, BigInt(size)) !== 0) {
      const code = errno();
      lib.close(fd);
      throw new DriverError("native_call_failed", `ftruncate(${size}) failed (errno ${code})`);
    }
    const pointer = lib.mmap(null, BigInt(size), FD.PROT_READ_WRITE, FD.MAP_SHARED, fd, 0n);
    if (!pointer || Deno.UnsafePointer.value(pointer) === 0xffffffffffffffffn) {
      const code = errno();
      lib.close(fd);
      throw new DriverError("native_call_failed", `mmap(${size}) failed (errno ${code})`);
    }
    const bytes = new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(pointer, size));
    return new SharedMemory(fd, size, pointer, bytes);
  }

  /** Unmaps and closes. Idempotent; {@linkcode bytes} must not be used afterwards. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    unixFd.symbols.munmap(this.pointer, BigInt(this.size));
    unixFd.symbols.close(this.fd);
  }
}

/** A pipe's two ends (close-on-exec). */
export function pipe(): { read: number; write: number } {
  const fds = new Int32Array(2);
  if (unixFd.symbols.pipe2(new Uint8Array(fds.buffer), FD.O_CLOEXEC) !== 0) {
    throw new DriverError("native_call_failed", `pipe2() failed (errno ${errno()})`);
  }
  return { read: fds[0], write: fds[1] };
}

/** Writes all of `bytes` to `fd` (blocking). */
export function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) {
    const chunk = bytes.subarray(offset);
    const written = Number(unixFd.symbols.write(fd, chunk, BigInt(chunk.length)));
    if (written < 0) {
      if (errno() === FD.EINTR) continue;
      throw new DriverError("native_call_failed", `write() failed (errno ${errno()})`);
    }
    offset += written;
  }
}

/** Closes a descriptor. */
export function closeFd(fd: number): void {
  if (fd >= 0) unixFd.symbols.close(fd);
}
