/**
 * Files the driver reads or writes for a caller (screenshot_out_file, image_path, a
 * recording folder, a `.desktop` file, ...). A caller path is never trusted to be what it
 * looks like:
 *
 * - its parent directory is resolved to a real path (symlinks in the middle are allowed,
 *   and judged by where they lead: see {@linkcode canonicalPath}, which grant checks use);
 * - the last component is opened with `O_NOFOLLOW`, so a symlink there is refused, never
 *   followed;
 * - only regular files are read or replaced: a FIFO, a device, a socket or a directory is
 *   refused (reads open with `O_NONBLOCK`, so even a FIFO swapped in at the last moment
 *   cannot block the driver), and nothing under the kernel's pseudo file systems is touched;
 * - a write creates a new temporary file with `O_EXCL` beside the target and renames it over
 *   the target, so the target is replaced atomically and nothing is written through a link.
 *
 * @module
 */
import { constants } from "node:fs";
import { lstat, open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { canonicalPath, expandCallerPath, isPseudoFile } from "./caller_paths.ts";
import { DriverError } from "../ports/errors.ts";

export { canonicalPath, expandCallerPath, isPseudoFile };

/** Flags that are 0 where the OS has no such flag. */
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_CLOEXEC = (constants as Record<string, number>).O_CLOEXEC ?? 0;

/** Reads above this size are refused unless the caller sets its own limit. */
export const DEFAULT_READ_LIMIT = 64 * 1024 * 1024;

function fileError(message: string, field: string, path: string, hint: string): DriverError {
  return new DriverError("file_error", message, { field, path, hint });
}

/**
 * The real parent directory and the last component of a caller path.
 *
 * @throws {DriverError} `file_error` when the parent does not exist or is not a directory,
 *   or the path is under a pseudo file system.
 */
export function resolveParent(path: string, field: string): { dir: string; name: string; path: string } {
  const absolute = expandCallerPath(path);
  const name = basename(absolute);
  if (name === "" || name === "." || name === "..") {
    throw fileError(`Not a file name: "${path}"`, field, absolute, "name a file, not a directory");
  }
  let dir: string;
  try {
    dir = Deno.realPathSync(dirname(absolute));
  } catch {
    throw fileError(
      `No such directory: "${dirname(absolute)}"`,
      field,
      absolute,
      "pass a path in an existing directory",
    );
  }
  const full = join(dir, name);
  if (isPseudoFile(full)) {
    throw fileError(
      `Not a regular file: "${path}" is under ${dir}`,
      field,
      full,
      "pass a path to a regular file",
    );
  }
  return { dir, name, path: full };
}

/**
 * Reads a caller's regular file, refusing symlinks (as the last component), FIFOs, devices
 * and files larger than `maxBytes`. `followLinks` lets a last-component link through, for
 * the driver's own lookups (installed desktop entries are often links); the target must
 * still be a regular file.
 *
 * @returns The bytes and the resolved path.
 * @throws {DriverError} `file_error`; `input_too_large` over the limit.
 */
export async function readCallerFile(
  path: string,
  options: { field: string; maxBytes?: number; followLinks?: boolean },
): Promise<{ bytes: Uint8Array; path: string }> {
  const { field } = options;
  const limit = options.maxBytes ?? DEFAULT_READ_LIMIT;
  const target = resolveParent(path, field);
  const noFollow = options.followLinks ? 0 : O_NOFOLLOW;
  let handle;
  try {
    handle = await open(target.path, constants.O_RDONLY | noFollow | O_NONBLOCK | O_CLOEXEC);
  } catch (error) {
    throw openFailed(error, path, field, target.path);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      throw fileError(`Not a regular file: "${path}"`, field, target.path, "pass a path to a regular file");
    }
    if (info.size > limit) {
      throw new DriverError(
        "input_too_large",
        `File "${path}" is ${info.size} bytes, over the ${limit}-byte limit`,
        {
          field,
          path: target.path,
          limit,
          size: info.size,
          hint: "pass a smaller file",
        },
      );
    }
    const bytes = new Uint8Array(info.size);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { bytes: filled === bytes.length ? bytes : bytes.subarray(0, filled), path: target.path };
  } finally {
    await handle.close();
  }
}

/**
 * Checks that a caller path names a regular file (opening it the way
 * {@linkcode readCallerFile} does) without reading it.
 *
 * @returns The resolved path.
 * @throws {DriverError} `file_error`.
 */
export async function checkCallerFile(path: string, options: { field: string }): Promise<string> {
  const target = resolveParent(path, options.field);
  let handle;
  try {
    handle = await open(target.path, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  } catch (error) {
    throw openFailed(error, path, options.field, target.path);
  }
  try {
    if (!(await handle.stat()).isFile()) {
      throw fileError(
        `Not a regular file: "${path}"`,
        options.field,
        target.path,
        "pass a path to a regular file",
      );
    }
    return target.path;
  } finally {
    await handle.close();
  }
}

/**
 * Writes bytes to a caller path: replaces a regular file atomically or creates a new one,
 * never writing through a symlink or into a FIFO or device.
 *
 * @returns The resolved path written.
 * @throws {DriverError} `file_error`.
 */
export async function writeCallerFile(
  path: string,
  bytes: Uint8Array,
  options: { field: string },
): Promise<string> {
  const { field } = options;
  const target = resolveParent(path, field);
  const existing = await lstat(target.path).catch(() => null);
  if (existing !== null && !existing.isFile()) {
    const what = existing.isSymbolicLink()
      ? "a symbolic link"
      : existing.isDirectory()
      ? "a directory"
      : "not a regular file";
    throw fileError(
      `Cannot write "${path}": it is ${what}`,
      field,
      target.path,
      "pass a new file name or a regular file",
    );
  }
  const temp = join(target.dir, `.${target.name}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  let handle;
  try {
    handle = await open(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW | O_CLOEXEC,
      existing?.mode !== undefined ? existing.mode & 0o777 : 0o644,
    );
  } catch (error) {
    throw openFailed(error, path, field, target.path);
  }
  try {
    let written = 0;
    while (written < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
      written += bytesWritten;
    }
    await handle.close();
    handle = null;
    await rename(temp, target.path);
  } catch (error) {
    await handle?.close().catch(() => {});
    await unlink(temp).catch(() => {});
    if (error instanceof DriverError) throw error;
    throw fileError(
      `Cannot write "${path}": ${(error as Error).message}`,
      field,
      target.path,
      "pass a path in a writable directory",
    );
  }
  return target.path;
}

function openFailed(error: unknown, path: string, field: string, resolved: string): DriverError {
  const code = (error as { code?: string }).code;
  if (code === "ELOOP") {
    return fileError(
      `Refusing "${path}": it is a symbolic link`,
      field,
      resolved,
      "pass the real file's path",
    );
  }
  if (code === "ENOENT") {
    return fileError(`No such file: "${path}"`, field, resolved, "check the path exists");
  }
  if (code === "EACCES" || code === "EPERM") {
    return fileError(
      `Permission denied: "${path}"`,
      field,
      resolved,
      "pass a file the driver's user may use",
    );
  }
  return fileError(`Cannot open "${path}": ${(error as Error).message}`, field, resolved, "check the path");
}
