/**
 * The daemon-wide recorder (contract.md §7): one recording at a time, owned by the
 * session that started it and stopped when that session ends. It watches every call
 * through the registry's call observers and turns each recorded one into a turn folder.
 *
 * Per turn, on the action path: target planning, the before capture (pixels and tree)
 * and the call. Off it, while the answer goes back: the after capture (started as soon as
 * the call returned), PNG encoding and the atomic write of the folder, which the next
 * recorded call waits for.
 *
 * @module
 */
import { isAbsolute, join, resolve } from "node:path";
import type { Backend } from "../../ports/backend.ts";
import type { SystemBackend } from "../../ports/system.ts";
import type { CallFinisher, CallObserver, ObservedCall } from "../../kernel/call_observer.ts";
import { DriverError } from "../../ports/errors.ts";
import type { TransportKind } from "../../kernel/session.ts";
import { CursorTrack } from "./cursor_track.ts";
import { findFfmpeg } from "./ffmpeg.ts";
import { isRecorded } from "./policy.ts";
import {
  RECORDING_SCHEMA_VERSION,
  type SessionDocument,
  type VideoEntry,
  writeSessionFile,
} from "./session_file.ts";
import { captureAfter, startTurn, turnContent } from "./turn.ts";
import { isTurnFolderName, writeTurn } from "./turn_writer.ts";
import { VIDEO_FRAME_RATE, VideoCapture } from "./video.ts";

/**
 * Longest a recorded call waits for the previous one (a call that never returns must not
 * stall every later one).
 */
const TURN_WAIT_MS = 60_000;

/** The video file's name inside the recording folder. */
export const VIDEO_FILE = "recording.mp4";

/** Who started the recording. */
export interface RecordingOwner {
  sessionId: string;
  /** The session's public label; null for a connection's implicit session. */
  session: string | null;
  transport: TransportKind;
}

/** The recording state object every recording tool returns (contract.md §1.9). */
export interface RecordingState {
  recording: boolean;
  enabled: boolean;
  output_dir: string | null;
  next_turn: number;
  last_error: string | null;
  video_active: boolean;
  last_video_path: string | null;
  owner: { session: string | null; transport: TransportKind } | null;
}

/** What start_recording asks for. */
export interface StartOptions {
  /** Absolute, or starting with `~/`. */
  outputDir: string;
  recordVideo: boolean;
  owner: RecordingOwner;
}

/** Seams for tests. */
export interface RecorderOptions {
  findFfmpeg?: (system: SystemBackend) => Promise<string | null>;
}

interface ActiveRecording {
  readonly dir: string;
  readonly owner: RecordingOwner;
  readonly startedPerf: number;
  readonly doc: SessionDocument;
  readonly cursor: CursorTrack | null;
  video: VideoCapture | null;
  readonly pending: Set<Promise<void>>;
  turnCount: number;
  stopping: boolean;
}

/** One recorder per runtime. */
export class Recorder implements CallObserver {
  readonly #findFfmpeg: (system: SystemBackend) => Promise<string | null>;
  #active: ActiveRecording | null = null;
  #nextTurn = 1;
  #lastError: string | null = null;
  #lastVideoPath: string | null = null;
  #lastOutputDir: string | null = null;
  /** Serializes start and stop. */
  #queue: Promise<unknown> = Promise.resolve();
  /** Resolves when the latest recorded turn is written: recorded calls take turns. */
  #turnChain: Promise<void> = Promise.resolve();

  constructor(options: RecorderOptions = {}) {
    this.#findFfmpeg = options.findFfmpeg ?? findFfmpeg;
  }

  /** The state object the recording tools return. */
  state(): RecordingState {
    const active = this.#active;
    return {
      recording: active !== null,
      enabled: active !== null,
      output_dir: active?.dir ?? this.#lastOutputDir,
      next_turn: this.#nextTurn,
      last_error: this.#lastError,
      video_active: active?.video?.active ?? false,
      last_video_path: this.#lastVideoPath,
      owner: active ? { session: active.owner.session, transport: active.owner.transport } : null,
    };
  }

  /**
   * Starts recording into `outputDir` (created if needed), replacing any recording in
   * progress. A folder that already holds a recording is refused, so nothing recorded is
   * ever overwritten.
   *
   * @throws {DriverError} `invalid_arguments` for a relative path or a folder that holds a
   *   recording, `file_error` when the folder cannot be created or written.
   */
  start(backend: Backend, options: StartOptions): Promise<RecordingState> {
    return this.#serialize(async () => {
      const dir = await prepareRecordingDir(expandOutputDir(options.outputDir));
      await this.#stop();
      const highest = await clearPartials(dir);
      const startedPerf = performance.now();
      const doc: SessionDocument = {
        schema_version: RECORDING_SCHEMA_VERSION,
        started_at_monotonic_ms: backend.system.monotonicMs(),
        started_at: new Date().toISOString(),
        video: { present: false },
        cursor: { present: true, sample_count: 0 },
      };
      this.#lastError = null;
      const sinceMs = () => Math.round(performance.now() - startedPerf);
      let cursor: CursorTrack | null = null;
      try {
        cursor = await CursorTrack.start(dir, () => backend.screen.cursorPosition(), sinceMs);
        await writeSessionFile(dir, doc);
      } catch (error) {
        await cursor?.stop();
        throw fileError(dir, error);
      }
      const active: ActiveRecording = {
        dir,
        owner: options.owner,
        startedPerf,
        doc,
        cursor,
        video: null,
        pending: new Set(),
        turnCount: 0,
        stopping: false,
      };
      this.#active = active;
      this.#nextTurn = highest + 1;
      this.#lastOutputDir = dir;
      if (options.recordVideo) await this.#startVideo(active, backend);
      return this.state();
    });
  }

  /** Stops whatever is recording (unconditional, idempotent) and finishes session.json. */
  stop(): Promise<RecordingState> {
    return this.#serialize(async () => {
      await this.#stop();
      return this.state();
    });
  }

  /** Whether a recording owned by this session is in progress. */
  ownedBy(sessionId: string): boolean {
    return this.#active?.owner.sessionId === sessionId;
  }

  /** Session cleanup: a recording stops when the session that owns it ends. */
  async sessionEnded(sessionId: string): Promise<void> {
    if (this.ownedBy(sessionId)) await this.stop();
  }

  /**
   * The call observer: reserves a turn and captures before evidence for recorded calls.
   *
   * Recorded calls take turns: each waits until the previous turn's folder is written, so
   * its before evidence shows the state its call acts on (not one a queued call will
   * change first) and a crash loses at most the turn in progress and the one before it,
   * whose folder is written while its answer travels back.
   */
  async before(call: ObservedCall): Promise<CallFinisher | null> {
    if (!this.#active || !isRecorded(call.tool)) return null;
    const release = await this.#takeTurn();
    const active = this.#active;
    if (!active || active.stopping) {
      release();
      return null;
    }
    const number = this.#nextTurn++;
    active.turnCount++;
    const sinceMs = () => Math.round(performance.now() - active.startedPerf);
    let turn;
    try {
      turn = await startTurn(number, call, sinceMs());
    } catch (error) {
      release();
      throw error;
    }
    return (result) => {
      // The after evidence is captured at once but off the action path: no recorded call can
      // change the app before it, since the next one waits for this turn's folder.
      const endedMs = sinceMs(), endedAt = Date.now();
      const job = (async () => {
        const after = await captureAfter(turn);
        await writeTurn(active.dir, number, turnContent(turn, after, result, endedMs, endedAt));
      })().catch((error) =>
        void (this.#lastError = `turn ${number} was not written: ${(error as Error).message}`)
      );
      active.pending.add(job);
      job.finally(() => {
        active.pending.delete(job);
        release();
      });
    };
  }

  /** Waits for the previous turn to be written (at most TURN_WAIT_MS); returns the release. */
  async #takeTurn(): Promise<() => void> {
    const previous = this.#turnChain;
    let release!: () => void;
    this.#turnChain = new Promise<void>((resolve) => release = resolve);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([previous, new Promise((resolve) => timer = setTimeout(resolve, TURN_WAIT_MS))]);
    clearTimeout(timer);
    return release;
  }

  async #startVideo(active: ActiveRecording, backend: Backend): Promise<void> {
    const path = join(active.dir, VIDEO_FILE);
    const fail = (why: string) => {
      this.#lastError = `video not recorded: ${why}; turns are still recorded`;
      active.doc.video = { present: false, error: why };
    };
    const ffmpeg = await this.#findFfmpeg(backend.system);
    if (!ffmpeg) return fail("ffmpeg is not installed (install_ffmpeg previews how to install it)");
    try {
      const drawCursor = Deno.env.get("CUA_DRIVER_RS_DRAW_SYSTEM_CURSOR") !== "0";
      const source = await backend.screen.recordingSource({ frameRate: VIDEO_FRAME_RATE, drawCursor });
      const video = await VideoCapture.start(backend.system, { ffmpeg, source, path });
      active.video = video;
      active.doc.video = { present: true, path: VIDEO_FILE, absolute_path: path, finalized: false };
      this.#lastVideoPath = path;
      video.exited.then(() => {
        if (this.#active === active && !active.stopping) {
          this.#lastError = `video stopped early: ${video.stderr.trim() || "ffmpeg exited"}`;
        }
      });
      await writeSessionFile(active.dir, active.doc);
    } catch (error) {
      fail((error as Error).message);
    }
  }

  async #stop(): Promise<void> {
    const active = this.#active;
    if (!active) return;
    active.stopping = true;
    this.#active = null;
    const sampleCount = (await active.cursor?.stop()) ?? 0;
    let video: VideoEntry = active.doc.video;
    if (active.video && video.present) {
      const result = await active.video.stop();
      video = { ...video, duration_ms: result.durationMs, finalized: result.finalized };
      if (result.error) this.#lastError = `video: ${result.error}`;
    }
    await Promise.allSettled([...active.pending]);
    const doc: SessionDocument = {
      ...active.doc,
      video,
      cursor: { present: active.cursor !== null, sample_count: sampleCount },
      stopped_at: new Date().toISOString(),
      turn_count: active.turnCount,
    };
    try {
      await writeSessionFile(active.dir, doc);
    } catch (error) {
      this.#lastError = `session.json was not rewritten: ${(error as Error).message}`;
    }
  }

  #serialize<T>(body: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(body, body);
    this.#queue = run.catch(() => {});
    return run;
  }
}

/**
 * Expands `~/` and checks that the path is absolute.
 *
 * @throws {DriverError} `invalid_arguments` (field `output_dir`) for a relative path.
 */
export function expandOutputDir(path: string, field = "output_dir"): string {
  const home = Deno.env.get("HOME") ?? "/";
  const expanded = path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path;
  if (!isAbsolute(expanded)) {
    throw new DriverError("invalid_arguments", `${field} must be absolute or start with ~/, not "${path}"`, {
      field,
      hint: "pass an absolute folder such as ~/cua-recordings/run-1",
    });
  }
  return resolve(expanded);
}

/** Files and folders that mark a recording; a folder holding any of them is not recorded into again. */
const RECORDING_MARKS = /^(session\.json|cursor\.jsonl|recording\.mp4|turn-\d{5,})$/;

/**
 * Creates the folder (and its parents) if needed and returns its real path.
 *
 * @throws {DriverError} `invalid_arguments` when it already holds a recording;
 *   `file_error` when it cannot be created or is not a folder.
 */
async function prepareRecordingDir(dir: string): Promise<string> {
  let real: string;
  try {
    await Deno.mkdir(dir, { recursive: true });
    real = await Deno.realPath(dir);
    if (!(await Deno.stat(real)).isDirectory) throw new Error("not a folder");
  } catch (error) {
    throw fileError(dir, error);
  }
  for await (const entry of Deno.readDir(real)) {
    if (RECORDING_MARKS.test(entry.name)) {
      throw new DriverError(
        "invalid_arguments",
        `Folder "${dir}" already holds a recording (${entry.name})`,
        {
          field: "output_dir",
          path: real,
          hint: "pass a new or empty folder; replay_trajectory replays the one that is there",
        },
      );
    }
  }
  return real;
}

/** Removes half-written turns a crash left behind; returns the highest complete turn number. */
async function clearPartials(dir: string): Promise<number> {
  let highest = 0;
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory && /^\.turn-\d+\.partial$/.test(entry.name)) {
      await Deno.remove(join(dir, entry.name), { recursive: true }).catch(() => {});
    } else if (entry.isDirectory && isTurnFolderName(entry.name)) {
      highest = Math.max(highest, Number(entry.name.slice(5)));
    }
  }
  return highest;
}

function fileError(dir: string, error: unknown): DriverError {
  return new DriverError("file_error", `Cannot record into "${dir}": ${(error as Error).message}`, {
    path: dir,
    hint: "pass a folder you can write to",
  });
}
