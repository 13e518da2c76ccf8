/**
 * File ownership and directory classes on Linux and macOS, for deciding where the
 * driver may write for an agent (browser download roots).
 *
 * @module
 */
import type { DirectoryClass } from "../../ports/system.ts";

/** Trees the driver never writes into for an agent. */
const SYSTEM_TREES = [
  "/bin",
  "/boot",
  "/dev",
  "/etc",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/proc",
  "/run",
  "/sbin",
  "/snap",
  "/sys",
  "/usr",
  "/var/lib",
  "/var/log",
  "/var/cache",
  "/var/spool",
  // macOS
  "/System",
  "/Library",
  "/private/etc",
  "/private/var/db",
];

/** Shared roots that are not approved themselves (their user-owned subdirectories are). */
const SHARED_ROOTS = new Set([
  "/",
  "/home",
  "/tmp",
  "/var",
  "/var/tmp",
  "/opt",
  "/srv",
  "/mnt",
  "/media",
  "/Users",
  "/Volumes",
  "/private",
  "/private/tmp",
]);

/** The class of a normalized absolute directory path. */
export function classifyPosixDirectory(path: string): DirectoryClass {
  if (SYSTEM_TREES.some((tree) => path === tree || path.startsWith(`${tree}/`))) return "system";
  return SHARED_ROOTS.has(path) ? "shared_root" : "other";
}

/** Whether the driver's user owns `path` (not following a final symlink); null when unknown. */
export async function posixOwnedByUser(path: string): Promise<boolean | null> {
  const uid = Deno.uid();
  try {
    const info = await Deno.lstat(path);
    return uid === null || info.uid === null ? null : info.uid === uid;
  } catch {
    return null;
  }
}
