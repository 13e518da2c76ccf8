/**
 * One TCP port for two HTTP versions: a `node:net` listener reads the first bytes
 * of each connection; the HTTP/2 connection preface (`PRI * HTTP/2.0`, cleartext
 * "prior knowledge" as gRPC clients send it) goes to a `node:http2` server, anything
 * else to a `node:http` server. Deno.serve cannot send gRPC trailers, so native gRPC
 * needs node:http2 (proved stable on Deno 2.9.3; 2.9.4 to 2.9.6 abort in nghttp2
 * when a grpc-js client disconnects, see shared/spikes/README.md).
 *
 * HTTP/1.1 connections are piped, one to one, to the `node:http` server listening
 * on a private loopback port: on Deno 2.9.3 a socket handed to `node:http` with
 * `emit("connection")` is closed after its first response despite keep-alive, and
 * clients reusing it fail ("connection closed before message completed"). That private
 * port serves only those pipes: any other connection to it (which would skip the
 * first-bytes timeout and the HTTP/2 settings) is closed.
 *
 * @module
 */
import type http from "node:http";
import type http2 from "node:http2";
import net from "node:net";

const PREFACE = "PRI * HTTP/2.0";
/** A connection that sends nothing for this long is closed. */
const FIRST_BYTES_TIMEOUT_MS = 30_000;
/** How long the private port waits to see that a connection is one of our pipes. */
const PIPE_MATCH_MS = 2_000;

/** A listening one-port server. */
export interface OnePortListener {
  readonly host: string;
  readonly port: number;
  /** The loopback port of the HTTP/1.1 server, which serves only the listener's own pipes. */
  readonly privatePort: number;
  /** Every open socket, for a forced close. */
  readonly sockets: ReadonlySet<net.Socket>;
  /** Stops accepting, destroys open connections and resolves when the port is free. */
  close(): Promise<void>;
}

/**
 * Listens on `host:port` (0 picks a free port) and hands each connection to `h1`
 * or `h2` by its first bytes.
 *
 * @throws {Error} the listen error (EADDRINUSE, EACCES, ...).
 */
export async function listenOnePort(
  host: string,
  port: number,
  h1: http.Server,
  h2: http2.Http2Server,
): Promise<OnePortListener> {
  const sockets = new Set<net.Socket>();
  await new Promise<void>((resolve, reject) => {
    h1.once("error", reject);
    h1.listen(0, "127.0.0.1", () => {
      h1.off("error", reject);
      resolve();
    });
  });
  const h1Port = (h1.address() as net.AddressInfo).port;
  // The private port's connections are matched to our pipes by port: the local port of a
  // pipe is the remote port the server sees. Either side may learn it first.
  const pipePorts = new Set<number>();
  const unmatched = new Map<number, net.Socket>();
  h1.on("connection", (socket: net.Socket) => {
    const port = socket.remotePort ?? -1;
    if (pipePorts.has(port)) return;
    unmatched.set(port, socket);
    const timer = setTimeout(() => {
      if (unmatched.get(port) === socket) {
        unmatched.delete(port);
        socket.destroy();
      }
    }, PIPE_MATCH_MS);
    socket.once("close", () => {
      clearTimeout(timer);
      if (unmatched.get(port) === socket) unmatched.delete(port);
    });
  });
  const pipeToH1 = (socket: net.Socket) => {
    const inner = net.connect(h1Port, "127.0.0.1");
    sockets.add(inner);
    let pipePort = -1;
    inner.once("connect", () => {
      pipePort = inner.localPort ?? -1;
      pipePorts.add(pipePort);
      unmatched.delete(pipePort);
    });
    inner.on("close", () => {
      pipePorts.delete(pipePort);
      sockets.delete(inner);
      socket.destroy();
    });
    inner.on("error", () => socket.destroy());
    socket.on("close", () => inner.destroy());
    socket.pipe(inner);
    inner.pipe(socket);
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.setTimeout(FIRST_BYTES_TIMEOUT_MS, () => socket.destroy());
    socket.once("data", (first: Uint8Array) => {
      socket.setTimeout(0);
      socket.pause();
      socket.unshift(first);
      const head = new TextDecoder("latin1").decode(first.subarray(0, PREFACE.length));
      if (head === PREFACE) h2.emit("connection", socket);
      else pipeToH1(socket);
      socket.resume();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as net.AddressInfo;
  let closing: Promise<void> | null = null;
  return {
    host,
    port: address.port,
    privatePort: h1Port,
    sockets,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
