/**
 * The drag ladder: press, interpolated moves, release. Background drives a
 * private pointer and needs the whole path uncovered; foreground runs in the
 * window transaction; desktop scope uses the user's pointer. A slider under the
 * start point is read back.
 *
 * @module
 */
import type { Point } from "../ports/geometry.ts";
import type { MouseButton } from "../ports/input.ts";
import { cursorApproach, cursorFollow } from "../features/agent_cursor/follow.ts";
import type { ToolContext } from "../kernel/tool.ts";
import { requireBackgroundPointer } from "./background.ts";
import type { DeliveryMode } from "./click.ts";
import { dragAlong } from "./gesture.ts";
import { heldModifiers } from "./modifiers.ts";
import type { Outcome } from "./outcome.ts";
import type { ActionTarget } from "./target.ts";
import { probeAt, witnessedProbe } from "./value_probe.ts";
import { judged, Witness, witnessedForeground, witnessScope } from "./witness.ts";

/** What to drag with. */
export interface DragGesture {
  button: MouseButton;
  modifiers: string[];
  durationMs: number;
}

/** Runs one drag along `path` (screen points, already interpolated). */
export async function performDrag(
  ctx: ToolContext,
  target: ActionTarget,
  path: readonly Point[],
  gesture: DragGesture,
  mode: DeliveryMode,
): Promise<Outcome> {
  const from = path[0], to = path.at(-1)!;
  const label = `${gesture.button} drag from (${from.x}, ${from.y}) to (${to.x}, ${to.y})`;
  const drag = (channel: "background" | "global") => async () => {
    const pointer = await ctx.input.pointer(channel);
    // The agent cursor (when enabled) travels to the end alongside the drag.
    cursorFollow(ctx, to, "drag", gesture.durationMs);
    await dragAlong(pointer, path, gesture.button, gesture.durationMs, ctx.signal);
  };
  await cursorApproach(ctx, from, "drag", gesture.modifiers);
  if (target.scope === "desktop") {
    const witness = await Witness.observe(ctx, await witnessScope(ctx, target, from));
    await heldModifiers(ctx, "global", gesture.modifiers, drag("global"));
    witness.sent();
    return await judged(witness, {
      effect: "unverifiable",
      route: "global_input",
      mode: "not_applicable",
      deliveredCount: 1,
      summary: `${label} on the screen with your pointer`,
    });
  }
  if (mode === "background") await requireBackgroundPointer(ctx, target, path, "drag");
  const probe = await probeAt(ctx, target.windowId, from);
  const scope = { pid: target.pid, windowId: target.windowId };
  const refs = probe ? [probe.ref] : [];
  let summary: string;
  let witness: Witness;
  if (mode === "foreground") {
    ({ witness } = await witnessedForeground(
      ctx,
      scope,
      refs,
      () => heldModifiers(ctx, "global", gesture.modifiers, drag("global")),
    ));
    summary = `${label} in window ${target.windowId}, then restored the previous window`;
  } else {
    witness = await Witness.observe(ctx, scope, refs);
    await heldModifiers(ctx, "background", gesture.modifiers, drag("background"), target.windowId);
    witness.sent();
    summary = `${label} in window ${target.windowId} with a private pointer`;
  }
  const base = { route: "global_input" as const, mode, deliveredCount: 1, summary };
  return await witnessedProbe(ctx, witness, probe, base, {
    noop: mode === "background" ? { target: "foreground", reason: "suspected_noop" } : undefined,
  });
}
