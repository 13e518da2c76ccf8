/**
 * The left button the computer toolset's `left_mouse_down` holds on the user's pointer until
 * `left_mouse_up` (or the session's end) releases it, where the cursor is then. Pressed on the raw
 * pointer, so the end of the call that pressed it does not release it; judged by the desktop
 * witness, as a desktop click is.
 *
 * @module
 */
import { DriverError } from "../../src/ports/errors.ts";
import { runAction } from "../../src/engine/run_action.ts";
import { judged, Witness, witnessScope } from "../../src/engine/witness.ts";
import type { ToolResult } from "../../src/kernel/result.ts";
import type { RuntimeState } from "../../src/kernel/runtime_state.ts";
import type { ToolContext } from "../../src/kernel/tool.ts";

const holding = new WeakMap<RuntimeState, Set<string>>();

function sessionsHolding(ctx: ToolContext): Set<string> {
  let set = holding.get(ctx.state);
  if (!set) {
    const created = new Set<string>();
    holding.set(ctx.state, created);
    const backend = ctx.backend;
    // A session that ends lets go of the button it holds.
    ctx.state.sessions.addCleanupHook("anthropic_left_button", async (session) => {
      if (!created.delete(session.id)) return;
      const pointer = await backend.input.pointer("global");
      await pointer.button("left", false);
      await pointer.sync();
    });
    set = created;
  }
  return set;
}

/** Presses (`down`) or releases the left button where the cursor is. */
export function leftButton(ctx: ToolContext, down: boolean): Promise<ToolResult> {
  return runAction(ctx, async () => {
    const held = sessionsHolding(ctx);
    if (down && held.has(ctx.session.id)) {
      throw new DriverError("button_already_held", "The left button is already held", { effect: "refused" });
    }
    if (!down && !held.has(ctx.session.id)) {
      throw new DriverError("button_not_held", "The left button is not held", { effect: "refused" });
    }
    const at = await ctx.backend.screen.cursorPosition();
    const point = { x: at.x, y: at.y };
    const witness = await Witness.observe(ctx, await witnessScope(ctx, { scope: "desktop" }, point));
    const pointer = await ctx.backend.input.pointer("global");
    await pointer.button("left", down);
    await pointer.sync();
    if (down) held.add(ctx.session.id);
    else held.delete(ctx.session.id);
    witness.sent();
    return await judged(witness, {
      effect: "unverifiable",
      route: "global_input",
      mode: "not_applicable",
      deliveredCount: 1,
      summary: `left button ${down ? "pressed" : "released"} at screen (${point.x}, ${point.y})`,
    });
  });
}
