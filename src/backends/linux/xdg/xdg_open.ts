/**
 * Opening URLs and files with the desktop's default handler through `xdg-open`
 * (xdg-utils).
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";
import { type ResolvedProgram, resolveProgram } from "../../posix/program_path.ts";
import { joinCommandLine } from "./command_line.ts";

/** How long to watch xdg-open for a fast failure (matches cua-driver's 1.5 s watch). */
export const XDG_OPEN_WATCH_MS = 1500;

/** What xdg-open's documented exit codes mean. */
const EXIT_MEANINGS: Record<number, string> = {
  1: "syntax error",
  2: "file does not exist",
  3: "a required tool could not be found",
  4: "the action failed",
};

/** True for text that looks like a URL (`https://…`, `file:///…`, `mailto:…`). */
export function looksLikeUrl(text: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text) || /^(mailto|tel|about|magnet):/i.test(text);
}

/**
 * Finds xdg-open on the launched apps' PATH.
 *
 * @throws {DriverError} `launch_failed` when it is not installed.
 */
export function findXdgOpen(env: Record<string, string>, target: string): ResolvedProgram {
  const program = resolveProgram("xdg-open", { path: env.PATH ?? Deno.env.get("PATH") });
  if (program === null) {
    throw new DriverError(
      "launch_failed",
      `Cannot open ${JSON.stringify(target)}: xdg-open is not installed`,
      {
        hint: "install xdg-utils, or pass launch_path naming the program that should open it",
      },
    );
  }
  return program;
}

/**
 * Opens each target with `xdg-open`, detached, and watches each for
 * {@linkcode XDG_OPEN_WATCH_MS}: a non-zero exit within that time is a failure; a
 * handler still running after it (some xdg-open back ends exec the app) is a success.
 *
 * @param program The real path of xdg-open (see {@linkcode findXdgOpen}).
 * @param targets URLs or existing paths.
 * @param env Environment for the child (the desktop session's variables included).
 * @returns The command line that ran.
 * @throws {DriverError} `launch_failed` when xdg-open cannot start or exits non-zero.
 */
export async function xdgOpen(
  program: string,
  targets: readonly string[],
  env: Record<string, string>,
): Promise<string> {
  await Promise.all(targets.map((target) => openOne(program, target, env)));
  return targets.map((t) => joinCommandLine(["xdg-open", t])).join("; ");
}

async function openOne(program: string, target: string, env: Record<string, string>): Promise<void> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args: [target],
      env,
      detached: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
  } catch (error) {
    throw new DriverError("launch_failed", `Cannot start xdg-open: ${(error as Error).message}`, {
      hint: "check that xdg-open runs in the desktop session",
    }, { cause: error });
  }
  child.unref();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watch = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), XDG_OPEN_WATCH_MS);
  });
  // The status promise keeps running after the race, so the child is reaped either way.
  const status = await Promise.race([child.status.catch(() => null), watch]);
  clearTimeout(timer);
  if (status !== null && !status.success) {
    const meaning = EXIT_MEANINGS[status.code] ?? `exit code ${status.code}`;
    throw new DriverError("launch_failed", `xdg-open could not open ${JSON.stringify(target)}: ${meaning}`, {
      hint: "check the URL or path, or pass launch_path naming the program that should open it",
      exitCode: status.code,
    });
  }
}
