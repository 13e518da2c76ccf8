/**
 * The browser feature's runtime-wide state (the browsers launched or admitted, each session's
 * targets, tabs and refs) as a runtime slot: created, with its code loaded, when a `browser.*`
 * tool first runs; a session's part goes when the session ends.
 *
 * @module
 */
import type { RuntimeState, StateSlot } from "../../kernel/runtime_state.ts";
import type { BrowserStore } from "./store.ts";

/** The slot of the {@linkcode BrowserStore}. */
export const BROWSERS: StateSlot<BrowserStore> = {
  name: "browser",
  wanted: (capabilities) => capabilities.some((c) => c.startsWith("browser.")),
  async create(state) {
    const { BrowserStore } = await import("./store.ts");
    const store = new BrowserStore();
    state.sessions.addCleanupHook("browser", (session) => store.dropSession(session.id));
    return store;
  },
};

/**
 * The runtime's browser store.
 *
 * @throws {TypeError} before a browser tool's prepare created it (a programming error).
 */
export function browsersOf(state: RuntimeState): BrowserStore {
  return state.slot(BROWSERS);
}
