/**
 * An owner-only DACL for the daemon's named pipe. node:net creates the pipe with the
 * default security (which lets every local user open it for reading), so right after
 * listening the driver opens the pipe itself with WRITE_DAC and replaces its DACL with
 * one entry: full access for the driver's own user, protected from inheritance. A named
 * pipe's security descriptor belongs to the pipe, so every instance created later has it.
 *
 * @module
 */
import { wstr } from "../../../ffi/_c.ts";
import {
  advapi32,
  SDDL_REVISION_1,
  SE_KERNEL_OBJECT,
  SECURITY_INFORMATION,
  WRITE_DAC_ACCESS,
} from "../../../ffi/windows/advapi32.ts";
import { kernel32, OPEN_EXISTING } from "../../../ffi/windows/kernel32.ts";
import { currentUserSid, takeLocalString } from "./security.ts";

/** The SDDL of the pipe's DACL, read through a handle opened on it, or null. */
export function pipeDacl(address: string): string | null {
  const handle = kernel32.symbols.CreateFileW(wstr(address), 0x00020000, 0, null, OPEN_EXISTING, 0, null);
  if (!handle || BigInt(Deno.UnsafePointer.value(handle)) === 0xffffffffffffffffn) return null;
  try {
    const descriptor = new BigUint64Array(1);
    if (
      advapi32.symbols.GetSecurityInfo(
        handle,
        SE_KERNEL_OBJECT,
        SECURITY_INFORMATION.DACL,
        null,
        null,
        null,
        null,
        descriptor,
      ) !==
        0
    ) return null;
    const sd = Deno.UnsafePointer.create(descriptor[0]);
    try {
      const text = new BigUint64Array(1);
      return takeLocalString(
        advapi32.symbols.ConvertSecurityDescriptorToStringSecurityDescriptorW(
          sd,
          SDDL_REVISION_1,
          SECURITY_INFORMATION.DACL,
          text,
          null,
        ),
        text,
      );
    } finally {
      kernel32.symbols.LocalFree(sd);
    }
  } finally {
    kernel32.symbols.CloseHandle(handle);
  }
}

/**
 * Replaces the pipe's DACL with full access for the driver's user only.
 *
 * @returns true when the DACL was set
 */
export function restrictPipeToUser(address: string): boolean {
  const sid = currentUserSid();
  if (!sid) return false;
  const descriptor = new BigUint64Array(1);
  if (
    !advapi32.symbols.ConvertStringSecurityDescriptorToSecurityDescriptorW(
      wstr(`D:P(A;;GA;;;${sid})`),
      SDDL_REVISION_1,
      descriptor,
      null,
    )
  ) return false;
  const sd = Deno.UnsafePointer.create(descriptor[0]);
  try {
    const present = new Int32Array(1), defaulted = new Int32Array(1), dacl = new BigUint64Array(1);
    if (!advapi32.symbols.GetSecurityDescriptorDacl(sd, present, dacl, defaulted) || !present[0]) {
      return false;
    }
    // Opening the pipe as a client reaches its security descriptor; the daemon drops this connection
    // like any other that does not present the secret.
    const handle = kernel32.symbols.CreateFileW(
      wstr(address),
      WRITE_DAC_ACCESS,
      0,
      null,
      OPEN_EXISTING,
      0,
      null,
    );
    if (!handle || BigInt(Deno.UnsafePointer.value(handle)) === 0xffffffffffffffffn) return false;
    try {
      return advapi32.symbols.SetSecurityInfo(
        handle,
        SE_KERNEL_OBJECT,
        (SECURITY_INFORMATION.DACL | SECURITY_INFORMATION.PROTECTED_DACL) >>> 0,
        null,
        null,
        Deno.UnsafePointer.create(dacl[0]),
        null,
      ) === 0;
    } finally {
      kernel32.symbols.CloseHandle(handle);
    }
  } finally {
    kernel32.symbols.LocalFree(sd);
  }
}
