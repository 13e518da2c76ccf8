/**
 * AT-SPI accessibility for Linux, over the built-in D-Bus client.
 *
 * @module
 */
export { AtspiAccessibility, type AtspiAccessibilityOptions } from "./atspi_backend.ts";
export type { AtspiRef, ElementState } from "./element_ops.ts";
export { ROLE_NAMES, roleName } from "./roles.ts";
export { decodeStates, hasState, type NodeStates, State } from "./states.ts";
export type { WindowTreeTimings } from "./window_tree.ts";
