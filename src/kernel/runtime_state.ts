/**
 * Runtime-wide state shared by every session and transport. A feature's own runtime-wide state
 * (the browser store, the recorder, the agent cursors) sits in a typed {@linkcode StateSlot} the feature defines and
 * the composition root lists, so this module imports no feature.
 *
 * @module
 */
import { InputLock } from "./input_lock.ts";
import { allowAnyProgram, type LaunchPolicy } from "../features/permissions/launch_policy.ts";
import { type ResourceScope, UNBOUNDED_SCOPE } from "../features/permissions/resource_scope.ts";
import type { CallObserver } from "./call_observer.ts";
import { CaptureRegistry } from "./captures.ts";
import { ConfigStore } from "./config.ts";
import { InputStop } from "./input_stop.ts";
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

/**
 * A feature's runtime-wide state: the feature says when a tool needs it and how to make it
 * (loading its code then, and registering what it must, such as session clean-up or a call
 * observer); the runtime creates it the first time a tool that wants it runs.
 */
export interface StateSlot<T> {
  /** For messages. */
  readonly name: string;
  /** Whether a tool with these capabilities uses the slot. */
  wanted(capabilities: readonly string[]): boolean;
  create(state: RuntimeState): Promise<T>;
}

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
  /** Watchers of every authorized call (the recorder, once it exists). */
  readonly callObservers = new Set<CallObserver>();
  readonly #slots: readonly StateSlot<unknown>[];
  readonly #values = new Map<StateSlot<unknown>, unknown>();
  readonly #creating = new Map<StateSlot<unknown>, Promise<unknown>>();
  constructor(
    readonly config: ConfigStore = new ConfigStore(),
    readonly permissionMode: PermissionMode = "standard",
    /** The launcher's grants (`--grant existing-profile`), fixed at startup. */
    readonly grants: ReadonlySet<string> = new Set(),
    /** Bounded mode's check of the exact program launch_app is about to run. */
    readonly launchPolicy: LaunchPolicy = allowAnyProgram,
    /** What listings may show (bounded mode: only the manifest's apps). */
    readonly scope: ResourceScope = UNBOUNDED_SCOPE,
    /** The features' slots (src/runtime.ts lists them). */
    slots: readonly StateSlot<unknown>[] = [],
  ) {
    this.#slots = slots;
    // What a session owns goes when it ends.
    this.sessions.addCleanupHook("snapshots", (session) => this.snapshots.dropSession(session.id));
    this.sessions.addCleanupHook("captures", (session) => this.captures.dropSession(session.id));
    this.sessions.addCleanupHook("capture_policy", (session) => void this.capturePolicies.delete(session.id));
  }

  /**
   * Loads the state a tool keeps, by its capabilities, the first time such a tool runs (the
   * registry calls this before every call): each slot the tool wants (the browser store for
   * `browser.*` tools, the recorder for `recording.*` tools, the agent cursors for the tools that
   * create one). A one-shot CLI call of another tool never loads their code.
   */
  async prepare(capabilities: readonly string[]): Promise<void> {
    for (const slot of this.#slots) {
      if (this.#values.has(slot) || !slot.wanted(capabilities)) continue;
      let creating = this.#creating.get(slot);
      if (!creating) {
        creating = slot.create(this);
        this.#creating.set(slot, creating);
      }
      try {
        this.#values.set(slot, await creating);
      } finally {
        this.#creating.delete(slot);
      }
    }
  }

  /**
   * The value of `slot`.
   *
   * @throws {TypeError} before {@linkcode prepare} created it, or when the runtime was made without
   *   it (a programming error).
   */
  slot<T>(slot: StateSlot<T>): T {
    if (!this.#values.has(slot)) {
      throw new TypeError(`RuntimeState slot "${slot.name}" is used before prepare() created it`);
    }
    return this.#values.get(slot) as T;
  }

  /** The value of `slot`, or undefined while nothing created it. */
  peek<T>(slot: StateSlot<T>): T | undefined {
    return this.#values.get(slot) as T | undefined;
  }
}
