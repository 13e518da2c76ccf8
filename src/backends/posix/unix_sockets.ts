/**
 * Local endpoints on Linux and macOS: Unix domain sockets. The socket is created mode
 * 0600 inside a 0700 directory, so only its owner can connect; a client refuses a socket
 * another user owns.
 *
 * @module
 */
import { dirname, join } from "../../lib/file_paths.ts";
import { DriverError } from "../../ports/errors.ts";
import type { LocalConnection, LocalListener, LocalSockets } from "../../ports/system.ts";

/** The driver's cache directory: `$XDG_CACHE_HOME/cua-driver` or `~/.cache/cua-driver` (contract.md §5.3). */
export function posixCacheDir(): string {
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  const home = Deno.env.get("HOME") ?? "/tmp";
  return join(xdg && xdg.startsWith("/") ? xdg : join(home, ".cache"), "cua-driver");
}

async function answers(path: string): Promise<boolean> {
  try {
    (await Deno.connect({ transport: "unix", path })).close();
    return true;
  } catch {
    return false;
  }
}

/** Unix domain sockets as {@linkcode LocalSockets}. */
export class UnixSockets implements LocalSockets {
  /** `cua-driver.sock` in the cache directory. */
  defaultAddress(): string {
    return join(posixCacheDir(), "cua-driver.sock");
  }

  /**
   * Listens on a socket path, replacing a stale socket file.
   *
   * @throws {DriverError} `daemon_unavailable` when something already answers there.
   */
  async listen(address: string): Promise<LocalListener> {
    await Deno.mkdir(dirname(address), { recursive: true, mode: 0o700 });
    if (await answers(address)) {
      throw new DriverError("daemon_unavailable", `A daemon is already running on ${address}`, {
        socket: address,
        hint: "stop it first (cua-driver stop), or pass --socket with another path",
      });
    }
    await Deno.remove(address).catch(() => {}); // A stale socket file from a crashed daemon.
    const listener = Deno.listen({ transport: "unix", path: address });
    await Deno.chmod(address, 0o600);
    let closed = false;
    return {
      address,
      accept: () => listener.accept(),
      close() {
        if (closed) return;
        closed = true;
        listener.close();
        try {
          Deno.removeSync(address);
        } catch {
          // Already gone.
        }
      },
      [Symbol.asyncIterator]: () => listener[Symbol.asyncIterator](),
    };
  }

  /**
   * Connects to a socket path.
   *
   * @throws {DriverError} `daemon_unavailable` when nothing listens; `permission_denied` for
   *   another user's socket.
   */
  async connect(address: string): Promise<LocalConnection> {
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(address);
    } catch {
      throw notRunning(address);
    }
    const uid = Deno.uid();
    if (uid !== null && info.uid !== null && info.uid !== uid) {
      throw new DriverError(
        "permission_denied",
        `The daemon socket ${address} belongs to uid ${info.uid}, not to you (uid ${uid})`,
        { hint: "start your own daemon with cua-driver serve, or pass --socket with your socket" },
      );
    }
    try {
      return await Deno.connect({ transport: "unix", path: address });
    } catch {
      throw notRunning(address);
    }
  }

  /** True when a socket file exists at the path. */
  exists(address: string): boolean {
    try {
      return Deno.statSync(address).isSocket === true;
    } catch {
      return false;
    }
  }
}

function notRunning(address: string): DriverError {
  return new DriverError(
    "daemon_unavailable",
    `The cua-driver daemon is not running (no daemon on ${address})`,
    {
      socket: address,
      hint: "start it with cua-driver serve",
    },
  );
}
