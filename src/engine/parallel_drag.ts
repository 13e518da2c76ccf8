/**
 * Several drags at once, one private pointer each (one more agent master per
 * drag): every path is checked uncovered before anything is sent, all pointers
 * press, move on their own clocks, and release, even when one fails.
 *
 * @module
 */
import type { Point } from "../ports/geometry.ts";
import type { MouseButton, OwnedPointer } from "../ports/input.ts";
import type { ToolContext } from "../kernel/tool.ts";
import { requireBackgroundPointer } from "./background.ts";
import { moveTracks } from "./gesture.ts";
import type { Outcome } from "./outcome.ts";
import type { ActionTarget } from "./target.ts";
import { probeAt, settleProbe } from "./value_probe.ts";
import { Witness } from "./witness.ts";

/** One drag of a parallel gesture, in screen points (already interpolated). */
export interface ParallelDrag {
  target: Extract<ActionTarget, { scope: "window" }>;
  path: readonly Point[];
  button: MouseButton;
  durationMs: number;
}

/** Runs the drags concurrently. */
export async function performParallelDrags(
  ctx: ToolContext,
  drags: readonly ParallelDrag[],
): Promise<Outcome> {
  for (const [i, drag] of drags.entries()) {
    await requireBackgroundPointer(ctx, drag.target, drag.path, `drags[${i}]`);
  }
  const probes = await Promise.all(drags.map((drag) => probeAt(ctx, drag.target.windowId, drag.path[0])));
  const windows = new Map(drags.map((drag) => [drag.target.windowId, drag.target]));
  const witnesses = await Promise.all(
    [...windows.values()].map((target) =>
      Witness.observe(
        ctx,
        { pid: target.pid, windowId: target.windowId },
        probes.flatMap((probe, i) =>
          probe && drags[i].target.windowId === target.windowId ? [probe.ref] : []
        ),
      )
    ),
  );
  const pointers: OwnedPointer[] = [];
  const pressed: { pointer: OwnedPointer; button: MouseButton }[] = [];
  try {
    for (let i = 0; i < drags.length; i++) pointers.push(await ctx.backend.input.extraPointer());
    for (const [i, drag] of drags.entries()) {
      await pointers[i].move(drag.path[0]);
      await pointers[i].button(drag.button, true);
      pressed.push({ pointer: pointers[i], button: drag.button });
      await pointers[i].sync();
    }
    await moveTracks(
      drags.map((drag, i) => ({ pointer: pointers[i], path: drag.path, durationMs: drag.durationMs })),
      ctx.signal,
    );
  } finally {
    for (const { pointer, button } of pressed) {
      await pointer.button(button, false).catch(() => {});
      await pointer.sync().catch(() => {});
    }
    for (const pointer of pointers) await pointer.close().catch(() => {});
  }
  for (const witness of witnesses) witness.sent();
  const ids = [...windows.keys()].join(", ");
  let summary = `${drags.length} drags at once in window${windows.size > 1 ? "s" : ""} ${ids}, ` +
    "one private pointer each";
  const base = { route: "global_input" as const, mode: "background" as const, deliveredCount: drags.length };
  const readings = await Promise.all(probes.map((probe) => probe ? settleProbe(ctx, probe) : null));
  const read = readings.filter((r) => r !== null);
  for (const [i, reading] of readings.entries()) {
    if (reading) {
      summary += `; drags[${i}] ${probes[i]!.platformRole} value ${probes[i]!.before} -> ${reading.after}`;
    }
  }
  if (read.length === drags.length && read.every((r) => r.changed)) {
    return { ...base, effect: "confirmed", evidence: ["value_readback"], summary };
  }
  // Not every drag read back: what the windows show decides.
  const findings = await Promise.all(witnesses.map((witness) => witness.settle()));
  const changes = findings.flatMap((finding) => finding.changes);
  if (changes.length) {
    return {
      ...base,
      effect: "confirmed",
      evidence: ["window_change"],
      summary: `${summary}; ${changes.join("; ")}`,
    };
  }
  if (findings.every((finding) => finding.readable)) {
    return { ...base, effect: "suspected_noop", summary: `${summary}; nothing the apps show changed` };
  }
  return { ...base, effect: "unverifiable", summary };
}
