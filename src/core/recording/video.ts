/**
 * recording.mp4: the X display grabbed by ffmpeg (x11grab, 30 fps, H.264 ultrafast,
 * yuv420p), as the reference records it (linux.md §5).
 *
 * ffmpeg runs under a small `sh` watchdog. Writing `q` to the watchdog's stdin stops
 * the recording, and so does the driver dying (its end of the pipe closes): either way
 * the watchdog sends ffmpeg SIGINT, on which ffmpeg finishes the file properly. Without
 * it, a killed driver would leave ffmpeg grabbing the screen forever and an mp4 without
 * its index.
 *
 * @module
 */

/** How long stop waits for ffmpeg to finish the file before killing it. */
export const VIDEO_STOP_TIMEOUT_MS = 8_000;
/** How long start waits to see ffmpeg fail at once (bad display, missing encoder). */
const EARLY_EXIT_MS = 400;
const STDERR_TAIL_CHARS = 2_000;

// $1 is ffmpeg, the rest its arguments. Prints ffmpeg's pid, then waits: a line or EOF on
// stdin sends it SIGINT. Exits with ffmpeg's status.
const WATCHDOG = `
exec 3<&0
"$@" </dev/null &
f=$!
echo "$f"
( read -r _ <&3; kill -INT "$f" 2>/dev/null ) &
w=$!
wait "$f"
code=$?
kill "$w" 2>/dev/null
exit "$code"
`;

/** Where and how to record. */
export interface VideoOptions {
  ffmpeg: string;
  /** The X display name (`:99`). */
  display: string;
  /** The area grabbed from the top-left of the screen; rounded down to even sizes for yuv420p. */
  width: number;
  height: number;
  /** The mp4 to write. */
  path: string;
  /** Draw the real pointer into the video (default true). */
  drawMouse?: boolean;
}

/** The result of a finished video. */
export interface VideoResult {
  durationMs: number;
  /** ffmpeg finished the file (exit 0, or 255 after the watchdog's SIGINT). */
  finalized: boolean;
  error: string | null;
}

/** The ffmpeg arguments for an x11grab recording. */
export function ffmpegArgs(options: VideoOptions): string[] {
  const width = options.width - (options.width % 2), height = options.height - (options.height % 2);
  return [
    "-hide_banner",
    "-loglevel",
    "error",
    "-nostdin",
    "-y",
    "-f",
    "x11grab",
    "-framerate",
    "30",
    "-draw_mouse",
    options.drawMouse === false ? "0" : "1",
    "-video_size",
    `${width}x${height}`,
    "-i",
    options.display,
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-pix_fmt",
    "yuv420p",
    options.path,
  ];
}

/** A running ffmpeg recording. */
export class VideoCapture {
  readonly #child: Deno.ChildProcess;
  readonly #stdin: WritableStreamDefaultWriter<Uint8Array>;
  readonly #startedAt = performance.now();
  readonly #status: Promise<Deno.CommandStatus>;
  readonly #ffmpegPid: Promise<number | null>;
  #stderr = "";
  #exited = false;
  #stopping: Promise<VideoResult> | null = null;

  private constructor(child: Deno.ChildProcess) {
    this.#child = child;
    this.#stdin = child.stdin.getWriter();
    this.#status = child.status.finally(() => this.#exited = true);
    child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({
        write: (chunk) => void (this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL_CHARS)),
      }),
    ).catch(() => {});
    this.#ffmpegPid = firstLine(child.stdout).then((line) => Number(line) || null, () => null);
  }

  /**
   * Starts ffmpeg and waits briefly to see it fail at once.
   *
   * @throws {Error} when ffmpeg exits right away; the message carries its stderr.
   */
  static async start(options: VideoOptions): Promise<VideoCapture> {
    const child = new Deno.Command("/bin/sh", {
      args: ["-c", WATCHDOG, "sh", options.ffmpeg, ...ffmpegArgs(options)],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const video = new VideoCapture(child);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const early = await Promise.race([
      video.#status.then((s) => s),
      new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), EARLY_EXIT_MS)),
    ]);
    clearTimeout(timer);
    if (early !== null) {
      await video.stop();
      throw new Error(`ffmpeg exited at once (code ${early.code}): ${video.#stderr.trim() || "no output"}`);
    }
    return video;
  }

  /** Resolves when ffmpeg (and its watchdog) exited, for whatever reason. */
  get exited(): Promise<Deno.CommandStatus> {
    return this.#status;
  }

  /** True while ffmpeg runs. */
  get active(): boolean {
    return !this.#exited;
  }

  /** What ffmpeg printed last. */
  get stderr(): string {
    return this.#stderr;
  }

  /** Stops the recording (`q` to the watchdog, then SIGKILL after a timeout). Idempotent. */
  stop(timeoutMs = VIDEO_STOP_TIMEOUT_MS): Promise<VideoResult> {
    this.#stopping ??= this.#stop(timeoutMs);
    return this.#stopping;
  }

  async #stop(timeoutMs: number): Promise<VideoResult> {
    const durationMs = Math.round(performance.now() - this.#startedAt);
    await this.#stdin.write(new TextEncoder().encode("q\n")).catch(() => {});
    await this.#stdin.close().catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    let killed = false;
    const timeout = new Promise<void>((resolve) =>
      timer = setTimeout(async () => {
        killed = true;
        const pid = await this.#ffmpegPid;
        for (const kill of [() => pid && Deno.kill(pid, "SIGKILL"), () => this.#child.kill("SIGKILL")]) {
          try {
            kill();
          } catch {
            // Already gone.
          }
        }
        resolve();
      }, timeoutMs)
    );
    await Promise.race([this.#status, timeout]);
    const status = await this.#status;
    clearTimeout(timer);
    // ffmpeg exits 255 after finishing the file on SIGINT.
    const finalized = !killed && (status.code === 0 || status.code === 255);
    const error = finalized
      ? null
      : killed
      ? `ffmpeg did not stop within ${timeoutMs} ms and was killed`
      : `ffmpeg exited with code ${status.code}: ${this.#stderr.trim() || "no output"}`;
    return { durationMs, finalized, error };
  }
}

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  try {
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return text.split("\n")[0].trim();
}
