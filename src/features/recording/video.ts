/**
 * recording.mp4: the desktop grabbed by ffmpeg at 30 fps, H.264 ultrafast, yuv420p, as
 * the reference records it (linux.md §5). The back end says where ffmpeg grabs from
 * (`ScreenBackend.recordingSource`: x11grab on X11) and starts ffmpeg so that it ends
 * with the driver (`SpawnOptions.endWithDriver`): asked to finish, ffmpeg writes the
 * mp4's index; a killed driver leaves neither ffmpeg grabbing the screen forever nor an
 * mp4 without its index.
 *
 * @module
 */
import type { ScreenRecordingSource } from "../../ports/screen.ts";
import type { ExitStatus, ProcessHandle, SystemBackend } from "../../ports/system.ts";

/** How long stop waits for ffmpeg to finish the file before killing it. */
export const VIDEO_STOP_TIMEOUT_MS = 8_000;
/** How long start waits to see ffmpeg fail at once (bad display, missing encoder). */
const EARLY_EXIT_MS = 400;
const STDERR_TAIL_CHARS = 2_000;
/** Frames per second of every recording. */
export const VIDEO_FRAME_RATE = 30;

/** Where and how to record. */
export interface VideoOptions {
  ffmpeg: string;
  /** Where ffmpeg grabs from (the back end's `recordingSource`). */
  source: ScreenRecordingSource;
  /** The mp4 to write. */
  path: string;
}

/** The result of a finished video. */
export interface VideoResult {
  durationMs: number;
  /** ffmpeg finished the file (exit 0, or 255 after it was asked to finish). */
  finalized: boolean;
  error: string | null;
}

/** The ffmpeg arguments of a recording: the back end's input, then H.264 yuv420p into `path`. */
export function ffmpegArgs(options: Omit<VideoOptions, "ffmpeg">): string[] {
  return [
    "-hide_banner",
    "-loglevel",
    "error",
    "-nostdin",
    "-y",
    ...options.source.ffmpegInput,
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
  readonly #child: ProcessHandle;
  readonly #startedAt = performance.now();
  readonly #status: Promise<ExitStatus>;
  #stderr = "";
  #exited = false;
  #stopping: Promise<VideoResult> | null = null;

  private constructor(child: ProcessHandle) {
    this.#child = child;
    this.#status = child.status.finally(() => this.#exited = true);
    child.stderr?.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({
        write: (chunk) => void (this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL_CHARS)),
      }),
    ).catch(() => {});
  }

  /**
   * Starts ffmpeg and waits briefly to see it fail at once.
   *
   * @throws {Error} when ffmpeg exits right away; the message carries its stderr.
   */
  static async start(system: SystemBackend, options: VideoOptions): Promise<VideoCapture> {
    const child = await system.spawn([options.ffmpeg, ...ffmpegArgs(options)], {
      endWithDriver: true,
      stderr: "piped",
    });
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

  /** Resolves when ffmpeg exited, for whatever reason. */
  get exited(): Promise<ExitStatus> {
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

  /** Stops the recording (asks ffmpeg to finish, kills it after a timeout). Idempotent. */
  stop(timeoutMs = VIDEO_STOP_TIMEOUT_MS): Promise<VideoResult> {
    this.#stopping ??= this.#stop(timeoutMs);
    return this.#stopping;
  }

  async #stop(timeoutMs: number): Promise<VideoResult> {
    const durationMs = Math.round(performance.now() - this.#startedAt);
    this.#child.stop("interrupt");
    let timer: ReturnType<typeof setTimeout> | undefined;
    let killed = false;
    const timeout = new Promise<void>((resolve) =>
      timer = setTimeout(() => {
        killed = true;
        this.#child.stop("kill");
        resolve();
      }, timeoutMs)
    );
    await Promise.race([this.#status, timeout]);
    const status = await this.#status;
    clearTimeout(timer);
    // ffmpeg exits 255 after finishing the file when interrupted.
    const finalized = !killed && (status.code === 0 || status.code === 255);
    const error = finalized
      ? null
      : killed
      ? `ffmpeg did not stop within ${timeoutMs} ms and was killed`
      : `ffmpeg exited with code ${status.code}: ${this.#stderr.trim() || "no output"}`;
    return { durationMs, finalized, error };
  }
}
