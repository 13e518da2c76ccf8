/**
 * AT-SPI accessibility for Linux, over the built-in D-Bus client.
 *
 * @module
 */
export { AtspiAccessibility, type AtspiAccessibilityOptions } from "./atspi/atspi_backend.ts";
export type { AtspiRef, ElementState } from "./atspi/element_ops.ts";
export { ROLE_NAMES, roleName } from "./atspi/roles.ts";
export { decodeStates, hasState, type NodeStates, State } from "./atspi/states.ts";
export type { WindowTreeTimings } from "./atspi/window_tree.ts";
