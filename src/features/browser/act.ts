/**
 * The frame of browser_click, browser_type and browser_pointer: resolve the exact
 * tab and ref, refuse trusted input a hidden tab cannot take, install the effect
 * probe, act, read the effect back, and build the closed ActionResult.
 *
 * @module
 */
import type { ActionResult } from "../../engine/action_result.ts";
import { actionResult } from "../../engine/outcome.ts";
import { DriverError } from "../../ports/errors.ts";
import type { ToolResult } from "../../kernel/result.ts";
import type { ToolContext } from "../../kernel/tool.ts";
import { type CssPoint, type Dispatched, pointOf, requireTrustedInput } from "./input.ts";
import { EffectProbe, type ElementState, outcomeOf } from "./probe.ts";
import { resolveRef, resolveTab, type TabHandle } from "./resolve.ts";
import type { SnapshotRef } from "./snapshot.ts";

/** Where an action is aimed: a ref, or viewport coordinates. */
export interface Aim {
  ref?: string;
  x?: number;
  y?: number;
}

/** What the action callback gets. */
export interface ActionScope {
  handle: TabHandle;
  entry: SnapshotRef | null;
  probe: EffectProbe;
  /** The aim point: the ref's centre (scrolled into view) or the coordinates. */
  point(): Promise<CssPoint>;
}

/** What the action callback reports. */
export interface ActionDone {
  dispatched: Dispatched;
  summary: string;
  deliveredCount: number;
  /** Keystrokes cut short (a dialog opened mid-way): reported as browser_input_incomplete. */
  incomplete?: { sent: number; expected: number };
}

/** Options of {@linkcode runBrowserAction}. */
export interface BrowserActionOptions {
  targetId: string;
  tabId: string;
  aim: Aim;
  /** Whether the aim may be coordinates (browser_type takes a ref only). */
  requireRef?: boolean;
  /** With no aim at all, aim at the viewport's centre (scroll). */
  centreByDefault?: boolean;
  route: "trusted" | "dom_event";
  /** DOM events the probe records. */
  events: string[];
  expect?: (before: ElementState, after: ElementState) => boolean;
  settleMs?: number;
}

/**
 * Resolves `aim` (a ref xor both coordinates).
 *
 * @throws {DriverError} `invalid_arguments`, and the ref codes of {@linkcode resolveRef}.
 */
export function aimAt(ctx: ToolContext, handle: TabHandle, aim: Aim, requireRef = false): SnapshotRef | null {
  const hasPoint = aim.x !== undefined || aim.y !== undefined;
  if (aim.ref !== undefined && hasPoint) {
    throw new DriverError("invalid_arguments", "Pass ref or x, y, not both", { field: "ref" });
  }
  if (aim.ref !== undefined) return resolveRef(ctx, handle, aim.ref);
  if (requireRef || aim.x === undefined || aim.y === undefined) {
    throw new DriverError("invalid_arguments", requireRef ? "Pass ref" : "Pass ref, or both x and y", {
      field: requireRef || !hasPoint ? "ref" : aim.x === undefined ? "x" : "y",
      hint: "take refs from get_browser_state; x, y are viewport CSS pixels",
    });
  }
  return null;
}

/** Runs one browser action and returns its ActionResult. */
export async function runBrowserAction(
  ctx: ToolContext,
  options: BrowserActionOptions,
  act: (scope: ActionScope) => Promise<ActionDone>,
): Promise<ToolResult> {
  const handle = await resolveTab(ctx, options.targetId, options.tabId);
  const { aim } = options;
  const noAim = aim.ref === undefined && aim.x === undefined && aim.y === undefined;
  const centre = noAim && options.centreByDefault === true;
  const entry = centre ? null : aimAt(ctx, handle, aim, options.requireRef);
  if (options.route === "trusted") await requireTrustedInput(handle.tab);
  const probe = await EffectProbe.install(handle.tab, entry, options.events);
  const point = async () => {
    if (entry) return await pointOf(handle.tab, entry);
    const metrics = await handle.tab.send("Page.getLayoutMetrics");
    const viewport = metrics.cssLayoutViewport ?? metrics.layoutViewport;
    const at = centre
      ? { x: viewport.clientWidth / 2, y: viewport.clientHeight / 2 }
      : { x: aim.x!, y: aim.y! };
    if (at.x >= viewport.clientWidth || at.y >= viewport.clientHeight) {
      throw new DriverError("browser_action_unavailable", `(${at.x}, ${at.y}) is outside the viewport`, {
        viewport: { width: viewport.clientWidth, height: viewport.clientHeight },
        hint: "x, y are viewport CSS pixels; take them from a ref's bounds or a screenshot's scale",
      });
    }
    return at;
  };
  let done: ActionDone;
  try {
    done = await act({ handle, entry, probe, point });
  } catch (error) {
    await probe.finish(undefined, 0).catch(() => {});
    throw error;
  }
  const effect = await probe.finish(options.expect, options.settleMs);
  if (done.incomplete) {
    throw new DriverError(
      "browser_input_incomplete",
      `Only ${done.incomplete.sent} of ${done.incomplete.expected} keystrokes were typed` +
        (effect.dialog ? ": a JavaScript dialog opened and holds the page" : ""),
      {
        sent: done.incomplete.sent,
        expected: done.incomplete.expected,
        dialog: handle.tab.dialog,
        hint: "answer the dialog with browser_dialog, snapshot the tab, and type the rest",
      },
    );
  }
  const route: ActionResult["route"] = options.route === "trusted" ? "trusted_input" : "dom";
  return actionResult(
    outcomeOf(effect, { route, summary: done.summary, deliveredCount: done.deliveredCount }),
  );
}
