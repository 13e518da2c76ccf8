/**
 * check_permissions on Windows: the interactive desktop, UI Automation, MSAA, input
 * (and the integrity level that limits it), and the clipboard. Windows has no
 * permission prompts for these; each is there, or the remedy says what to change.
 *
 * @module
 */
import { oleacc } from "../../../ffi/windows/oleacc.ts";
import { user32 } from "../../../ffi/windows/user32.ts";
import type { ClipboardBackend } from "../../ports/clipboard.ts";
import type { PermissionCheck } from "../../ports/health.ts";
import type { Win32Accessibility } from "./accessibility.ts";
import { driverIntegrity, systemDescription } from "./system_info.ts";

/** The checks, in report order. */
export const WINDOWS_PERMISSION_CHECKS = ["desktop", "ui_automation", "msaa", "input", "clipboard"] as const;

/** Runs every check; never throws for a missing facility. */
export async function windowsPermissions(
  accessibility: Win32Accessibility,
  clipboard: ClipboardBackend,
): Promise<PermissionCheck[]> {
  const screen = user32.symbols.GetDC(null);
  if (screen) user32.symbols.ReleaseDC(null, screen);
  const desktop: PermissionCheck = screen
    ? { name: "desktop", ok: true, detail: `Interactive desktop on ${systemDescription()}`, remedy: null }
    : {
      name: "desktop",
      ok: false,
      detail: "No interactive desktop (GetDC(NULL) failed)",
      remedy:
        "run the driver in the logged-in user's session, not as a service or over a disconnected RDP session",
    };
  const automation = accessibility.automation();
  const uia: PermissionCheck = automation
    ? { name: "ui_automation", ok: true, detail: "CoCreateInstance(CUIAutomation) succeeded", remedy: null }
    : {
      name: "ui_automation",
      ok: false,
      detail: `UI Automation is unavailable: ${accessibility.uiaUnavailableReason ?? "unknown"}`,
      remedy: "UI Automation ships with Windows 7 and later; on Wine trees come from MSAA and child windows",
    };
  const msaa: PermissionCheck = oleacc.available()
    ? { name: "msaa", ok: true, detail: "oleacc.dll loaded", remedy: null }
    : {
      name: "msaa",
      ok: false,
      detail: "oleacc.dll cannot be loaded",
      remedy: "repair the Windows installation",
    };
  const integrity = driverIntegrity();
  const input: PermissionCheck = {
    name: "input",
    ok: true,
    detail:
      `SendInput and posted messages; the driver runs at ${
        integrity ?? "unknown"
      } integrity, so windows of ` +
      "more privileged (elevated) apps refuse its input",
    remedy: null,
    data: { integrity },
  };
  let clip: PermissionCheck;
  try {
    const content = await clipboard.read({ text: false, image: false });
    clip = {
      name: "clipboard",
      ok: true,
      detail: `Clipboard readable (${content.types.length} formats)`,
      remedy: null,
    };
  } catch (error) {
    clip = {
      name: "clipboard",
      ok: false,
      detail: (error as Error).message,
      remedy: "close the app that holds the clipboard open",
    };
  }
  return [desktop, uia, msaa, input, clip];
}
