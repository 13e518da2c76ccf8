/**
 * macOS privacy permissions (TCC): what the driver needs, how to read each without
 * prompting, and the exact System Settings pane that grants it.
 *
 * A grant belongs to the "responsible" process: the terminal app that started the
 * driver, or the driver's own executable when a launch agent starts it.
 *
 * @module
 */
import { DriverError } from "../../core/errors.ts";
import type { DarwinContext } from "./context.ts";

/** System Settings → Privacy & Security panes, as openable URLs (`open "<url>"`). */
export const SETTINGS_PANE = {
  accessibility: "x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility",
  screenRecording: "x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture",
} as const;

/** Who the grant must name, in words. */
export function grantee(): string {
  return `the app that runs the driver (your terminal app, or ${Deno.execPath()} when started by launchd)`;
}

/** True when the driver may use the Accessibility API and post events. */
export function accessibilityTrusted(ctx: DarwinContext): boolean {
  return ctx.fw.ax.AXIsProcessTrusted();
}

/** True when Screen Recording is granted; null before macOS 10.15 (no such permission). */
export function screenCaptureAllowed(ctx: DarwinContext): boolean | null {
  const preflight = ctx.fw.cg.CGPreflightScreenCaptureAccess;
  return preflight === null ? null : preflight();
}

/** The error for a missing Accessibility grant. */
export function accessibilityDenied(what: string): DriverError {
  return new DriverError(
    "permission_denied",
    `${what} needs the Accessibility permission, which is not granted`,
    {
      permission: "accessibility",
      settings_url: SETTINGS_PANE.accessibility,
      hint: `grant Accessibility to ${grantee()} in System Settings → Privacy & Security → Accessibility ` +
        `(open "${SETTINGS_PANE.accessibility}"), then restart the driver`,
    },
  );
}

/** The error for a missing Screen Recording grant. */
export function screenCaptureDenied(what: string): DriverError {
  return new DriverError(
    "permission_denied",
    `${what} needs the Screen Recording permission, which is not granted`,
    {
      permission: "screen_recording",
      settings_url: SETTINGS_PANE.screenRecording,
      hint: `grant Screen Recording to ${grantee()} in System Settings → Privacy & Security → ` +
        `Screen & System Audio Recording (open "${SETTINGS_PANE.screenRecording}"), then restart the driver`,
    },
  );
}

/** @throws {DriverError} `permission_denied` without Accessibility. */
export function requireAccessibility(ctx: DarwinContext, what: string): void {
  if (!accessibilityTrusted(ctx)) throw accessibilityDenied(what);
}

/** @throws {DriverError} `permission_denied` without Screen Recording. */
export function requireScreenCapture(ctx: DarwinContext, what: string): void {
  if (screenCaptureAllowed(ctx) === false) throw screenCaptureDenied(what);
}
