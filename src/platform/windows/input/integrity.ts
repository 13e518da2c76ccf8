/**
 * User Interface Privilege Isolation: Windows drops input (SendInput and posted
 * messages) sent to a process of higher integrity than ours. Comparing the two
 * processes' mandatory integrity levels lets the driver refuse before sending.
 *
 * @module
 */
import { DriverError } from "../../../core/errors.ts";
import { advapi32, INTEGRITY, TOKEN_INFORMATION, TOKEN_QUERY } from "../../../../ffi/windows/advapi32.ts";
import { kernel32, PROCESS } from "../../../../ffi/windows/kernel32.ts";
import { windowOwner } from "../win32/hwnd.ts";

/** The mandatory integrity level of a process (INTEGRITY.*), or null when it cannot be read. */
export function processIntegrity(pid: number): number | null {
  if (!advapi32.available()) return null;
  const process = pid === Deno.pid
    ? kernel32.symbols.OpenProcess(PROCESS.QUERY_LIMITED_INFORMATION, 0, Deno.pid)
    : kernel32.symbols.OpenProcess(PROCESS.QUERY_LIMITED_INFORMATION, 0, pid);
  if (!process) return null;
  try {
    const tokenCell = new BigUint64Array(1);
    if (!advapi32.symbols.OpenProcessToken(process, TOKEN_QUERY, tokenCell)) return null;
    const token = Deno.UnsafePointer.create(tokenCell[0]);
    try {
      const info = new Uint8Array(256);
      const length = new Uint32Array(1);
      if (
        !advapi32.symbols.GetTokenInformation(
          token,
          TOKEN_INFORMATION.TokenIntegrityLevel,
          info,
          info.length,
          length,
        )
      ) {
        return null;
      }
      // TOKEN_MANDATORY_LABEL { SID_AND_ATTRIBUTES Label { PSID Sid@0; DWORD Attributes@8 } }
      const sid = Deno.UnsafePointer.create(new DataView(info.buffer).getBigUint64(0, true));
      if (!sid) return null;
      const countPointer = advapi32.symbols.GetSidSubAuthorityCount(sid);
      if (!countPointer) return null;
      const count = new Deno.UnsafePointerView(countPointer).getUint8(0);
      if (count === 0) return null;
      const last = advapi32.symbols.GetSidSubAuthority(sid, count - 1);
      return last ? new Deno.UnsafePointerView(last).getUint32(0) : null;
    } finally {
      kernel32.symbols.CloseHandle(token);
    }
  } finally {
    kernel32.symbols.CloseHandle(process);
  }
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
