/**
 * A free TCP port on loopback, for a server a test or benchmark starts on a port of its choosing.
 *
 * @module
 */

/** A port nothing listens on now (the OS picked it; it is released before returning). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}
