/**
 * The local files a launch's arguments name, so that bounded mode can hold them to the
 * manifest's file grants: an app opening a file is the app reading it for the agent (its
 * text reaches get_window_state), and may write it back.
 *
 * What counts as naming a file: a `file:` URL; an option's value after `=` that is a path
 * (starts with `/`, `./`, `../` or `~`); a plain argument with a `/` in it or starting with
 * `.` or `~` (apps do not expand `~`: it is a directory name under the working directory);
 * and a plain word that names an existing entry of the working directory. Paths resolve
 * against the app's working directory. A plain argument that is a URL of another scheme than
 * http, https, mailto or about is refused rather than guessed at (`view-source:file:...`,
 * GIO's `admin:` and `sftp:` reach files too).
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";

/** A local file an argument names. */
export interface ArgumentFile {
  /** The argument as the caller sent it. */
  argument: string;
  /** The absolute path it names. */
  path: string;
  /** True when something exists at that path now. */
  exists: boolean;
}

const URL_LIKE = /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/;
const REMOTE_SCHEMES = /^(https?|mailto|about):/i;

function absolute(path: string, cwd: string): string {
  return path.startsWith("/") ? path : `${cwd.replace(/\/+$/, "")}/${path}`;
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function fileUrlPath(argument: string, value: string): string {
  try {
    return decodeURIComponent(new URL(value).pathname);
  } catch {
    throw new DriverError(
      "invalid_arguments",
      `Argument ${JSON.stringify(argument)} is not a valid file URL`,
      {
        field: "additional_arguments",
        hint: "pass the file as an absolute path",
      },
    );
  }
}

/**
 * Lists the files `args` name (see the module header), resolved against `cwd`.
 *
 * @throws {DriverError} `bounded_resource_outside_manifest` for a URL of a scheme that may
 *   reach local files; `invalid_arguments` for a malformed file URL.
 */
export function argumentFiles(args: readonly string[], cwd = Deno.cwd()): ArgumentFile[] {
  const files: ArgumentFile[] = [];
  const add = (argument: string, path: string) => {
    const full = absolute(path, cwd);
    files.push({ argument, path: full, exists: exists(full) });
  };
  for (const argument of args) {
    const value = argument.trim();
    if (value.startsWith("-")) {
      const eq = value.indexOf("=");
      if (eq < 0) continue;
      const option = value.slice(eq + 1);
      if (/^file:/i.test(option)) add(argument, fileUrlPath(argument, option));
      else if (/^(\/|\.\.?\/|~)/.test(option)) add(argument, option);
      continue;
    }
    if (/^file:/i.test(value)) {
      add(argument, fileUrlPath(argument, value));
    } else if (URL_LIKE.test(value)) {
      if (REMOTE_SCHEMES.test(value)) continue;
      throw new DriverError(
        "bounded_resource_outside_manifest",
        `Permission denied: argument ${JSON.stringify(argument)} is a URL whose scheme may reach local files`,
        {
          tool: "launch_app",
          field: "additional_arguments",
          hint:
            "bounded mode passes http, https, mailto and about URLs and files inside the manifest's grants",
        },
      );
    } else if (value.includes("/") || value.startsWith(".") || value.startsWith("~")) {
      add(argument, value);
    } else if (value !== "" && exists(absolute(value, cwd))) {
      add(argument, value);
    }
  }
  return files;
}
