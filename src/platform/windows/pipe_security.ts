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
import { readWide } from "../../../ffi/windows/_win.ts";
import {
  advapi32,
  SDDL_REVISION_1,
  SE_KERNEL_OBJECT,
  SECURITY_INFORMATION,
  TOKEN_QUERY,
  TOKEN_USER,
  WRITE_DAC_ACCESS,
} from "../../../ffi/windows/advapi32.ts";
import { kernel32, OPEN_EXISTING, PROCESS } from "../../../ffi/windows/kernel32.ts";

/** The driver's user SID as a string ("S-1-5-21-…"), or null. */
export function currentUserSid(): string | null {
  const process = kernel32.symbols.OpenProcess(PROCESS.QUERY_LIMITED_INFORMATION, 0, Deno.pid);
  if (!process) return null;
  try {
    const tokenCell = new BigUint64Array(1);
    if (!advapi32.symbols.OpenProcessToken(process, TOKEN_QUERY, tokenCell)) return null;
    const token = Deno.UnsafePointer.create(tokenCell[0]);
    try {
      const info = new Uint8Array(512);
      const length = new Uint32Array(1);
      if (!advapi32.symbols.GetTokenInformation(token, TOKEN_USER, info, info.length, length)) return null;
      // TOKEN_USER { SID_AND_ATTRIBUTES User { PSID Sid@0; DWORD Attributes@8 } }
      const sid = Deno.UnsafePointer.create(new DataView(info.buffer).getBigUint64(0, true));
      const text = new BigUint64Array(1);
      if (!sid || !advapi32.symbols.ConvertSidToStringSidW(sid, text)) return null;
      const pointer = Deno.UnsafePointer.create(text[0]);
      try {
        return readWide(pointer);
      } finally {
        kernel32.symbols.LocalFree(pointer);
      }
    } finally {
      kernel32.symbols.CloseHandle(token);
    }
  } finally {
    kernel32.symbols.CloseHandle(process);
  }
}

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
      if (
        !advapi32.symbols.ConvertSecurityDescriptorToStringSecurityDescriptorW(
          sd,
          SDDL_REVISION_1,
          SECURITY_INFORMATION.DACL,
          text,
          null,
        )
      ) {
        return null;
      }
      const pointer = Deno.UnsafePointer.create(text[0]);
      try {
        return readWide(pointer);
      } finally {
        kernel32.symbols.LocalFree(pointer);
      }
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
