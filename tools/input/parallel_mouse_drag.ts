import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { compileCurve, sampleCurve } from "../../src/engine/curve.ts";
import { interpolate } from "../../src/engine/gesture.ts";
import { resolveWindowTarget } from "../../src/engine/hold.ts";
import { type ParallelDrag, performParallelDrags } from "../../src/engine/parallel_drag.ts";
import { toScreenPoint } from "../../src/engine/pointing.ts";
import { runAction } from "../../src/engine/run_action.ts";
import { DriverError } from "../../src/ports/errors.ts";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { buttonParam } from "../_shared/action_params.ts";
import { sessionParam } from "../_shared/params.ts";

const dragItem = z.strictObject({
  session: z.string().min(1).describe(
    "Session whose latest screenshot the points use",
  ),
  window_id: z.number().int().min(1).describe("Window to drag in"),
  pid: z.number().int().min(1).optional().describe("Owner of the window (checked when given)"),
  path: z.array(z.tuple([z.number(), z.number()])).min(2).max(2000).optional().describe(
    "Points [[x, y], ...] in screenshot pixels",
  ),
  fn: z.string().min(1).max(200).optional().describe(
    "y(x) with sin cos tan sqrt abs exp ln log pi e + - * / ^, from x_from to x_to",
  ),
  x_from: z.number().optional(),
  x_to: z.number().optional(),
  samples: z.number().int().min(2).max(400).default(80).describe("Samples of fn"),
  from_x: z.number().optional(),
  from_y: z.number().optional(),
  to_x: z.number().optional(),
  to_y: z.number().optional(),
  button: buttonParam,
  duration_ms: z.number().int().min(0).max(10_000).optional().describe(
    "Press to release; default 1500 for fn, 500 otherwise",
  ),
  steps: z.number().int().min(1).max(300).optional().describe(
    "Moves along the path (default: segments, at least 20)",
  ),
  from_zoom: z.boolean().optional().describe("Points are pixels of the latest zoom"),
});

/** parallel_mouse_drag's schema (contract.md §1.5). */
export const parallelMouseDragInput = z.strictObject({
  drags: z.array(dragItem).min(2).max(8).describe(
    "Each a path, an fn curve, or from/to points",
  ),
  session: sessionParam,
});

type Item = z.output<typeof dragItem>;

/** The item's vertices in its window's screenshot pixels. */
function vertices(item: Item, i: number): { points: { x: number; y: number }[]; curve: boolean } {
  const field = `drags.${i}`;
  const straight = [item.from_x, item.from_y, item.to_x, item.to_y];
  const forms = [item.path !== undefined, item.fn !== undefined, straight.some((v) => v !== undefined)];
  if (forms.filter(Boolean).length !== 1) {
    throw new DriverError(
      "invalid_arguments",
      `${field}: pass exactly one of path, fn, or from_x/from_y/to_x/to_y`,
      {
        field,
      },
    );
  }
  if (item.path) return { points: item.path.map(([x, y]) => ({ x, y })), curve: false };
  if (item.fn !== undefined) {
    if (item.x_from === undefined || item.x_to === undefined) {
      throw new DriverError("invalid_arguments", `${field}: fn needs x_from and x_to`, {
        field: `${field}.${item.x_from === undefined ? "x_from" : "x_to"}`,
      });
    }
    const f = compileCurve(item.fn, `${field}.fn`);
    return { points: sampleCurve(f, item.x_from, item.x_to, item.samples, `${field}.fn`), curve: true };
  }
  const names = ["from_x", "from_y", "to_x", "to_y"];
  const missing = straight.findIndex((v) => v === undefined);
  if (missing >= 0) {
    throw new DriverError("invalid_arguments", `${field}: ${names[missing]} is missing`, {
      field: `${field}.${names[missing]}`,
    });
  }
  return { points: [{ x: item.from_x!, y: item.from_y! }, { x: item.to_x!, y: item.to_y! }], curve: false };
}

/** Resolves and maps one item, before anything is sent. */
async function prepare(ctx: ToolContext, item: Item, i: number): Promise<ParallelDrag> {
  const { points, curve } = vertices(item, i);
  const session = ctx.state.sessions.resolve(ctx.session.lease, ctx.session.transport, item.session);
  const itemCtx: ToolContext = { ...ctx, session };
  const window = await ctx.backend.windows.get(item.window_id);
  if (!window || window.pid === null) {
    throw new DriverError("window_target_not_found", `drags.${i}: window ${item.window_id} does not exist`, {
      effect: "refused",
      window_id: item.window_id,
      candidates: [],
      hint: "call list_windows to refresh window ids",
    });
  }
  const target = await resolveWindowTarget(itemCtx, {
    pid: item.pid ?? window.pid,
    window_id: item.window_id,
  });
  const screen = [];
  for (const [k, p] of points.entries()) {
    screen.push(
      await toScreenPoint(itemCtx, target, p.x, p.y, item, `drags.${i}.${curve ? "fn" : "path"}.${k}`),
    );
  }
  const steps = item.steps ?? Math.min(300, Math.max(20, points.length - 1));
  return {
    target,
    path: interpolate(screen, steps),
    button: item.button,
    durationMs: item.duration_ms ?? (curve ? 1500 : 500),
  };
}

/** Concurrent drags, one private pointer each (Linux). */
export default defineTool({
  name: "parallel_mouse_drag",
  title: "Parallel mouse drag",
  description:
    "Run two or more drags at once, each on its own private pointer: per drag its session, window_id and a path [[x, y], ...], an fn curve y(x) from x_from to x_to, or from/to points, in pixels of that session's latest screenshot of the window. Covered paths: nothing is sent.",
  group: "input",
  input: parallelMouseDragInput,
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: ["input.pointer.drag", "input.pointer.parallel"],
  run(ctx, args) {
    return runAction(ctx, async () => {
      const drags: ParallelDrag[] = [];
      for (const [i, item] of args.drags.entries()) drags.push(await prepare(ctx, item, i));
      return await performParallelDrags(ctx, drags);
    });
  },
});
