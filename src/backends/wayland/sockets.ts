/**
 * The daemon's local socket in a Wayland session: the Linux Unix socket.
 *
 * @module
 */
export { createLinuxSockets as createWaylandSockets } from "../linux/sockets.ts";
