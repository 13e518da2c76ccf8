/**
 * The daemon's local socket on macOS: a Unix socket in `~/Library/Caches/cua-driver`
 * (contract.md §5.3). Its own module so that a daemon client loads nothing else of macOS.
 *
 * @module
 */
import { join } from "../../lib/file_paths.ts";
import { UnixSockets } from "../posix/unix_sockets.ts";

/** The driver's cache directory on macOS (contract.md §5.3): `~/Library/Caches/cua-driver`. */
export function darwinCacheDir(): string {
  return join(Deno.env.get("HOME") ?? "/tmp", "Library", "Caches", "cua-driver");
}

/** Unix sockets with the macOS default address. */
export class DarwinSockets extends UnixSockets {
  override defaultAddress(): string {
    return join(darwinCacheDir(), "cua-driver.sock");
  }
}
