/**
 * The subsystem an executable declares in its PE header (console or GUI), read from the file:
 * launch_app starts a console program through the shell so that it gets a console window of its
 * own, as a double click would, instead of inheriting the driver's (or none).
 *
 * @module
 */

/** IMAGE_SUBSYSTEM_WINDOWS_CUI. */
const CONSOLE_SUBSYSTEM = 3;

/**
 * The Subsystem field of a PE image's optional header, from the file's first bytes: `e_lfanew`
 * at 0x3c, "PE\0\0" there, the optional header 24 bytes on, Subsystem at its offset 68 (the same
 * in PE32 and PE32+). Null for anything that is not a PE image.
 */
export function peSubsystem(head: Uint8Array): number | null {
  if (head.length < 0x40 || head[0] !== 0x4d || head[1] !== 0x5a) return null;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const pe = view.getUint32(0x3c, true);
  if (pe + 24 + 70 > head.length || view.getUint32(pe, true) !== 0x00004550) return null;
  return view.getUint16(pe + 24 + 68, true);
}

/** True when the executable at `path` is a console program (false when unreadable or not one). */
export function isConsoleProgram(path: string): boolean {
  try {
    using file = Deno.openSync(path, { read: true });
    const head = new Uint8Array(4096);
    const read = file.readSync(head) ?? 0;
    return peSubsystem(head.subarray(0, read)) === CONSOLE_SUBSYSTEM;
  } catch {
    return false;
  }
}
