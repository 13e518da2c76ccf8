/**
 * OSWorld's file endpoints, confined to one folder the operator names (`--files-root`): `/file`
 * reads a file (OSWorld's evaluators fetch results with it) and `/setup/upload` writes one (its
 * task setup). A path is resolved through every symlink first (canonicalPath), so one that leads
 * outside the folder is refused; without a folder both endpoints refuse.
 *
 * @module
 */
import { dirname } from "node:path";
import { canonicalPath } from "../../kernel/caller_paths.ts";

/** A refusal of a file request, with its HTTP status. */
export class FileRefusal extends Error {
  override name = "FileRefusal";
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/**
 * The canonical path of `path` when it lies inside `root`.
 *
 * @throws {FileRefusal} 403 outside the root or without one; 400 for a relative or empty path.
 */
export function confined(root: string | null, path: unknown): string {
  if (root === null) {
    throw new FileRefusal(403, "file access is off (start osworld-server with --files-root DIR)");
  }
  if (typeof path !== "string" || path === "" || !(path.startsWith("/") || path.startsWith("~/"))) {
    throw new FileRefusal(400, "file_path must be an absolute path");
  }
  const real = canonicalPath(path);
  const base = canonicalPath(root);
  if (!real.startsWith(base.endsWith("/") ? base : `${base}/`)) {
    throw new FileRefusal(403, "file_path is outside the files root");
  }
  return real;
}

/** The bytes of a file inside the root. */
export async function readConfined(root: string | null, path: unknown): Promise<Uint8Array> {
  const real = confined(root, path);
  try {
    const info = await Deno.stat(real);
    if (!info.isFile) throw new FileRefusal(400, "file_path is not a file");
    return await Deno.readFile(real);
  } catch (error) {
    if (error instanceof FileRefusal) throw error;
    throw new FileRefusal(404, "no such file");
  }
}

/** Writes `data` to a file inside the root, creating its folders. */
export async function writeConfined(root: string | null, path: unknown, data: Uint8Array): Promise<void> {
  const real = confined(root, path);
  await Deno.mkdir(dirname(real), { recursive: true });
  // The folders just made may not contain a symlink out, but check the result again.
  confined(root, real);
  await Deno.writeFile(real, data);
}
