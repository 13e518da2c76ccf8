/**
 * Buttons held across calls (mouse_button_down → mouse_drag → mouse_button_up),
 * one per session and cursor id. Each hold owns a private pointer of its own, so
 * the release that ends every other action never lets it go, and one cursor's
 * hold never disturbs another's.
 *
 * @module
 */
import type { Point } from "../ports/geometry.ts";
import type { MouseButton, OwnedPointer } from "../ports/input.ts";
import { DriverError } from "../ports/errors.ts";
import type { RuntimeState } from "../kernel/runtime_state.ts";
import type { ValueProbe } from "./value_probe.ts";

/** One held button. */
export interface HeldButton {
  readonly sessionId: string;
  readonly cursorId: string;
  readonly pid: number;
  readonly windowId: number;
  readonly button: MouseButton;
  /** The pointer holding it (closed on release). */
  readonly pointer: OwnedPointer;
  /** Where the pointer is now, in screen points. */
  at: Point;
  /** The value under the press point, read before the press. */
  readonly probe: ValueProbe | null;
}

/** The default cursor id (contract.md §1.1). */
export const DEFAULT_CURSOR_ID = "default";

/** Held buttons by session and cursor id. */
export class HeldButtons {
  readonly #held = new Map<string, HeldButton>();

  static #key(sessionId: string, cursorId: string): string {
    return `${sessionId}\u0000${cursorId}`;
  }

  /** The hold of a session's cursor, if any. */
  get(sessionId: string, cursorId: string): HeldButton | undefined {
    return this.#held.get(HeldButtons.#key(sessionId, cursorId));
  }

  /**
   * Records a hold.
   *
   * @throws {DriverError} `button_already_held` when the cursor already holds one.
   */
  add(hold: HeldButton): void {
    const key = HeldButtons.#key(hold.sessionId, hold.cursorId);
    const current = this.#held.get(key);
    if (current) throw alreadyHeld(current);
    this.#held.set(key, hold);
  }

  /** Forgets a hold (after its release). */
  delete(hold: HeldButton): void {
    const key = HeldButtons.#key(hold.sessionId, hold.cursorId);
    if (this.#held.get(key) === hold) this.#held.delete(key);
  }

  /** Releases and forgets every hold of a session (it ended). */
  async releaseSession(sessionId: string): Promise<void> {
    for (const hold of [...this.#held.values()]) {
      if (hold.sessionId !== sessionId) continue;
      this.delete(hold);
      try {
        await hold.pointer.button(hold.button, false);
      } finally {
        await hold.pointer.close();
      }
    }
  }

  /** Releases and forgets every hold of every session (input was stopped). */
  async releaseEverything(): Promise<void> {
    for (const sessionId of new Set([...this.#held.values()].map((hold) => hold.sessionId))) {
      await this.releaseSession(sessionId).catch(() => {});
    }
  }

  /** Number of holds. */
  get size(): number {
    return this.#held.size;
  }
}

/** The error for a second press without a release. */
export function alreadyHeld(current: HeldButton): DriverError {
  return new DriverError(
    "button_already_held",
    `Cursor "${current.cursorId}" already holds the ${current.button} button in window ${current.windowId}; ` +
      "nothing was sent",
    {
      effect: "refused",
      cursor_id: current.cursorId,
      pid: current.pid,
      window_id: current.windowId,
      button: current.button,
      hint: "call mouse_button_up first, or use another cursor_id",
    },
  );
}

const stores = new WeakMap<RuntimeState, HeldButtons>();

/** The runtime's held buttons. */
export function heldButtons(state: RuntimeState): HeldButtons {
  let store = stores.get(state);
  if (!store) {
    const created = new HeldButtons();
    stores.set(state, created);
    // A session that ends lets go of what it holds.
    state.sessions.addCleanupHook("held_buttons", (session) => created.releaseSession(session.id));
    // A person's stop lets go of every session's holds.
    state.inputStop.addReleaser(() => created.releaseEverything());
    store = created;
  }
  return store;
}
