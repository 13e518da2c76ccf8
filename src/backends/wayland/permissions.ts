/**
 * check_permissions in a Wayland session: what the compositor grants a plain client (capture,
 * virtual input, the clipboard, the window list) and the AT-SPI bus, each with the step that
 * supplies a missing piece. wlroots compositors grant their protocols to every client without
 * consent; GNOME and KDE keep them behind portals or per-app grants, named here.
 *
 * @module
 */
import type { PermissionCheck } from "../../ports/health.ts";
import { atspiCheck } from "../linux/permissions.ts";
import { probeAtspi } from "../linux/atspi/probe_atspi.ts";
import type { WaylandSession } from "./detect.ts";

/** What each grant needs, by the global that provides it. */
const GRANTS: { name: string; iface: string; what: string }[] = [
  { name: "screen_capture", iface: "zwlr_screencopy_manager_v1", what: "screenshots" },
  {
    name: "pointer_input",
    iface: "zwlr_virtual_pointer_manager_v1",
    what: "pixel clicks, scrolls and drags",
  },
  { name: "keyboard_input", iface: "zwp_virtual_keyboard_manager_v1", what: "typing and key presses" },
  { name: "window_list", iface: "zwlr_foreign_toplevel_manager_v1", what: "list_windows and activation" },
  { name: "clipboard", iface: "zwlr_data_control_manager_v1", what: "clipboard read and write" },
];

function remedyFor(session: WaylandSession, name: string): string {
  if (session.family === "gnome") {
    return name === "screen_capture"
      ? "GNOME: capture goes through org.gnome.Mutter.ScreenCast (or the xdg-desktop-portal ScreenCast with a " +
        "person's one-time consent) over PipeWire, which this driver does not implement yet"
      : name === "keyboard_input"
      ? "GNOME: keys go through org.gnome.Mutter.RemoteDesktop where its D-Bus API is reachable (headless " +
        "sessions); a desktop session needs the portal's RemoteDesktop and a person's one-time consent, which " +
        "this driver does not implement yet"
      : name === "pointer_input"
      ? "GNOME: pointer input needs a RemoteDesktop session with a ScreenCast stream over PipeWire, which this " +
        "driver does not implement yet"
      : "GNOME gives clients no such protocol; a shell extension would be needed";
  }
  if (session.family === "kde") {
    return "KDE: KWin grants privileged protocols only to clients whose .desktop file lists them in " +
      "X-KDE-Wayland-Interfaces; this driver does not install one yet";
  }
  return "use a wlroots compositor (sway, Hyprland, labwc, river), which offers this protocol to clients";
}

/** The checks. */
export async function waylandPermissions(session: WaylandSession): Promise<PermissionCheck[]> {
  const checks: PermissionCheck[] = GRANTS.map(({ name, iface, what }) => {
    const global = session.globals.find((g) => g.iface === iface);
    return global
      ? {
        name,
        ok: true,
        detail: `${session.compositor} offers ${iface} v${global.version} (${what}), no consent needed`,
        remedy: null,
      }
      : {
        name,
        ok: false,
        detail: `${session.compositor} (${session.family}) offers no ${iface}: no ${what}`,
        remedy: remedyFor(session, name),
      };
  });
  checks.push(atspiCheck(await probeAtspi()));
  return checks;
}
