/**
 * User Interface Privilege Isolation: Windows drops input (SendInput and posted
 * messages) sent to a process of higher integrity than ours. Comparing the two
 * processes' mandatory integrity levels lets the driver refuse before sending.
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";
import { advapi32, INTEGRITY, TOKEN_INFORMATION } from "../../../../ffi/windows/advapi32.ts";
import { sidOf, withTokenInformation } from "../security.ts";
import { windowOwner } from "../win32/hwnd.ts";

/** The mandatory integrity level of a process (INTEGRITY.*), or null when it cannot be read. */
export function processIntegrity(pid: number): number | null {
  return withTokenInformation(pid, TOKEN_INFORMATION.TokenIntegrityLevel, (info) => {
    // TOKEN_MANDATORY_LABEL { SID_AND_ATTRIBUTES Label { PSID Sid@0; DWORD Attributes@8 } }
    const sid = sidOf(info);
    if (!sid) return null;
    const countPointer = advapi32.symbols.GetSidSubAuthorityCount(sid);
    if (!countPointer) return null;
    const count = new Deno.UnsafePointerView(countPointer).getUint8(0);
    if (count === 0) return null;
    const last = advapi32.symbols.GetSidSubAuthority(sid, count - 1);
    return last ? new Deno.UnsafePointerView(last).getUint32(0) : null;
  });
}

/** A level's name ("medium", "high"). */
export function integrityName(level: number): string {
  if (level >= INTEGRITY.SYSTEM) return "system";
  if (level >= INTEGRITY.HIGH) return "high";
  if (level >= INTEGRITY.MEDIUM) return "medium";
  if (level >= INTEGRITY.LOW) return "low";
  return "untrusted";
}

/**
 * Refuses input to a window whose process runs at a higher integrity level than the
 * driver (an elevated app when the driver is not): Windows would drop it silently.
 *
 * @throws {DriverError} `permission_denied`
 */
export function requireInputAllowed(windowId: number, delivery: "background" | "foreground"): void {
  const { pid } = windowOwner(windowId);
  if (pid === 0) return;
  const ours = processIntegrity(Deno.pid);
  const theirs = processIntegrity(pid);
  if (ours === null || theirs === null || theirs <= ours) return;
  throw new DriverError(
    "permission_denied",
    `Window ${windowId} belongs to a ${integrityName(theirs)}-integrity process and the driver runs at ${
      integrityName(ours)
    } integrity: Windows would drop ${delivery} input to it (UIPI), so nothing was sent`,
    {
      effect: "refused",
      integrity: { driver: integrityName(ours), target: integrityName(theirs) },
      hint: "run the driver elevated (as administrator) to act on elevated apps",
    },
  );
}
