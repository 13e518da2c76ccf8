/**
 * The person's stop switch: while input is stopped, every call that would act on the desktop or
 * its apps is refused with `input_stopped`, and the calls already acting were aborted when the
 * switch was thrown. Observation keeps working. Only a person resumes (the live view's page or
 * the CLI through the daemon): no tool does, so an agent cannot undo its own stop.
 *
 * @module
 */
import { abortReason } from "./call_abort.ts";
import { DriverError } from "../ports/errors.ts";
import type { HeldInput } from "./held_input.ts";
import type { RuntimeState } from "./runtime_state.ts";
import type { AnyTool } from "./tool.ts";

/** Tool groups whose changing calls reach the desktop or an app. */
const ACTING_GROUPS: ReadonlySet<string> = new Set([
  "apps",
  "windows",
  "accessibility",
  "input",
  "clipboard",
  "browser",
]);

/**
 * True for a tool the stop switch refuses: one that changes something and acts on the desktop,
 * an app or a browser (input, launch/kill, window moves, menus, clipboard writes, browser
 * actions), or replays recorded actions. Read-only tools and the session, configuration and
 * recording bookkeeping tools are not stopped.
 */
export function stopsWithInput(tool: AnyTool): boolean {
  if (tool.hints.readOnly) return false;
  return ACTING_GROUPS.has(tool.group) || tool.capabilities.includes("recording.replay");
}

/** The switch's state as status replies and the live view show it. */
export interface InputStopState {
  stopped: boolean;
  /** Who threw the switch ("view", "cli", "mcp", ...) and when (epoch ms); null while running. */
  by: string | null;
  since_ms: number | null;
}

/** What {@linkcode InputStop.stop} did. */
export interface StopOutcome {
  /** False when input was already stopped. */
  changed: boolean;
  /** Acting calls that were running and were aborted. */
  aborted: number;
}

/** The runtime-wide stop switch and the acting calls it can abort. */
export class InputStop {
  #state: InputStopState = { stopped: false, by: null, since_ms: null };
  readonly #running = new Set<AbortController>();
  readonly #listeners = new Set<(state: InputStopState) => void>();
  readonly #releasers = new Set<() => Promise<void>>();

  /** The switch's current state (a copy). */
  get state(): InputStopState {
    return { ...this.#state };
  }

  /** True while input is stopped. */
  get stopped(): boolean {
    return this.#state.stopped;
  }

  /**
   * Refuses an acting call while input is stopped.
   *
   * @throws {DriverError} `input_stopped`, with the hint to resume.
   */
  check(tool: AnyTool): void {
    if (!this.#state.stopped || !stopsWithInput(tool)) return;
    throw new DriverError("input_stopped", `Input is stopped: ${tool.name} was not run`, {
      stopped_by: this.#state.by,
      stopped_since_ms: this.#state.since_ms,
      hint:
        "a person stopped the agent's input; observation still works. It resumes only from the live view's Resume button or `cua-driver resume-input`",
    });
  }

  /**
   * Tracks an acting call while it runs, so a stop aborts it. Returns the function that ends
   * the tracking (call it when the call ends).
   */
  track(controller: AbortController): () => void {
    this.#running.add(controller);
    return () => void this.#running.delete(controller);
  }

  /** Stops input: later acting calls are refused and the running ones are aborted now. */
  stop(by: string): StopOutcome {
    const changed = !this.#state.stopped;
    if (changed) this.#state = { stopped: true, by, since_ms: Date.now() };
    const running = [...this.#running];
    for (const controller of running) {
      controller.abort(abortReason("input_stopped", `Input was stopped (by ${this.#state.by})`));
    }
    if (changed) this.#emit();
    return { changed, aborted: running.length };
  }

  /** Lets acting calls run again. Returns false when input was not stopped. */
  resume(): boolean {
    if (!this.#state.stopped) return false;
    this.#state = { stopped: false, by: null, since_ms: null };
    this.#emit();
    return true;
  }

  /**
   * Registers what lets go of input a store holds across calls (the engine's held buttons): run by
   * {@linkcode stopAllInput} after the switch is thrown.
   */
  addReleaser(release: () => Promise<void>): void {
    this.#releasers.add(release);
  }

  /** Runs every releaser; one that fails does not stop the others. */
  async releaseHeld(): Promise<void> {
    for (const release of this.#releasers) await release().catch(() => {});
  }

  /** Hears every change of the switch. Returns the function that stops listening. */
  onChange(listener: (state: InputStopState) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  #emit(): void {
    const state = this.state;
    for (const listener of this.#listeners) {
      try {
        listener(state);
      } catch {
        // A listener never breaks the switch.
      }
    }
  }
}

/**
 * Throws the switch and lets go of everything: acting calls are refused with `input_stopped`
 * from now on, the running ones are aborted, and every key and button the driver holds (in any
 * session, across calls too) is released. Observation keeps working.
 *
 * @param input The registry's held-input tracker (what the core holds down on every channel).
 */
export async function stopAllInput(
  state: RuntimeState,
  input: HeldInput,
  by: string,
): Promise<StopOutcome & { state: InputStopState }> {
  const outcome = state.inputStop.stop(by);
  await state.inputStop.releaseHeld();
  await input.releaseAll().catch(() => {});
  return { ...outcome, state: state.inputStop.state };
}
