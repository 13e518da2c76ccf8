/**
 * Accessibility on Wayland: the Linux AT-SPI back end, reused as it is. Frames come from the
 * compositor's window origin plus the toolkit's window-relative extents (mod.ts passes the
 * window bounds).
 *
 * @module
 */
export { AtspiAccessibility, type AtspiAccessibilityOptions } from "../linux/accessibility.ts";
