/**
 * The agent cursor feature's runtime-wide state (every session's cursor) as a runtime slot:
 * created, with the cursor code loaded, when a tool that creates cursors first runs
 * (`agent_cursor.*`, and start_session, which can theme one); a session's cursor goes, overlay
 * and all, when the session ends. Before that no session has a cursor.
 *
 * @module
 */
import type { RuntimeState, StateSlot } from "../../kernel/runtime_state.ts";
import { AgentCursorStore } from "./session_cursors.ts";

/** The slot of the {@linkcode AgentCursorStore}. */
export const AGENT_CURSORS: StateSlot<AgentCursorStore> = {
  name: "agent_cursor",
  wanted: (capabilities) =>
    capabilities.some((c) => c.startsWith("agent_cursor.") || c === "session.lifecycle.start"),
  async create(state) {
    const store = new AgentCursorStore();
    await store.load();
    state.sessions.addCleanupHook("agent_cursor", (session) => store.drop(session.id));
    return store;
  },
};

/**
 * The runtime's agent cursors, for the tools that create one.
 *
 * @throws {TypeError} before such a tool's prepare created them (a programming error).
 */
export function agentCursorsOf(state: RuntimeState): AgentCursorStore {
  return state.slot(AGENT_CURSORS);
}

/** The session's agent cursor if it has one (none before a cursor tool ran). */
export function sessionCursor(state: RuntimeState, sessionId: string) {
  return state.peek(AGENT_CURSORS)?.peek(sessionId);
}
