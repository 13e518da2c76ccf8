import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { activationAction } from "../../src/engine/click.ts";
import type { Outcome } from "../../src/engine/outcome.ts";
import { toggleState, waitForChange } from "../../src/engine/readback.ts";
import { runAction } from "../../src/engine/run_action.ts";
import { judged, Witness } from "../../src/engine/witness.ts";
import { resolveTarget } from "../../src/engine/target.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { defineTool, type ToolContext } from "../../src/kernel/tool.ts";
import { type AxNode, AxRole, type AxTree } from "../../src/ports/accessibility.ts";
import { pidParam, sessionParam, windowIdParam } from "../_shared/params.ts";
import {
  childIndex,
  isToggleItem,
  type MenuBarFilter,
  menuItems,
  type MenuPathProblem,
  resolveMenuPath,
} from "./_menu_path.ts";

/** Pause after opening a level, before re-walking (the reference's inter-hop sleep); doubles per re-walk. */
const HOP_SETTLE_MS = 80;
/** Re-walks after opening a level while its items have not appeared yet (80 + 160 + ... ms, about 2.5 s). */
const HOP_POLLS = 5;
/**
 * The menu walk reads structure only (roles, names, states): reading every object's
 * actions while an app opens a popup floods it (Firefox crashed under it).
 */
const TREE_LIMITS = { maxNodes: 5000, maxDepth: Number.MAX_SAFE_INTEGER, structureOnly: true };

/** Exact application-menu path, resolved live and invoked through accessibility. */
export default defineTool({
  name: "invoke_menu",
  title: "Invoke menu item",
  description:
    'Invoke a menu item by exact path from the menu bar, e.g. ["Window", "Arrange", "Left"], through accessibility, opening hidden levels (closed again on failure). Never by pixel: a missing or disabled segment is menu_path_unavailable with the items there.',
  group: "accessibility",
  input: z.strictObject({
    pid: pidParam,
    window_id: windowIdParam,
    path: z.array(z.string().min(1).max(200)).min(1).max(16).describe(
      "Menu path from the menu bar to the item, one accessible name per level (1 to 16 segments)",
    ),
    session: sessionParam,
  }),
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: ["menu.path.invoke", "accessibility.menu.native"],
  run(ctx, args) {
    return runAction(ctx, async () => {
      await resolveTarget(ctx, { pid: args.pid, window_id: args.window_id }, {
        allowDesktop: false,
        allowElement: false,
      });
      return await invokeMenuPath(ctx, args.pid, args.window_id, args.path);
    });
  },
});

/** One opened level: the item whose menu was popped up to expose its items. */
interface Opened {
  level: number;
  ref: unknown;
}

/**
 * Walks `path` level by level and fires the final item's activation action. Levels whose
 * items are hidden but exposed (GTK3 keeps closed menus in the tree) are not opened, so
 * no popup grabs the pointer; a level whose items are missing is opened (its activation
 * action), then the tree is read again.
 *
 * @throws {DriverError} `menu_path_unavailable` (nothing invoked; anything opened was
 *   closed again), `delivery_failed` when the app refused the final action.
 */
export async function invokeMenuPath(
  ctx: ToolContext,
  pid: number,
  windowId: number,
  path: readonly string[],
): Promise<Outcome> {
  const opened: Opened[] = [];
  let fired = 0;
  let tree = await readTree(ctx, pid, windowId, path);
  const isBar = await windowMenuBars(ctx, tree, windowId);
  try {
    for (let level = 0; level < path.length; level++) {
      let resolution = resolveMenuPath(tree.nodes, path, level, isBar);
      if (!resolution.ok) {
        throw unavailable(path, resolution.level, resolution.problem, resolution.available);
      }
      let node = tree.nodes[resolution.chain[level]];
      const last = level === path.length - 1;
      if (!last && itemsUnder(tree.nodes, resolution.chain[level]).length === 0) {
        // The menu's items appear only once it is open (Qt, GTK4, Electron): open it.
        await fire(ctx, node, path, level);
        fired++;
        opened.push({ level, ref: node.ref });
        for (let poll = 0; poll < HOP_POLLS; poll++) {
          await sleep(HOP_SETTLE_MS * 2 ** poll);
          tree = await readTree(ctx, pid, windowId, path);
          resolution = resolveMenuPath(tree.nodes, path, level, isBar);
          if (!resolution.ok) {
            throw unavailable(path, resolution.level, resolution.problem, resolution.available);
          }
          if (itemsUnder(tree.nodes, resolution.chain[level]).length > 0) break;
        }
        node = tree.nodes[resolution.chain[level]];
        if (itemsUnder(tree.nodes, resolution.chain[level]).length === 0) {
          throw unavailable(
            path,
            level + 1,
            "missing",
            [],
            `${JSON.stringify(path[level])} opened no menu items`,
          );
        }
      }
      if (!last) continue;
      const submenu = itemsUnder(tree.nodes, resolution.chain[level]);
      if (submenu.length > 0) {
        throw unavailable(
          path,
          level,
          "submenu",
          submenu.map((i) => tree.nodes[i].name),
          `${JSON.stringify(path[level])} opens a submenu; add one of its items to the path`,
        );
      }
      const before = isToggleItem(node.role) ? await toggleState(ctx, node.ref, node.role) : null;
      const witness = await Witness.observe(ctx, { pid, windowId }, [node.ref]);
      await fire(ctx, node, path, level);
      witness.sent();
      fired++;
      opened.length = 0; // activating an item closes the menus it was in
      const label = path.join(" > ");
      const summary = `invoked menu item ${JSON.stringify(label)} through AT-SPI` +
        (fired > 1 ? ` (opened ${fired - 1} menu level${fired > 2 ? "s" : ""} on the way)` : "");
      const base = { route: "accessibility", mode: "background", deliveredCount: fired, summary } as const;
      if (before !== null) {
        const { changed, after } = await waitForChange(() => toggleState(ctx, node.ref, node.role), before);
        if (changed) {
          return {
            ...base,
            effect: "confirmed",
            evidence: ["value_readback"],
            summary: `${summary}; it is now ${after ? "checked" : "unchecked"}`,
          };
        }
      }
      return await judged(witness, { ...base, effect: "unverifiable" });
    }
    throw new TypeError("invoke_menu: unreachable");
  } catch (error) {
    if (opened.length > 0) {
      const closed = await closeMenus(ctx, pid, windowId, path, opened, isBar);
      if (error instanceof DriverError) {
        Object.assign(error.data, { opened_levels: opened.length, menus_closed: closed });
        if (!closed) {
          error.data.hint = `${error.data.hint ?? ""}; a menu this call opened may still be open: ` +
            'press_key "Escape" on the window to close it';
        }
      }
    }
    throw error;
  }
}

/**
 * The window's own menu bars. A window with several (LibreOffice's gtk3 plugin exposes
 * its native GTK menu bar and VCL's own, hidden one, with the same items) keeps those
 * with an area inside the window; when geometry cannot tell them apart, all.
 */
async function windowMenuBars(ctx: ToolContext, tree: AxTree, windowId: number): Promise<MenuBarFilter> {
  const bars = tree.nodes.filter((node) => node.role === AxRole.MenuBar);
  if (bars.length < 2) return () => true;
  const window = await ctx.backend.windows.get(windowId);
  const frames = await Promise.all(
    bars.map((bar) => ctx.backend.accessibility.frame(bar.ref).catch(() => null)),
  );
  const inside = bars.filter((_, i) => {
    const f = frames[i], w = window?.bounds;
    return f !== null && w !== undefined && f.width > 0 && f.height > 0 &&
      f.x >= w.x - 2 && f.y >= w.y - 2 && f.x + f.width <= w.x + w.width + 2 &&
      f.y + f.height <= w.y + w.height + 2;
  });
  if (inside.length === 0 || inside.length === bars.length) return () => true;
  const kept = new Set(inside.map((bar) => JSON.stringify(bar.ref)));
  return (node) => kept.has(JSON.stringify(node.ref));
}

function itemsUnder(nodes: readonly AxNode[], index: number): number[] {
  return menuItems(nodes, childIndex(nodes), index);
}

async function readTree(ctx: ToolContext, pid: number, windowId: number, path: readonly string[]) {
  const tree: AxTree = await ctx.backend.accessibility.tree(pid, windowId, TREE_LIMITS, ctx.signal);
  if (tree.error !== null || tree.nodes.length === 0) {
    throw new DriverError(
      "menu_path_unavailable",
      `The accessibility tree of window ${windowId} is unavailable, so menu path ${
        JSON.stringify(path)
      } cannot be resolved: ${tree.error ?? "it is empty"}`,
      {
        effect: "refused",
        path: [...path],
        segment_index: 0,
        segment: path[0],
        reason: "no_accessibility_tree",
        available: [],
        hint: "the app exposes no accessibility tree; use get_window_state and act by pixel instead",
      },
    );
  }
  return tree;
}

/** Fires an item's activation action (never blindly action 0). */
async function fire(ctx: ToolContext, node: AxNode, path: readonly string[], level: number): Promise<void> {
  const action = await activationAction(ctx, node.ref);
  if (action === null) {
    throw unavailable(
      path,
      level,
      "not_invokable",
      [],
      `${JSON.stringify(path[level])} has no activation action`,
    );
  }
  if (!(await ctx.backend.accessibility.doAction(node.ref, action))) {
    throw new DriverError(
      "delivery_failed",
      `The app refused the "${action}" action of menu item ${JSON.stringify(path[level])}`,
      {
        path: [...path],
        segment_index: level,
        hint: "the item may have just become insensitive; observe again",
      },
    );
  }
}

/**
 * Closes menus this call popped up: Escape on the user's keyboard, which the open
 * popup's grab receives (GTK cancels its whole menu chain). Re-reads the tree after
 * each press and stops when no opened item still looks open.
 *
 * @returns True when the opened menus are closed (as far as accessibility shows).
 */
async function closeMenus(
  ctx: ToolContext,
  pid: number,
  windowId: number,
  path: readonly string[],
  opened: readonly Opened[],
  isBar: MenuBarFilter,
): Promise<boolean> {
  for (let attempt = 0; attempt <= opened.length; attempt++) {
    try {
      const keyboard = await ctx.input.keyboard("global");
      await keyboard.press("Escape", []);
    } catch {
      return false; // no keyboard on this back end: the caller's hint says what to do
    }
    await sleep(HOP_SETTLE_MS);
    if (!(await looksOpen(ctx, pid, windowId, path, opened, isBar))) return true;
  }
  return false;
}

async function looksOpen(
  ctx: ToolContext,
  pid: number,
  windowId: number,
  path: readonly string[],
  opened: readonly Opened[],
  isBar: MenuBarFilter,
): Promise<boolean> {
  try {
    const { nodes } = await ctx.backend.accessibility.tree(pid, windowId, TREE_LIMITS, ctx.signal);
    const resolution = resolveMenuPath(nodes, path, opened[0].level, isBar);
    if (!resolution.ok) return false;
    const item = resolution.chain[opened[0].level];
    return nodes[item].selected === true || itemsUnder(nodes, item).some((i) => nodes[i].showing);
  } catch {
    return true;
  }
}

/** Why a path is refused: a resolution problem, or a final segment that cannot be invoked. */
type Refusal = MenuPathProblem | "submenu" | "not_invokable";

function unavailable(
  path: readonly string[],
  level: number,
  problem: Refusal,
  available: string[],
  detail?: string,
): DriverError {
  const segment = path[level];
  const where = level === 0 ? "the menu bar" : JSON.stringify(path.slice(0, level).join(" > "));
  const what = detail ??
    (problem === "no_menu_bar"
      ? "the window exposes no menu bar"
      : problem === "missing"
      ? `${where} has no item ${JSON.stringify(segment)}`
      : problem === "ambiguous"
      ? `${where} has several items named ${JSON.stringify(segment)}`
      : `${JSON.stringify(segment)} in ${where} is disabled`);
  const listed = available.length
    ? ` (available: ${available.map((a) => JSON.stringify(a)).join(", ")})`
    : "";
  return new DriverError(
    "menu_path_unavailable",
    `Menu path segment ${level + 1} ${JSON.stringify(segment)} is unavailable: ${what}${listed}`,
    {
      effect: "refused",
      path: [...path],
      segment_index: level,
      segment,
      reason: problem,
      available,
      hint: available.length
        ? "retry with an exact name from available (names are case- and space-sensitive)"
        : "call get_window_state to see the window's menus",
    },
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
