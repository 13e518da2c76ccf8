/**
 * Where the driver keeps its files on this machine: the cache directory (daemon
 * socket, pid file, the update-check cache) (contract.md §5.3).
 *
 * @module
 */
import { join } from "node:path";

/** The cache directory of the driver: `$XDG_CACHE_HOME/cua-driver` or `~/.cache/cua-driver`. */
export function cacheDir(): string {
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  const home = Deno.env.get("HOME") ?? "/tmp";
  return join(xdg && xdg.startsWith("/") ? xdg : join(home, ".cache"), "cua-driver");
}

/** Default daemon socket path: `$CUA_DRIVER_SOCKET`, else `cua-driver.sock` in the cache directory. */
export function defaultSocketPath(): string {
  return Deno.env.get("CUA_DRIVER_SOCKET") ?? join(cacheDir(), "cua-driver.sock");
}
