/**
 * Reading the registry: string values and subkey names (App Paths, uninstall entries).
 *
 * @module
 */
import { wstr } from "../../../ffi/_c.ts";
import { fromWide, handle, wideBuffer } from "../../../ffi/windows/_win.ts";
import { advapi32, HKEY, KEY_READ, REG_ERROR, RRF } from "../../../ffi/windows/advapi32.ts";

/** A registry root. */
export type RegistryRoot = keyof typeof HKEY;

/** A string value (REG_SZ, or REG_EXPAND_SZ expanded), or null when absent. `name` "" reads the default value. */
export function readRegistryString(root: RegistryRoot, subKey: string, name: string): string | null {
  if (!advapi32.available()) return null;
  const size = new Uint32Array([4096]);
  const buffer = wideBuffer(2048);
  const status = advapi32.symbols.RegGetValueW(
    handle(HKEY[root]),
    wstr(subKey),
    name === "" ? null : wstr(name),
    // RRF_RT_REG_SZ alone: REG_EXPAND_SZ values come back expanded (adding RRF_RT_REG_EXPAND_SZ without
    // RRF_NOEXPAND makes every call fail with ERROR_INVALID_PARAMETER).
    RRF.RT_REG_SZ,
    null,
    buffer,
    size,
  );
  if (status !== REG_ERROR.SUCCESS) return null;
  return fromWide(buffer, Math.max(0, size[0] / 2 - 1));
}

/** The names of a key's subkeys ([] when the key does not exist). */
export function registrySubkeys(root: RegistryRoot, subKey: string): string[] {
  if (!advapi32.available()) return [];
  const cell = new BigUint64Array(1);
  if (
    advapi32.symbols.RegOpenKeyExW(handle(HKEY[root]), wstr(subKey), 0, KEY_READ, cell) !== REG_ERROR.SUCCESS
  ) {
    return [];
  }
  const key = Deno.UnsafePointer.create(cell[0]);
  const names: string[] = [];
  try {
    for (let index = 0; index < 10_000; index++) {
      const name = wideBuffer(256);
      const length = new Uint32Array([name.length]);
      const status = advapi32.symbols.RegEnumKeyExW(key, index, name, length, null, null, null, null);
      if (status !== REG_ERROR.SUCCESS) break;
      names.push(fromWide(name, length[0]));
    }
  } finally {
    advapi32.symbols.RegCloseKey(key);
  }
  return names;
}
