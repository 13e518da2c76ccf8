/**
 * Capture through `/usr/sbin/screencapture`, for a macOS where the CoreGraphics
 * capture calls must not be used: macOS 15 removed `CGWindowListCreateImage` and
 * `CGDisplayCreateImage` from its SDK but not from the OS, and a process that still
 * calls them makes macOS ask the user, again every month, to let it "bypass the system
 * private window picker". Apple's own tool captures through ScreenCaptureKit under the
 * grant of the app that started the driver, so it asks nothing more.
 *
 * `-l <window id>` captures one window (`-o` without its shadow), `-D <n>` a display
 * (1 is the main one); `-x` silences the shutter sound. The PNG it writes is decoded
 * and its file removed.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import { decodePng } from "../../lib/image/png.ts";
import type { RawImage } from "../../ports/screen.ts";

/** Where Apple installs the tool. */
export const SCREENCAPTURE = "/usr/sbin/screencapture";

/** Runs a program to its end: its exit code and what it wrote to stderr. */
export type CommandRunner = (
  program: string,
  args: readonly string[],
) => Promise<{ code: number; stderr: string }>;

/** Runs a program with Deno.Command (no stdin, stdout discarded). */
export async function runCommand(
  program: string,
  args: readonly string[],
): Promise<{ code: number; stderr: string }> {
  const output = await new Deno.Command(program, {
    args: [...args],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  })
    .output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr).trim() };
}

/** What to capture. */
export type CaptureTarget = { window: number } | { display: number };

/**
 * Captures a window or a display with screencapture.
 *
 * @throws {DriverError} `capture_failed` with the tool's message when it writes no image.
 */
export async function screencapture(run: CommandRunner, target: CaptureTarget): Promise<RawImage> {
  const dir = await Deno.makeTempDir({ prefix: "cua-capture-" });
  const file = `${dir}/capture.png`;
  try {
    const args = "window" in target
      ? ["-x", "-o", "-l", String(target.window), "-t", "png", file]
      : ["-x", "-D", String(target.display), "-t", "png", file];
    const { code, stderr } = await run(SCREENCAPTURE, args);
    const bytes = await Deno.readFile(file).catch(() => null);
    if (code !== 0 || !bytes || bytes.length === 0) {
      const what = "window" in target ? `window ${target.window}` : `display ${target.display}`;
      throw new DriverError(
        "capture_failed",
        `screencapture wrote no image of ${what}: ${stderr || `exit ${code}`}`,
        {
          api: SCREENCAPTURE,
          hint:
            "a minimized window or one on another Space has no pixels; restore it, or use its accessibility tree",
        },
      );
    }
    return decodePng(bytes);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
