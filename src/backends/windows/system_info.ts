/**
 * Facts about the Windows session the health and permission reports show: the OS
 * build, whether it is Wine, and the driver's integrity level.
 *
 * @module
 */
import { cstr, readCString, wstr } from "../../../ffi/_c.ts";
import { kernel32 } from "../../../ffi/windows/kernel32.ts";
import { integrityName, processIntegrity } from "./input/integrity.ts";

/** The Wine version when running under Wine (ntdll exports wine_get_version), else null. */
export function wineVersion(): string | null {
  const ntdll = kernel32.symbols.GetModuleHandleW(wstr("ntdll.dll"));
  if (!ntdll) return null;
  const address = kernel32.symbols.GetProcAddress(ntdll, cstr("wine_get_version"));
  if (!address) return null;
  const signature = { parameters: [], result: "pointer" } as const;
  const getVersion = new Deno.UnsafeFnPointer(address as Deno.PointerObject<typeof signature>, signature);
  return readCString(getVersion.call());
}

/** One line naming the system: "Windows 10.0.19045" or "Wine 10.0 (Windows 10.0.19043)". */
export function systemDescription(): string {
  const windows = `Windows ${Deno.osRelease()}`;
  const wine = wineVersion();
  return wine ? `Wine ${wine} (${windows})` : windows;
}

/** The driver's own integrity level name ("medium", "high"), or null when unreadable. */
export function driverIntegrity(): string | null {
  const level = processIntegrity(Deno.pid);
  return level === null ? null : integrityName(level);
}
