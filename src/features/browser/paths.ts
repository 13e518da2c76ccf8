/**
 * Path checks for the browser's file tools: upload files must be absolute regular
 * files reached without any symlink; a download root must be an approved directory.
 *
 * "Approved" download roots: in bounded mode the authorizer has already required the
 * root to lie inside the manifest's `files.write`; in every mode the root must be an
 * absolute, existing directory reached without symlinks, owned by the driver's user,
 * and not a system directory or a shared root such as `/tmp` itself.
 *
 * @module
 */
import { isAbsolute, normalize } from "node:path";
import type { SystemBackend } from "../../ports/system.ts";
import { DriverError } from "../../ports/errors.ts";

/** Most files one browser_set_input_files call may assign. */
export const MAX_UPLOAD_FILES = 32;

function scopeInvalid(message: string, path: string, reason: string, hint: string): DriverError {
  return new DriverError("protected_resource_scope_invalid", message, { path, reason, hint });
}

/**
 * Resolves and checks that `path` names an existing object with no symlink on the way.
 *
 * @throws {DriverError} `protected_resource_scope_invalid` (relative, missing, symlink).
 */
async function canonical(path: string, what: string): Promise<Deno.FileInfo> {
  if (!isAbsolute(path)) {
    throw scopeInvalid(
      `${what} ${JSON.stringify(path)} is not an absolute path`,
      path,
      "not_absolute",
      `pass an absolute path such as /home/me/file.txt`,
    );
  }
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch {
    throw scopeInvalid(
      `${what} ${JSON.stringify(path)} does not exist`,
      path,
      "missing",
      "pass an existing path",
    );
  }
  if (info.isSymlink) {
    throw scopeInvalid(
      `${what} ${JSON.stringify(path)} is a symbolic link`,
      path,
      "symlink",
      "pass the real path the link points to, after checking it",
    );
  }
  const real = await Deno.realPath(path);
  if (real !== normalize(path).replace(/(.)\/+$/, "$1")) {
    throw scopeInvalid(
      `${what} ${JSON.stringify(path)} is reached through a symbolic link (really ${real})`,
      path,
      "symlink_component",
      `pass ${real} instead, after checking it`,
    );
  }
  return info;
}

/**
 * Checks the files of an upload.
 *
 * @throws {DriverError} `protected_resource_scope_invalid` for a relative, missing,
 *   symlinked or non-regular file, or more than 32 files.
 */
export async function checkUploadFiles(files: readonly string[]): Promise<void> {
  if (files.length > MAX_UPLOAD_FILES) {
    throw scopeInvalid(
      `At most ${MAX_UPLOAD_FILES} files per call`,
      files[MAX_UPLOAD_FILES],
      "too_many_files",
      "split the upload",
    );
  }
  for (const file of files) {
    const info = await canonical(file, "File");
    if (!info.isFile) {
      throw scopeInvalid(
        `File ${JSON.stringify(file)} is not a regular file`,
        file,
        "not_regular_file",
        "pass regular files only",
      );
    }
  }
}

/**
 * Checks a download root (see the module comment for what is approved).
 *
 * @throws {DriverError} `protected_resource_scope_invalid`.
 */
export async function checkDownloadRoot(system: SystemBackend, root: string): Promise<string> {
  const info = await canonical(root, "Download root");
  const path = normalize(root).replace(/(.)\/+$/, "$1");
  if (!info.isDirectory) {
    throw scopeInvalid(
      `Download root ${JSON.stringify(root)} is not a directory`,
      root,
      "not_directory",
      "pass an existing directory",
    );
  }
  const kind = system.classifyDirectory(path);
  if (kind !== "other") {
    throw scopeInvalid(
      `Download root ${JSON.stringify(root)} is outside the approved directories (${
        kind === "system" ? "a system directory" : "a shared root"
      })`,
      root,
      "outside_approved_directories",
      "pass a directory of your own, such as ~/Downloads or a directory you created",
    );
  }
  if ((await system.ownedByUser(path)) === false) {
    throw scopeInvalid(
      `Download root ${JSON.stringify(root)} is outside the approved directories (owned by another user)`,
      root,
      "outside_approved_directories",
      "pass a directory the driver's user owns",
    );
  }
  return path;
}
