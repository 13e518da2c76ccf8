/**
 * A recording agent-cursor surface for unit tests: every frame, hide and removal
 * is kept, with the time it happened.
 *
 * @module
 */
import type { AgentCursorBackend, AgentCursorFrame } from "../../ports/cursor.ts";

/** One recorded call. */
export type FakeCursorEvent =
  | { kind: "draw"; id: string; frame: AgentCursorFrame; at: number }
  | { kind: "hide" | "remove"; id: string; at: number };

/** The fake back end's agent cursor. */
export class FakeAgentCursor implements AgentCursorBackend {
  readonly events: FakeCursorEvent[] = [];
  /** Cursors currently drawn and shown, by id, with their last frame. */
  readonly shown = new Map<string, AgentCursorFrame>();
  /** What unavailableReason() answers. */
  unavailable: string | null = null;

  unavailableReason(): Promise<string | null> {
    return Promise.resolve(this.unavailable);
  }

  draw(id: string, frame: AgentCursorFrame): void {
    this.events.push({ kind: "draw", id, frame: structuredClone(frame), at: performance.now() });
    this.shown.set(id, structuredClone(frame));
  }

  hide(id: string): void {
    this.events.push({ kind: "hide", id, at: performance.now() });
    this.shown.delete(id);
  }

  remove(id: string): void {
    this.events.push({ kind: "remove", id, at: performance.now() });
    this.shown.delete(id);
  }

  /** The frames drawn for one cursor, oldest first. */
  frames(id: string): AgentCursorFrame[] {
    return this.events.flatMap((e) => e.kind === "draw" && e.id === id ? [e.frame] : []);
  }
}
