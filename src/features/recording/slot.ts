/**
 * The recording feature's runtime-wide state (the one recorder) as a runtime slot: created, with
 * its code loaded, when a `recording.*` tool first runs; from then on it watches every call as a
 * call observer, and a recording stops when the session that owns it ends.
 *
 * @module
 */
import type { RuntimeState, StateSlot } from "../../kernel/runtime_state.ts";
import type { Recorder } from "./recorder.ts";

/** The slot of the runtime-wide {@linkcode Recorder}. */
export const RECORDER: StateSlot<Recorder> = {
  name: "recording",
  wanted: (capabilities) => capabilities.some((c) => c.startsWith("recording.")),
  async create(state) {
    const { Recorder } = await import("./recorder.ts");
    const recorder = new Recorder();
    // Only a recording tool starts a recording: from now on the recorder watches every call.
    state.callObservers.add(recorder);
    state.sessions.addCleanupHook("recording", (session) => recorder.sessionEnded(session.id));
    return recorder;
  },
};

/**
 * The runtime's recorder.
 *
 * @throws {TypeError} before a recording tool's prepare created it (a programming error).
 */
export function recorderOf(state: RuntimeState): Recorder {
  return state.slot(RECORDER);
}

/** True while session `sessionId` owns the active recording (false when no recorder exists). */
export function recordingOwnedBy(state: RuntimeState, sessionId: string): boolean {
  return state.peek(RECORDER)?.ownedBy(sessionId) ?? false;
}
