/**
 * check_permissions on macOS: the two privacy grants (Accessibility, Screen Recording),
 * the window server session, the capture API, and the pasteboard, each with what was
 * found and the exact step that supplies a missing piece. Reading never prompts;
 * {@linkcode requestPermissions} raises the system prompts, for a trusted host only.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { PermissionCheck } from "../../ports/health.ts";
import type { DarwinContext } from "./context.ts";
import { grantee, screenCaptureAllowed, SETTINGS_PANE } from "./tcc.ts";
import { macOSMajor } from "./os_version.ts";
import { captureRoute, CG_CAPTURE_REMOVED_IN } from "./screen.ts";
import { SCREENCAPTURE } from "./screencapture.ts";
import { settled } from "./settled.ts";

/** The checks, in report order. */
export const DARWIN_PERMISSION_CHECKS = [
  "accessibility",
  "screen_recording",
  "window_server",
  "capture_api",
  "clipboard",
] as const;

/** Whether the process runs in a logged-in console session, and as whom. */
export function consoleSession(ctx: DarwinContext): { onConsole: boolean; user: string | null } | null {
  const { cf, fw } = ctx;
  using session = cf.own(fw.cg.CGSessionCopyCurrentDictionary());
  if (!session) return null;
  using onConsoleKey = cf.string("kCGSSessionOnConsoleKey");
  using userKey = cf.string("kCGSSessionUserNameKey");
  return {
    onConsole: cf.toBoolean(cf.lookup(session.ref, onConsoleKey.ref)) ?? false,
    user: cf.toString(cf.lookup(session.ref, userKey.ref)),
  };
}

/** Runs every check; a missing facility is a failed check, never a throw. */
export function darwinPermissions(
  ctx: DarwinContext,
  route?: () => ReturnType<typeof captureRoute>,
): Promise<PermissionCheck[]> {
  return settled(() => {
    const trusted = ctx.fw.ax.AXIsProcessTrusted();
    const capture = screenCaptureAllowed(ctx);
    const session = consoleSession(ctx);
    const checks: PermissionCheck[] = [
      {
        name: "accessibility",
        ok: trusted,
        detail: trusted
          ? "Accessibility is granted: trees, element actions and posted events work"
          : "Accessibility is not granted: no accessibility tree, element actions or input",
        remedy: trusted
          ? null
          : `grant Accessibility to ${grantee(ctx)} in System Settings → Privacy & Security → ` +
            `Accessibility: open "${SETTINGS_PANE.accessibility}", then restart the driver`,
        data: { settings_url: SETTINGS_PANE.accessibility, api: "AXIsProcessTrusted" },
      },
      {
        name: "screen_recording",
        ok: capture !== false,
        detail: capture === null
          ? "This macOS has no Screen Recording permission (before 10.15): capture is allowed"
          : capture
          ? "Screen Recording is granted: screenshots and window titles work"
          : "Screen Recording is not granted: no screenshots, and window titles are hidden",
        remedy: capture === false
          ? `grant Screen Recording to ${
            grantee(ctx)
          } in System Settings → Privacy & Security → Screen & System ` +
            `Audio Recording: open "${SETTINGS_PANE.screenRecording}", then restart the driver (macOS shows ` +
            "its prompt once per app: after that only System Settings changes it)"
          : null,
        data: { settings_url: SETTINGS_PANE.screenRecording, api: "CGPreflightScreenCaptureAccess" },
      },
      {
        name: "window_server",
        ok: session?.onConsole === true,
        detail: session === null
          ? "No window server session: the driver runs outside a logged-in desktop (an SSH login?)"
          : session.onConsole
          ? `Logged-in desktop session of ${session.user ?? "the current user"}`
          : `The session of ${session.user ?? "this user"} is not on the console (fast user switching?)`,
        remedy: session?.onConsole
          ? null
          : "log in at the Mac (or through Screen Sharing) as this user and keep the session active; " +
            "over SSH, start the driver from that session (a launch agent) and reach it through its daemon socket",
        data: { api: "CGSessionCopyCurrentDictionary" },
      },
      captureCheck(ctx, route ? route() : captureRoute(ctx, screencaptureInstalled())),
      clipboardCheck(ctx),
    ];
    return checks;
  });
}

function screencaptureInstalled(): boolean {
  try {
    return Deno.statSync(SCREENCAPTURE).isFile;
  } catch {
    return false;
  }
}

/** Which capture calls this macOS has, and which the driver uses. */
export function captureCheck(ctx: DarwinContext, route: ReturnType<typeof captureRoute>): PermissionCheck {
  const { cg } = ctx.fw;
  const exported = cg.CGWindowListCreateImage !== null && cg.CGDisplayCreateImage !== null;
  const major = macOSMajor(ctx);
  const detail = route === "coregraphics"
    ? "Capture uses CGWindowListCreateImage and CGDisplayCreateImage"
    : route === "screencapture" && exported
    ? `macOS ${major}: CGWindowListCreateImage/CGDisplayCreateImage are removed from the macOS ` +
      `${CG_CAPTURE_REMOVED_IN} SDK but still exported (dlsym finds them), and calling them makes macOS ask ` +
      "the user every month to let the driver bypass the system private window picker; the driver does " +
      `not call them and captures through ${SCREENCAPTURE} (ScreenCaptureKit, under the same Screen ` +
      "Recording grant)"
    : route === "screencapture"
    ? `This macOS removed CGWindowListCreateImage/CGDisplayCreateImage; capture goes through ${SCREENCAPTURE}`
    : `This macOS has neither CGWindowListCreateImage/CGDisplayCreateImage nor ${SCREENCAPTURE}`;
  return {
    name: "capture_api",
    ok: route !== null,
    detail,
    remedy: route === null
      ? "none: the driver does not call ScreenCaptureKit itself; screenshots are refused with unsupported_platform"
      : null,
    data: { route, exported, macos_major: major },
  };
}

function clipboardCheck(ctx: DarwinContext): PermissionCheck {
  try {
    const board = ctx.objc.pool(() => ctx.objc.id(ctx.objc.cls("NSPasteboard"), "generalPasteboard"));
    return {
      name: "clipboard",
      ok: board !== null,
      detail: board ? "The general pasteboard is reachable" : "NSPasteboard returned no general pasteboard",
      remedy: board ? null : "run the driver inside a logged-in desktop session",
    };
  } catch (error) {
    return {
      name: "clipboard",
      ok: false,
      detail: `The pasteboard is unreachable: ${(error as Error).message}`,
      remedy: "run the driver on macOS 11 or later inside a logged-in desktop session",
    };
  }
}

/**
 * Raises the system prompts for the missing grants (Accessibility through
 * AXIsProcessTrustedWithOptions, Screen Recording through CGRequestScreenCaptureAccess,
 * whose prompt macOS shows once per app: a request is reported in `notes`, not as a
 * raised prompt, since nothing tells whether one appeared).
 * Only for a person at a trusted host (`cua-driver permissions grant`), never for an
 * agent's tool call.
 *
 * @returns What is granted now, which prompts were raised, and notes for the person.
 */
export function requestPermissions(
  ctx: DarwinContext,
): { accessibility: boolean; screenRecording: boolean | null; prompted: string[]; notes: string[] } {
  const { cf, fw } = ctx;
  const prompted: string[] = [];
  const notes: string[] = [];
  let accessibility = fw.ax.AXIsProcessTrusted();
  if (!accessibility) {
    const key = fw.ax.kAXTrustedCheckOptionPrompt;
    if (key === null) {
      throw new DriverError("native_call_failed", "kAXTrustedCheckOptionPrompt is not exported", {});
    }
    using options = cf.dictionary([[key, cf.boolean(true)]]);
    accessibility = fw.ax.AXIsProcessTrustedWithOptions(options.ref);
    prompted.push("accessibility");
  }
  let screenRecording = screenCaptureAllowed(ctx);
  if (screenRecording === false && fw.cg.CGRequestScreenCaptureAccess !== null) {
    // macOS shows this prompt once per app; later requests return false without one, and
    // nothing tells which happened: so it is not reported as a raised prompt.
    screenRecording = fw.cg.CGRequestScreenCaptureAccess();
    if (!screenRecording) {
      notes.push(
        `Screen Recording was requested for ${grantee(ctx)}. macOS shows that prompt once per app: if it ` +
          "was answered or dismissed before, no prompt appeared now; allow it in System Settings → Privacy " +
          `& Security → Screen & System Audio Recording (open "${SETTINGS_PANE.screenRecording}").`,
      );
    }
  }
  return { accessibility, screenRecording, prompted, notes };
}
