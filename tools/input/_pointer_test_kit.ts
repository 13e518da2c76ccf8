/**
 * Unit-test kit for the pointer tools: a registry of every tool over a
 * FakeBackend with one window at (100, 100) 400x300, a screenshot of it at half
 * size (so pixels map x2 to screen points), and an optional snapshot.
 *
 * @module
 */
import { ConfigStore } from "../../src/kernel/config.ts";
import { ToolRegistry } from "../../src/kernel/registry.ts";
import type { ToolResult } from "../../src/kernel/result.ts";
import { RuntimeState } from "../../src/kernel/runtime_state.ts";
import type { SnapshotElement } from "../../src/kernel/snapshots.ts";
import { FakeBackend } from "../../src/backends/fake/mod.ts";
import { allTools } from "../mod.ts";
import { AGENT_CURSORS } from "../../src/features/agent_cursor/slot.ts";

/** The fake window's id and pid. */
export const WINDOW = 7001, PID = 4242;

/** A registry over a fake desktop. */
export interface Kit {
  fake: FakeBackend;
  state: RuntimeState;
  call(name: string, args: Record<string, unknown>, lease?: string): Promise<ToolResult>;
  /** Registers a snapshot of the window and returns its tokens by index. */
  snapshot(elements: Omit<SnapshotElement, "index">[]): string[];
  /** Registers a half-size screenshot of the window for the session of `lease` (+ label). */
  screenshot(lease?: string, label?: string | null): void;
  /** Pointer calls recorded so far (pointer.* and the extra-pointer lifecycle). */
  pointerCalls(): string[];
}

/** Builds the kit; the window has a screenshot in the default session. */
export function pointerKit(): Kit {
  const fake = new FakeBackend();
  fake.addWindow({ windowId: WINDOW, pid: PID, bounds: { x: 100, y: 100, width: 400, height: 300 } });
  const state = new RuntimeState(
    new ConfigStore("/nonexistent/config.json"),
    "standard",
    new Set(),
    undefined,
    undefined,
    [AGENT_CURSORS],
  );
  const registry = new ToolRegistry(allTools, fake, state);
  const kit: Kit = {
    fake,
    state,
    call: (name, args, lease = "test") => registry.call(name, args, { lease, transport: "cli" }),
    snapshot(elements) {
      const id = state.snapshots.reserveId();
      const session = state.sessions.resolve("test", "cli", null);
      state.snapshots.register(PID, WINDOW, elements.map((e, index) => ({ ...e, index })), id, session.id);
      return elements.map((_, i) => `${id}:${i}`);
    },
    screenshot(lease = "test", label = null) {
      const session = state.sessions.resolve(lease, "cli", label);
      state.captures.register({
        kind: "window",
        windowId: WINDOW,
        displayId: "0",
        bounds: { x: 100, y: 100, width: 400, height: 300 },
        windowOrigin: { x: 100, y: 100 },
        imageWidth: 200,
        imageHeight: 150,
        sessionId: session.id,
      });
    },
    pointerCalls: () => fake.calls.filter((c) => c.startsWith("pointer.") || c === "input.extraPointer"),
  };
  kit.screenshot();
  return kit;
}
