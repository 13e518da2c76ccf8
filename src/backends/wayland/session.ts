/**
 * The choice the Linux back end asks for before it looks for an X display: is this process in
 * (or, over SSH, is the user logged in to) a Wayland session, and which back end serves it.
 * With `WAYLAND_DISPLAY` set the session is Wayland: a compositor that does not answer is an
 * error, never a reason to start a private X desktop. With no variable at all the user's
 * runtime directory is looked at for a compositor's socket. With `DISPLAY` set too (XWayland),
 * native windows come from the Wayland back end and XWayland ones from the X11 back end, in one
 * back end (`compose.ts`).
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { Backend } from "../../ports/backend.ts";
import { detectWaylandSession } from "./detect.ts";

/** Options of {@linkcode waylandSessionBackend}. */
export interface WaylandSessionOptions {
  desktop: "auto" | "system";
  log?: (line: string) => void;
  /** Starts the X11 back end on DISPLAY (XWayland), when DISPLAY is set. */
  x11: (() => Promise<Backend>) | null;
}

/**
 * The back end of the Wayland session, or null when this is not one (the caller goes on with X11).
 *
 * @throws {DriverError} `display_unavailable` when `WAYLAND_DISPLAY` names a compositor that does not
 *   answer and no `DISPLAY` is set.
 */
export async function waylandSessionBackend(options: WaylandSessionOptions): Promise<Backend | null> {
  const named = Deno.env.get("WAYLAND_DISPLAY");
  // An X session (DISPLAY without WAYLAND_DISPLAY) is X11 as it always was.
  if (!named && options.x11) return null;
  const session = await detectWaylandSession();
  if (!session) {
    if (!named) return null;
    if (options.x11) {
      options.log?.(
        `desktop ${options.desktop}: WAYLAND_DISPLAY=${named} does not answer; using DISPLAY (X11)`,
      );
      return null;
    }
    throw new DriverError(
      "display_unavailable",
      `WAYLAND_DISPLAY=${named} is set but no compositor answers there`,
      {
        hint:
          "check WAYLAND_DISPLAY and XDG_RUNTIME_DIR (the session may have ended), or use --desktop embedded " +
          "for a private X11 desktop",
      },
    );
  }
  options.log?.(
    `desktop ${options.desktop}: ${named ? "using" : "attaching to"} Wayland session ${session.display} ` +
      `(${session.compositor}; found by ${session.reason})`,
  );
  const { createWaylandBackend } = await import("./mod.ts");
  const wayland = createWaylandBackend(session, { log: options.log });
  if (!options.x11) return wayland;
  const { composeWithX11 } = await import("./compose.ts");
  let x11: Backend;
  try {
    x11 = await options.x11();
  } catch (error) {
    options.log?.(
      `desktop ${options.desktop}: XWayland's DISPLAY is not usable (${error}); native windows only`,
    );
    return wayland;
  }
  return composeWithX11(wayland, x11);
}
