/**
 * The platform checks of health_report on macOS: displays and the session, the window
 * server, Accessibility (with a timed read of the frontmost app), capture (with a
 * timed test capture) and input. Each runs only when asked for; a failed probe is a
 * `fail` check with a hint, never a throw.
 *
 * @module
 */
import { asDriverError } from "../../ports/errors.ts";
import type { HealthCheck } from "../../ports/health.ts";
import type { AxClient } from "./ax_client.ts";
import { backgroundPoster } from "./input/events.ts";
import { sysctlString } from "./os_version.ts";
import { SCREENCAPTURE } from "./screencapture.ts";
import type { DarwinContext } from "./context.ts";
import { consoleSession } from "./permissions.ts";
import type { DarwinScreen } from "./screen.ts";
import { grantee, screenCaptureAllowed, SETTINGS_PANE } from "./tcc.ts";
import { NORMAL_LAYER, readWindowList } from "./window_list.ts";
import { frontmostPid, runningApp } from "./workspace.ts";

/** What the checks read. */
export interface DarwinHealthDeps {
  ctx: DarwinContext;
  ax: AxClient;
  screen: DarwinScreen;
}

type Probe = (deps: DarwinHealthDeps) => Promise<HealthCheck>;

const PROBES: Record<string, Probe> = {
  display: displayCheck,
  window_manager: windowServerCheck,
  accessibility: accessibilityCheck,
  capture: captureCheck,
  input: inputCheck,
};

/** Runs the named checks (unknown names are ignored), in the order asked. */
export async function darwinHealth(deps: DarwinHealthDeps, names: readonly string[]): Promise<HealthCheck[]> {
  const checks: HealthCheck[] = [];
  for (const name of names.filter((n) => n in PROBES)) {
    try {
      checks.push(await PROBES[name](deps));
    } catch (error) {
      const driverError = asDriverError(error);
      checks.push({
        name,
        status: "fail",
        message: driverError.message,
        ...(driverError.data.hint ? { hint: String(driverError.data.hint) } : {}),
      });
    }
  }
  return checks;
}

/** macOS facts: product version, build and model (sysctl). */
export function macFacts(ctx: DarwinContext): Record<string, string | null> {
  const read = (name: string): string | null => sysctlString(ctx, name);
  return {
    product_version: read("kern.osproductversion"),
    build: read("kern.osversion"),
    model: read("hw.model"),
  };
}

async function displayCheck({ ctx, screen }: DarwinHealthDeps): Promise<HealthCheck> {
  const displays = await screen.displays();
  const main = displays.find((d) => d.primary);
  const session = consoleSession(ctx);
  const facts = macFacts(ctx);
  const data = {
    ...facts,
    displays: displays.map((d) => ({ id: d.id, name: d.name, bounds: d.bounds, scale: d.scaleFactor })),
    console_user: session?.user ?? null,
  };
  if (!main || session === null) {
    return {
      name: "display",
      status: "fail",
      message: session === null ? "No window server session (not a logged-in desktop)" : "No active display",
      hint: "run the driver in a logged-in macOS desktop session",
      data,
    };
  }
  return {
    name: "display",
    status: "pass",
    message:
      `macOS ${facts.product_version ?? "?"}: ${displays.length} display(s), main ${main.bounds.width}x` +
      `${main.bounds.height} points @ ${main.scaleFactor}x`,
    data,
  };
}

function windowServerCheck({ ctx }: DarwinHealthDeps): Promise<HealthCheck> {
  const rows = readWindowList(ctx).filter((row) => row.layer === NORMAL_LAYER);
  const front = frontmostPid(ctx);
  const app = front === null ? null : runningApp(ctx, front);
  return Promise.resolve({
    name: "window_manager",
    status: "pass",
    message: `WindowServer lists ${rows.length} document window(s); frontmost app ${app?.name ?? "none"}`,
    data: { windows: rows.length, on_screen: rows.filter((r) => r.onScreen).length, frontmost_pid: front },
  });
}

async function accessibilityCheck({ ctx, ax }: DarwinHealthDeps): Promise<HealthCheck> {
  if (!ctx.fw.ax.AXIsProcessTrusted()) {
    return {
      name: "accessibility",
      status: "fail",
      message: "Accessibility is not granted",
      hint: `grant Accessibility to ${grantee(ctx)}: open "${SETTINGS_PANE.accessibility}"`,
    };
  }
  const front = frontmostPid(ctx);
  if (front === null) {
    return {
      name: "accessibility",
      status: "pass",
      message: "Accessibility is granted (no frontmost app to probe)",
    };
  }
  const started = performance.now();
  using app = ax.application(front);
  const windows = await ax.windows(app.ref);
  for (const axWindow of windows) axWindow.release();
  const ms = Math.round((performance.now() - started) * 10) / 10;
  return {
    name: "accessibility",
    status: "pass",
    message:
      `Accessibility is granted; the frontmost app (pid ${front}) listed ${windows.length} window(s) in ${ms} ms`,
    data: { frontmost_pid: front, windows: windows.length, ms },
  };
}

async function captureCheck({ ctx, screen }: DarwinHealthDeps): Promise<HealthCheck> {
  if (screenCaptureAllowed(ctx) === false) {
    return {
      name: "capture",
      status: "fail",
      message: "Screen Recording is not granted",
      hint: `grant Screen Recording to ${grantee(ctx)}: open "${SETTINGS_PANE.screenRecording}"`,
    };
  }
  const started = performance.now();
  const image = await screen.captureDisplay("primary");
  const ms = Math.round((performance.now() - started) * 10) / 10;
  return {
    name: "capture",
    status: "pass",
    message: `Captured the main display (${image.width}x${image.height} pixels) in ${ms} ms`,
    data: {
      width: image.width,
      height: image.height,
      ms,
      api: screen.route() === "screencapture" ? SCREENCAPTURE : "CGDisplayCreateImage",
    },
  };
}

function inputCheck({ ctx }: DarwinHealthDeps): Promise<HealthCheck> {
  const preflight = ctx.fw.cg.CGPreflightPostEventAccess;
  const allowed = preflight ? preflight() : ctx.fw.ax.AXIsProcessTrusted();
  const background = backgroundPoster(ctx);
  return Promise.resolve(
    allowed
      ? {
        name: "input",
        status: "pass",
        message:
          `Posting events is allowed: background input per process (${background}), foreground at the HID tap`,
        data: { background, foreground: "CGEventPost(kCGHIDEventTap)" },
      }
      : {
        name: "input",
        status: "fail",
        message: "Posting events is not allowed (Accessibility is not granted)",
        hint: `grant Accessibility to ${grantee(ctx)}: open "${SETTINGS_PANE.accessibility}"`,
      },
  );
}
