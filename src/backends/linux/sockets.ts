/**
 * The daemon's local socket on Linux: a Unix socket in the cache directory. The entry a daemon
 * client loads, without the rest of the Linux code.
 *
 * @module
 */
import { UnixSockets } from "../posix/unix_sockets.ts";
import type { LocalSockets } from "../../ports/system.ts";

/** Unix sockets with the XDG default address. */
export function createLinuxSockets(): LocalSockets {
  return new UnixSockets();
}
