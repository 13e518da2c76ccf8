/**
 * The daemon's local endpoint on Windows: a named pipe (`\\.\pipe\cua-driver-<user>`),
 * served by node:net, whose DACL the daemon replaces right after listening with full
 * access for its own user only (pipe_security.ts). As a second lock, every connection
 * must first present a secret the daemon keeps in a file in the user's own cache
 * directory (which only the user and administrators can read); the daemon drops a
 * connection whose first line is not the secret.
 *
 * @module
 */
import net from "node:net";
import { DriverError } from "../../ports/errors.ts";
import type { LocalConnection, LocalListener, LocalSockets } from "../../ports/system.ts";
import { restrictPipeToUser } from "./pipe_security.ts";

/** `%LOCALAPPDATA%\cua-driver`. */
export function windowsCacheDir(): string {
  const base = Deno.env.get("LOCALAPPDATA") ??
    `${Deno.env.get("USERPROFILE") ?? "C:\\Users\\Default"}\\AppData\\Local`;
  return `${base}\\cua-driver`;
}

function secretPath(address: string): string {
  return `${windowsCacheDir()}\\${address.replace(/^.*[\\/]/, "")}.secret`;
}

/** `%LOCALAPPDATA%\cua-driver\<pipe name>.pid`: the pipe namespace holds no files. */
function pidPath(address: string): string {
  return `${windowsCacheDir()}\\${address.replace(/^.*[\\/]/, "")}.pid`;
}

/** Adapts a node:net socket to {@linkcode LocalConnection}, starting after `skip` bytes already consumed. */
function adapt(socket: net.Socket, leftover: Uint8Array = new Uint8Array(0)): LocalConnection {
  const readable = new ReadableStream<Uint8Array>({
    start(controller) {
      if (leftover.length) controller.enqueue(leftover);
      socket.on("data", (chunk: Uint8Array) => controller.enqueue(new Uint8Array(chunk)));
      socket.on("end", () => {
        try {
          controller.close();
        } catch {
          // Already closed.
        }
      });
      socket.on("error", (error) => {
        try {
          controller.error(error);
        } catch {
          // Already errored.
        }
      });
    },
    cancel() {
      socket.destroy();
    },
  });
  const writable = new WritableStream<Uint8Array>({
    write: (chunk) => new Promise((resolve, reject) => socket.write(chunk, (e) => e ? reject(e) : resolve())),
    close: () => new Promise((resolve) => socket.end(resolve)),
  });
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  let pending: Uint8Array = new Uint8Array(0);
  return {
    readable,
    writable,
    async read(buffer) {
      if (!pending.length) {
        reader ??= readable.getReader();
        const { value, done } = await reader.read();
        if (done || !value) return null;
        pending = value;
      }
      const n = Math.min(buffer.length, pending.length);
      buffer.set(pending.subarray(0, n));
      pending = pending.subarray(n);
      return n;
    },
    write: (data) =>
      new Promise((resolve, reject) => socket.write(data, (e) => e ? reject(e) : resolve(data.length))),
    close: () => socket.destroy(),
  };
}

/** Reads the first line of a socket; resolves with it and whatever followed. */
function firstLine(socket: net.Socket, timeoutMs = 10_000): Promise<{ line: string; rest: Uint8Array }> {
  return new Promise((resolve, reject) => {
    let buffered = new Uint8Array(0);
    // A peer that sends nothing is dropped after timeoutMs of the daemon's own attention: when the timer fires
    // late, the event loop was busy (loading a back end under load) and the secret may be waiting unread, so
    // the wait starts over instead of dropping a client that did everything right.
    let due = performance.now() + timeoutMs;
    const expire = () => {
      if (performance.now() - due > 1_000) {
        due = performance.now() + timeoutMs;
        timer = setTimeout(expire, timeoutMs);
      } else finish(new Error("no handshake"));
    };
    let timer = setTimeout(expire, timeoutMs);
    const onData = (chunk: Uint8Array) => {
      const joined = new Uint8Array(buffered.length + chunk.length);
      joined.set(buffered);
      joined.set(chunk, buffered.length);
      buffered = joined;
      const newline = buffered.indexOf(10);
      if (newline >= 0) finish(null, newline);
      else if (buffered.length > 1024) finish(new Error("handshake too long"));
    };
    const finish = (error: Error | null, newline = -1) => {
      clearTimeout(timer);
      socket.off("data", onData);
      socket.pause();
      if (error) reject(error);
      else {resolve({
          line: new TextDecoder().decode(buffered.subarray(0, newline)),
          rest: buffered.subarray(newline + 1),
        });}
    };
    socket.on("data", onData);
  });
}

/** Named pipes as {@linkcode LocalSockets}. */
export class NamedPipes implements LocalSockets {
  defaultAddress(): string {
    const user = (Deno.env.get("USERNAME") ?? "user").replace(/[^A-Za-z0-9_.-]/g, "_");
    return `\\\\.\\pipe\\cua-driver-${user}`;
  }

  async listen(address: string): Promise<LocalListener> {
    if (await this.#answers(address)) {
      throw new DriverError("daemon_unavailable", `A daemon is already running on ${address}`, {
        socket: address,
        hint: "stop it first (cua-driver stop), or pass --socket with another pipe name",
      });
    }
    const secret = crypto.randomUUID();
    await Deno.mkdir(windowsCacheDir(), { recursive: true });
    await Deno.writeTextFile(secretPath(address), secret);
    const server = net.createServer();
    const queue: LocalConnection[] = [];
    const waiters: ((connection: LocalConnection) => void)[] = [];
    server.on("connection", (socket: net.Socket) => {
      firstLine(socket).then(({ line, rest }) => {
        if (line !== secret) {
          socket.destroy();
          return;
        }
        socket.resume();
        const connection = adapt(socket, rest);
        const waiter = waiters.shift();
        if (waiter) waiter(connection);
        else queue.push(connection);
      }, () => socket.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once(
        "error",
        (error) =>
          reject(
            new DriverError("daemon_unavailable", `Cannot listen on ${address}: ${error.message}`, {
              hint: "another program owns that pipe name; pass --socket with another name",
            }),
          ),
      );
      server.listen(address, () => resolve());
    });
    // Only the driver's user may open the pipe at all (the secret stays the second lock).
    restrictPipeToUser(address);
    let closed = false;
    const accept = () =>
      queue.length
        ? Promise.resolve(queue.shift()!)
        : new Promise<LocalConnection>((resolve) => waiters.push(resolve));
    return {
      address,
      accept,
      close() {
        if (closed) return;
        closed = true;
        server.close();
        Deno.removeSync(secretPath(address));
      },
      async *[Symbol.asyncIterator]() {
        while (!closed) yield await accept();
      },
    };
  }

  async connect(address: string): Promise<LocalConnection> {
    let secret: string;
    try {
      secret = await Deno.readTextFile(secretPath(address));
    } catch {
      throw notRunning(address);
    }
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect(address);
      s.once("connect", () => resolve(s));
      s.once("error", () => reject(notRunning(address)));
    });
    socket.write(`${secret}\n`);
    return adapt(socket);
  }

  pidFile(address: string): string {
    return pidPath(address);
  }

  exists(address: string): boolean {
    try {
      Deno.statSync(secretPath(address));
      return true;
    } catch {
      return false;
    }
  }

  async #answers(address: string): Promise<boolean> {
    return await new Promise((resolve) => {
      const s = net.connect(address);
      s.once("connect", () => {
        s.destroy();
        resolve(true);
      });
      s.once("error", () => resolve(false));
    });
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
