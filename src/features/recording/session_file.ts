/**
 * session.json: the recording's format version, clock origin, video and cursor track
 * (contract.md §7). Written when recording starts and rewritten when it stops, each
 * time through a temporary file and a rename, so it is never half written.
 *
 * @module
 */
import { join } from "node:path";
import { DriverError } from "../../ports/errors.ts";
import { readCallerFile, writeCallerFile } from "../../kernel/safe_files.ts";

/** The recording format this build writes and the newest it replays. */
export const RECORDING_SCHEMA_VERSION = 1;

/** The video entry of session.json. */
export type VideoEntry =
  | { present: false; error?: string }
  | { present: true; path: string; absolute_path: string; duration_ms?: number; finalized: boolean };

/** session.json. */
export interface SessionDocument {
  schema_version: number;
  /** Monotonic milliseconds (time since boot) when recording started; turn and cursor times count from here. */
  started_at_monotonic_ms: number;
  /** Wall-clock start, for people. */
  started_at: string;
  video: VideoEntry;
  cursor: { present: boolean; sample_count: number };
  /** Set by stop: the recording ended cleanly (absent after a crash). */
  stopped_at?: string;
  turn_count?: number;
}

/** session.json is a few hundred bytes; anything this large is not one. */
const SESSION_FILE_LIMIT = 1 << 20;

/** Writes session.json atomically (a new temporary file renamed over it; never through a link). */
export async function writeSessionFile(dir: string, doc: SessionDocument): Promise<void> {
  const bytes = new TextEncoder().encode(JSON.stringify(doc, null, 2) + "\n");
  await writeCallerFile(join(dir, "session.json"), bytes, { field: "output_dir" });
}

/**
 * Reads a recording's session.json, if it has one, and checks that this build can replay it.
 *
 * @returns The document, or null when the folder has no session.json (turns alone replay).
 * @throws {DriverError} `recording_format_unsupported` for a newer schema_version,
 *   `recording_invalid` for a session.json that is not a JSON object with an integer schema_version.
 */
export async function readSessionFile(dir: string): Promise<SessionDocument | null> {
  const path = join(dir, "session.json");
  let text: string;
  try {
    text = new TextDecoder().decode(
      (await readCallerFile(path, { field: "dir", maxBytes: SESSION_FILE_LIMIT })).bytes,
    );
  } catch (error) {
    if (error instanceof DriverError && /^No such file/.test(error.message)) return null;
    throw new DriverError("recording_invalid", `Cannot read ${path}: ${(error as Error).message}`, {
      path,
      hint: "pass the folder start_recording wrote into",
    });
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw invalid(path, `it is not valid JSON (${(error as Error).message})`);
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    throw invalid(path, "it is not an object");
  }
  const version = (doc as { schema_version?: unknown }).schema_version;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    throw invalid(path, "schema_version is missing or not a positive integer");
  }
  if (version > RECORDING_SCHEMA_VERSION) {
    throw new DriverError(
      "recording_format_unsupported",
      `Recording format ${version} is newer than this build supports (${RECORDING_SCHEMA_VERSION}): ${path}`,
      {
        path,
        schema_version: version,
        supported_schema_version: RECORDING_SCHEMA_VERSION,
        hint: "replay it with the cua-driver version that recorded it, or a newer one",
      },
    );
  }
  return doc as SessionDocument;
}

function invalid(path: string, why: string): DriverError {
  return new DriverError("recording_invalid", `${path} is not a recording's session.json: ${why}`, {
    path,
    hint: "pass the folder start_recording wrote into",
  });
}
