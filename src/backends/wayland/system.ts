/**
 * The OS facilities of a Wayland session (programs, processes, packages, sockets): the Linux ones.
 *
 * @module
 */
export { createLinuxSystem as createWaylandSystem } from "../linux/system.ts";
