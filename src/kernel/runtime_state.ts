/**
 * Runtime-wide state shared by every session and transport.
 *
 * @module
 */
import { InputLock } from "./input_lock.ts";
import { allowAnyProgram, type LaunchPolicy } from "../features/permissions/launch_policy.ts";
import { type ResourceScope, UNBOUNDED_SCOPE } from "../features/permissions/resource_scope.ts";
import type { CallObserver } from "./call_observer.ts";
import { AgentCursorStore } from "../features/agent_cursor/session_cursors.ts";
import type { BrowserStore } from "../features/browser/store.ts";
import { CaptureRegistry } from "./captures.ts";
import { ConfigStore } from "./config.ts";
import { InputStop } from "./input_stop.ts";
import type { Recorder } from "../features/recording/recorder.ts";
import { SessionManager } from "./session.ts";
import { SnapshotStore } from "./snapshots.ts";

/** The deprecated capture-scope policy of a session (start_session/escalate_session). */
export interface CapturePolicy {
  captureScope: "auto" | "window" | "desktop";
  desktopUnlocked: boolean;
  escalationReason: string | null;
  escalationDetail: string | null;
}

/** A process this runtime launched, remembered so kill_app can prove ownership. */
export interface LaunchedProcess {
  readonly pid: number;
  /** Start time as the back end reports it (`AppBackend.startTime`), to detect pid reuse. */
  readonly startTime: string | null;
  readonly command: string;
}

/** Permission modes, fixed at startup (contract.md §6). */
export type PermissionMode = "standard" | "bounded" | "unrestricted";

/** State owned by the runtime, not by any one connection. */
export class RuntimeState {
  readonly snapshots = new SnapshotStore();
  readonly captures = new CaptureRegistry();
  readonly sessions = new SessionManager();
  readonly launched = new Map<number, LaunchedProcess>();
  /** One action at a time, runtime-wide. */
  readonly inputLock = new InputLock();
  /** The person's stop switch: while thrown, acting calls are refused (`input_stopped`). */
  readonly inputStop = new InputStop();
  /** Legacy capture-scope policies by session id. */
  readonly capturePolicies = new Map<string, CapturePolicy>();
  /** Each session's agent cursor (its code loads in {@linkcode prepare}, for the tools that create one). */
  readonly agentCursors = new AgentCursorStore();
  /** Watchers of every authorized call (the recorder, once it exists). */
  readonly callObservers = new Set<CallObserver>();
  #browsers: BrowserStore | null = null;
  #recorder: Recorder | null = null;
  constructor(
    readonly config: ConfigStore = new ConfigStore(),
    readonly permissionMode: PermissionMode = "standard",
    /** The launcher's grants (`--grant existing-profile`), fixed at startup. */
    readonly grants: ReadonlySet<string> = new Set(),
    /** Bounded mode's check of the exact program launch_app is about to run. */
    readonly launchPolicy: LaunchPolicy = allowAnyProgram,
    /** What listings may show (bounded mode: only the manifest's apps). */
    readonly scope: ResourceScope = UNBOUNDED_SCOPE,
  ) {
    // What a session owns goes when it ends.
    this.sessions.addCleanupHook("snapshots", (session) => this.snapshots.dropSession(session.id));
    this.sessions.addCleanupHook("captures", (session) => this.captures.dropSession(session.id));
    this.sessions.addCleanupHook("capture_policy", (session) => void this.capturePolicies.delete(session.id));
    this.sessions.addCleanupHook("recording", (session) => this.#recorder?.sessionEnded(session.id));
    this.sessions.addCleanupHook("agent_cursor", (session) => this.agentCursors.drop(session.id));
    this.sessions.addCleanupHook("browser", (session) => this.#browsers?.dropSession(session.id));
  }

  /**
   * Loads the state a tool keeps, by its capabilities, the first time such a tool runs (the
   * registry calls this before every call): the browser store for `browser.*` tools, the
   * trajectory recorder for `recording.*` tools, the agent cursor's code for the tools that
   * create a session's cursor (`agent_cursor.*`, and start_session, which can theme it). A
   * one-shot CLI call of another tool never loads their code.
   */
  async prepare(capabilities: readonly string[]): Promise<void> {
    if (capabilities.some((c) => c.startsWith("agent_cursor.") || c === "session.lifecycle.start")) {
      await this.agentCursors.load();
    }
    if (!this.#browsers && capabilities.some((c) => c.startsWith("browser."))) {
      const { BrowserStore } = await import("../features/browser/store.ts");
      this.#browsers ??= new BrowserStore();
    }
    if (!this.#recorder && capabilities.some((c) => c.startsWith("recording."))) {
      const { Recorder } = await import("../features/recording/recorder.ts");
      if (!this.#recorder) {
        this.#recorder = new Recorder();
        // Only a recording tool starts a recording: from now on the recorder watches every call.
        this.callObservers.add(this.#recorder);
      }
    }
  }

  /**
   * Browsers launched or admitted, and each session's bound targets, tabs and refs.
   *
   * @throws {TypeError} before {@linkcode prepare} loaded it (a programming error).
   */
  get browsers(): BrowserStore {
    if (!this.#browsers) throw new TypeError("RuntimeState.browsers is used before prepare() loaded it");
    return this.#browsers;
  }

  /**
   * The runtime-wide trajectory recorder.
   *
   * @throws {TypeError} before {@linkcode prepare} loaded it (a programming error).
   */
  get recorder(): Recorder {
    if (!this.#recorder) throw new TypeError("RuntimeState.recorder is used before prepare() loaded it");
    return this.#recorder;
  }

  /** True while session `sessionId` owns the active recording (false when no recorder exists). */
  recordingOwnedBy(sessionId: string): boolean {
    return this.#recorder?.ownedBy(sessionId) ?? false;
  }
}
