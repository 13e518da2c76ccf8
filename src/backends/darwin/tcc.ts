/**
 * macOS privacy permissions (TCC): what the driver needs, how to read each without
 * prompting, and the exact System Settings pane that grants it.
 *
 * A grant belongs to the "responsible" process: the app whose process tree started the
 * driver (a terminal app, or an MCP client app such as an AI desktop app that spawned
 * `cua-driver mcp`), or the driver's own executable when launchd starts it. macOS shows
 * each privacy prompt to an app once: after it was answered or dismissed, asking again
 * shows nothing, and only System Settings changes the answer.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { DarwinContext } from "./context.ts";
import { bsdInfo, processPath } from "./processes.ts";

/** The app bundle an executable path lies in, or null. */
export function appBundleOf(path: string): { name: string; path: string } | null {
  const match = /^(.*\/([^/]+)\.app)\/Contents\//.exec(path);
  return match ? { name: match[2], path: match[1] } : null;
}

/**
 * The app that macOS holds responsible for this process: the nearest ancestor (the
 * process itself included) whose executable lies inside an app bundle; null when the
 * chain reaches launchd without one (a launch agent, or ssh).
 */
export function responsibleApp(ctx: DarwinContext, pid = Deno.pid): { name: string; path: string } | null {
  let current = pid;
  for (let depth = 0; depth < 32 && current > 1; depth++) {
    const path = processPath(ctx, current);
    const app = path ? appBundleOf(path) : null;
    if (app) return app;
    const info = bsdInfo(ctx, current);
    if (!info || info.ppid === current) return null;
    current = info.ppid;
  }
  return null;
}

/** System Settings → Privacy & Security panes, as openable URLs (`open "<url>"`). */
export const SETTINGS_PANE = {
  accessibility: "x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility",
  screenRecording: "x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture",
} as const;

/**
 * Who the grant must name, in words: with `ctx`, the app found by {@linkcode responsibleApp}
 * (or the executable itself when no app started it); without, the rule.
 */
export function grantee(ctx?: DarwinContext): string {
  if (ctx) {
    const app = responsibleApp(ctx);
    if (app) return `${app.name} (${app.path}), the app that started the driver`;
    return `${Deno.execPath()} (no app started the driver: it is its own responsible process)`;
  }
  return `the app that started the driver (your terminal app, or the MCP client app that runs it; ` +
    `${Deno.execPath()} when started by launchd)`;
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
export function accessibilityDenied(what: string, ctx?: DarwinContext): DriverError {
  return new DriverError(
    "permission_denied",
    `${what} needs the Accessibility permission, which is not granted`,
    {
      permission: "accessibility",
      settings_url: SETTINGS_PANE.accessibility,
      hint:
        `grant Accessibility to ${grantee(ctx)} in System Settings → Privacy & Security → Accessibility ` +
        `(open "${SETTINGS_PANE.accessibility}"), then restart the driver`,
    },
  );
}

/** The error for a missing Screen Recording grant. */
export function screenCaptureDenied(what: string, ctx?: DarwinContext): DriverError {
  return new DriverError(
    "permission_denied",
    `${what} needs the Screen Recording permission, which is not granted`,
    {
      permission: "screen_recording",
      settings_url: SETTINGS_PANE.screenRecording,
      hint: `grant Screen Recording to ${grantee(ctx)} in System Settings → Privacy & Security → ` +
        `Screen & System Audio Recording (open "${SETTINGS_PANE.screenRecording}"), then restart the driver`,
    },
  );
}

/** @throws {DriverError} `permission_denied` without Accessibility. */
export function requireAccessibility(ctx: DarwinContext, what: string): void {
  if (!accessibilityTrusted(ctx)) throw accessibilityDenied(what, ctx);
}

/** @throws {DriverError} `permission_denied` without Screen Recording. */
export function requireScreenCapture(ctx: DarwinContext, what: string): void {
  if (screenCaptureAllowed(ctx) === false) throw screenCaptureDenied(what, ctx);
}
