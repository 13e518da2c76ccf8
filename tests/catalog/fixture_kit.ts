/**
 * What the fixture cells share: the fixture's oracles (its journal), the clean-up that
 * closes a context menu, and the desktop-scope focus step for keyboard cells.
 *
 * @module
 */
import type { Structured } from "../_helpers/in_process_driver.ts";
import type { CellContext, Oracle } from "./cell.ts";
import { DESKTOP } from "./cell_kit.ts";
import { coreKey } from "./desktop_probe.ts";
import { fixtureEvent, journal } from "./oracles.ts";

/** The app of every fixture cell. */
export const F = "fixture" as const;
/** Short drags: the fixture journals the press and release points, not the speed. */
export const DRAG_TIMING = { duration_ms: 150, steps: 8 };
/** GTK's triple-click window (twice its 400 ms double-click time), plus a margin. */
export const DOUBLE_CLICK_QUIET_MS = 850;
/** The only framed scroll bar of the fixture: scroll-tall's vertical one. */
export const scrollBar = (e: Structured) => e.role === "scroll bar";

/** For refusals: no new journal line at all. */
export const untouched = journal("journal unchanged", () => false);

/** The text was typed or inserted into txt-input. */
export function mirrorGets(text: string): Oracle {
  return journal(`mirror gets "${text}"`, (b, a) => a.mirror !== b.mirror && String(a.mirror).includes(text));
}

/** The window journaled the key End. */
export const keyEnd = fixtureEvent("key End journaled", "key", (e) => e.last_key === "End");
/** The window journaled the hotkey ctrl+shift+k. */
export const hotkeyK = fixtureEvent(
  "hotkey ctrl+shift+k journaled",
  "key",
  (e) => e.last_hotkey === "ctrl+shift+k",
);
/** btn-reset was clicked. */
export const reset = fixtureEvent("btn-reset clicked", "click", (e) => e.last_action === "reset");
/** chk-agree toggled. */
export const agreedFlips = journal("agreed flips", (b, a) => a.agreed !== b.agreed);
/** scroll-tall scrolled down. */
export const scrolledDown = journal(
  "scroll_offset grows",
  (b, a) => Number(a.scroll_offset) > Number(b.scroll_offset),
);

/** A drag the fixture journaled from about (fx0, fy0) to (fx1, fy1) of drag-area, within 2 px. */
export function dragged(f: [number, number, number, number]): Oracle {
  let want: number[] = [];
  const base = fixtureEvent("drag-area journals the drag", "drag", (e) => {
    const m = /from (-?\d+),(-?\d+) to (-?\d+),(-?\d+)/.exec(String(e.drag));
    return m !== null && m.slice(1).every((v, i) => Math.abs(Number(v) - want[i]) <= 2);
  });
  return {
    ...base,
    read(ctx) {
      const area = ctx.view.widget("drag-area");
      want = [f[0] * area.width, f[1] * area.height, f[2] * area.width, f[3] * area.height].map(Math.round);
      return base.read(ctx);
    },
  };
}

/**
 * Closes a context menu a cell opened: Escape for a menu that grabbed the user's keyboard, a
 * background click beside it for one that grabbed the private pointer.
 */
export async function closeMenus(ctx: CellContext): Promise<void> {
  await coreKey("Escape");
  const view = await ctx.observe("fixture");
  await ctx.call("click", { target: view.target, ...view.widgetPixel("swatch", 0.5, 4) });
}

/** A desktop-scope click into txt-input (its uncovered left part), so keys go there. */
export async function focusInputOnDesktop(ctx: CellContext): Promise<void> {
  await ctx.call("click", { ...DESKTOP, ...ctx.view.screen("txt-input", 0.3) });
}
