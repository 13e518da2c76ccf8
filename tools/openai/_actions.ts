/**
 * The actions of OpenAI's `computer` tool (the Responses API's `computer_call`), as its schema
 * gives them, and how each runs on the driver's own tools: pointer actions on the desktop (the
 * user's pointer), keys and text into the focused window. Coordinates are pixels of the
 * session's screenshot (tools/_shared/session_screen.ts).
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { runAction } from "../../src/engine/run_action.ts";
import { judged, Witness, witnessScope } from "../../src/engine/witness.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { parseHotkeyList } from "../../src/lib/keys/key_names.ts";
import { parsePress } from "../../src/engine/key_names.ts";
import type { ToolResult } from "../../src/kernel/result.ts";
import type { ToolContext } from "../../src/kernel/tool.ts";
import click from "../input/click.ts";
import hotkey from "../input/hotkey.ts";
import moveCursor from "../input/move_cursor.ts";
import pressKey from "../input/press_key.ts";
import scroll from "../input/scroll.ts";
import typeText from "../input/type_text.ts";
import { runOwn } from "../anthropic/_member.ts";
import { abortableDelay } from "../anthropic/_wait.ts";
import { sessionScreen, toScreen } from "../_shared/session_screen.ts";

/** Pixels of scroll per wheel detent. */
export const PIXELS_PER_DETENT = 100;
/** A `wait` action without a duration waits this long. */
export const DEFAULT_WAIT_MS = 1_000;

const xy = { x: z.number(), y: z.number() };

/** One action of a `computer_call`. */
export const computerAction = z.union([
  z.strictObject({
    type: z.literal("click"),
    button: z.enum(["left", "right", "wheel", "back", "forward"]).default("left"),
    ...xy,
  }),
  z.strictObject({ type: z.literal("double_click"), ...xy }),
  z.strictObject({ type: z.literal("scroll"), ...xy, scroll_x: z.number(), scroll_y: z.number() }),
  z.strictObject({ type: z.literal("type"), text: z.string().min(1).max(20_000) }),
  z.strictObject({ type: z.literal("keypress"), keys: z.array(z.string().min(1).max(64)).min(1).max(7) }),
  z.strictObject({ type: z.literal("move"), ...xy }),
  z.strictObject({ type: z.literal("drag"), path: z.array(z.strictObject(xy)).min(2).max(100) }),
  z.strictObject({ type: z.literal("wait"), duration: z.number().min(0).max(60_000).optional() }),
  z.strictObject({ type: z.literal("screenshot") }),
]);

/** A parsed action. */
export type ComputerAction = z.output<typeof computerAction>;

/**
 * Checks what the schema cannot, before an action sends anything: buttons the driver has no
 * route for, points outside the screenshot, key names.
 *
 * @throws {DriverError} `unsupported_platform`, `coordinate_out_of_bounds`, `invalid_arguments`.
 */
export async function precheck(ctx: ToolContext, action: ComputerAction): Promise<void> {
  const screen = await sessionScreen(ctx);
  if (action.type === "click" && (action.button === "back" || action.button === "forward")) {
    throw new DriverError("unsupported_platform", `The ${action.button} button is not supported`, {
      field: "button",
    });
  }
  if ("x" in action) toScreen(screen, [action.x, action.y]);
  if (action.type === "drag") { for (const p of action.path) toScreen(screen, [p.x, p.y], "path"); }
  if (action.type === "keypress") parseHotkeyListOrKey(action.keys);
}

function parseHotkeyListOrKey(keys: readonly string[]): void {
  if (keys.length > 1) parseHotkeyList(keys, "keys");
  else parsePress(keys[0], []);
}

/** Runs one action; its ActionResult (or null for `wait` and `screenshot`). */
export async function runComputerAction(
  ctx: ToolContext,
  action: ComputerAction,
): Promise<Record<string, unknown> | null> {
  const screen = await sessionScreen(ctx);
  const desktop = { target: { kind: "desktop" }, coordinate_space: "screen" };
  const at = (x: number, y: number) => toScreen(screen, [x, y]);
  let result: ToolResult;
  switch (action.type) {
    case "click":
    case "double_click": {
      const p = at(action.x, action.y);
      const button = action.type === "click"
        ? (action.button === "wheel" ? "middle" : action.button)
        : "left";
      result = await runOwn(ctx, click, {
        ...desktop,
        x: p.x,
        y: p.y,
        button,
        count: action.type === "double_click" ? 2 : 1,
      });
      break;
    }
    case "move": {
      const p = at(action.x, action.y);
      result = await runOwn(ctx, moveCursor, { ...desktop, x: p.x, y: p.y });
      break;
    }
    case "scroll":
      result = await scrollBy(ctx, at(action.x, action.y), action.scroll_x, action.scroll_y);
      break;
    case "type":
      result = await runOwn(ctx, typeText, { target: { kind: "desktop" }, text: action.text });
      break;
    case "keypress":
      result = action.keys.length === 1
        ? await runOwn(ctx, pressKey, { target: { kind: "desktop" }, key: action.keys[0] })
        : await runOwn(ctx, hotkey, { target: { kind: "desktop" }, keys: action.keys });
      break;
    case "drag":
      result = await dragAlong(ctx, action.path.map((p) => at(p.x, p.y)));
      break;
    case "wait":
      await abortableDelay(action.duration ?? DEFAULT_WAIT_MS, ctx.signal);
      return null;
    case "screenshot":
      return null;
  }
  return result.structuredContent ?? null;
}

/** Vertical detents, then horizontal ones (`PIXELS_PER_DETENT` pixels each, at least one per axis moved). */
async function scrollBy(ctx: ToolContext, p: { x: number; y: number }, dx: number, dy: number) {
  const detents = (pixels: number) =>
    Math.min(50, Math.max(1, Math.round(Math.abs(pixels) / PIXELS_PER_DETENT)));
  let last: ToolResult | null = null;
  const base = { target: { kind: "desktop" }, coordinate_space: "screen", x: p.x, y: p.y };
  if (dy !== 0) {
    last = await runOwn(ctx, scroll, { ...base, direction: dy > 0 ? "down" : "up", amount: detents(dy) });
  }
  if (dx !== 0) {
    last = await runOwn(ctx, scroll, { ...base, direction: dx > 0 ? "right" : "left", amount: detents(dx) });
  }
  if (!last) {
    throw new DriverError("invalid_arguments", "A scroll needs scroll_x or scroll_y", { field: "scroll_y" });
  }
  return last;
}

/** Presses at the first point, moves through the others in order, releases at the last. */
function dragAlong(ctx: ToolContext, points: { x: number; y: number }[]): Promise<ToolResult> {
  return runAction(ctx, async () => {
    const witness = await Witness.observe(ctx, await witnessScope(ctx, { scope: "desktop" }, points[0]));
    const pointer = await ctx.input.pointer("global");
    await pointer.move(points[0]);
    await pointer.button("left", true);
    for (const point of points.slice(1)) await pointer.move(point);
    await pointer.button("left", false);
    await pointer.sync();
    witness.sent();
    const end = points[points.length - 1];
    return await judged(witness, {
      effect: "unverifiable",
      route: "global_input",
      mode: "not_applicable",
      deliveredCount: 1,
      summary: `dragged through ${points.length} points to screen (${end.x}, ${end.y})`,
    });
  });
}
