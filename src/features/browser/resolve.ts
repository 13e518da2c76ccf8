/**
 * Exact addressing for every browser call: a target bound in this session, one of
 * its live tabs, and a ref from that tab's latest snapshot. Nothing is guessed: an
 * unknown target, a closed tab, a navigated tab or an old ref is refused.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { ToolContext } from "../../kernel/tool.ts";
import { probeEndpoint } from "./endpoint.ts";
import { parseRef, type SnapshotRef } from "./snapshot.ts";
import type { BoundTarget } from "./store.ts";
import type { Baseline, Tab } from "./tab.ts";
import { browsersOf } from "./slot.ts";

/** A resolved (target, tab) pair. */
export interface TabHandle {
  target: BoundTarget;
  tab: Tab;
  /** The tab's document when it was resolved. */
  current: Baseline;
}

/**
 * The bound target `targetId` of the caller's session.
 *
 * @throws {DriverError} `browser_binding_stale` (unknown, or its connection dropped),
 *   `browser_reconnect_exhausted` (the endpoint is gone).
 */
export async function resolveTarget(ctx: ToolContext, targetId: string): Promise<BoundTarget> {
  const target = browsersOf(ctx.state).target(ctx.session.id, targetId);
  if (!target) {
    throw new DriverError("browser_binding_stale", `target_id ${targetId} is not bound in this session`, {
      target_id: targetId,
      hint: "call get_browser_state with pid and window_id (in the same session) to bind the window",
    });
  }
  if (target.conn.closed) {
    const alive = await probeEndpoint(target.endpoint.port, 1_500);
    throw alive
      ? new DriverError("browser_binding_stale", `The DevTools connection of ${targetId} dropped`, {
        target_id: targetId,
        hint: "call get_browser_state with pid and window_id to bind the window again",
      })
      : new DriverError("browser_reconnect_exhausted", `The browser of ${targetId} no longer answers`, {
        target_id: targetId,
        pid: target.pid,
        hint: "the browser closed; call browser_prepare to start one",
      });
  }
  return target;
}

/**
 * A live tab of a bound target, checked with {@linkcode Tab.requireLive}.
 *
 * @throws {DriverError} `browser_tab_required`, `browser_tab_not_found`,
 *   `browser_wrong_target_refused`, `browser_binding_stale`, `browser_action_unavailable`.
 */
export async function resolveTab(
  ctx: ToolContext,
  targetId: string,
  tabId: string | undefined,
  options: { allowDialog?: boolean; allowNavigated?: boolean } = {},
): Promise<TabHandle> {
  const { target, tab } = await findTab(ctx, targetId, tabId);
  const current = await tab.requireLive(options);
  return { target, tab, current };
}

/**
 * A tab of a bound target by id, not yet checked for liveness (the caller runs
 * {@linkcode Tab.requireLive}, or uses {@linkcode resolveTab}).
 *
 * @throws {DriverError} `browser_tab_required`, `browser_tab_not_found`,
 *   `browser_wrong_target_refused`, `browser_binding_stale`.
 */
export async function findTab(
  ctx: ToolContext,
  targetId: string,
  tabId: string | undefined,
): Promise<{ target: BoundTarget; tab: Tab }> {
  const target = await resolveTarget(ctx, targetId);
  if (tabId === undefined) {
    throw new DriverError("browser_tab_required", `Name one tab of ${targetId}`, {
      target_id: targetId,
      tab_ids: [...target.tabs.values()].filter((t) => !t.closed).map((t) => t.id),
      hint: "pass tab_id from get_browser_state's tabs",
    });
  }
  const tab = target.tabs.get(tabId);
  if (!tab) {
    const elsewhere = browsersOf(ctx.state).targets(ctx.session.id).find((t) => t.tabs.has(tabId));
    throw elsewhere
      ? new DriverError(
        "browser_wrong_target_refused",
        `Tab ${tabId} belongs to ${elsewhere.id}, not ${targetId}`,
        {
          target_id: targetId,
          tab_id: tabId,
          hint: "pass the target_id the tab was listed under",
        },
      )
      : new DriverError("browser_tab_not_found", `Tab ${tabId} is not a tab of ${targetId}`, {
        target_id: targetId,
        tab_id: tabId,
        hint: "call get_browser_state with pid and window_id to list the current tabs",
      });
  }
  return { target, tab };
}

/**
 * The snapshot entry of a ref, in the tab's latest snapshot.
 *
 * @throws {DriverError} `invalid_arguments` (not `p<n>:<i>`), `browser_wrong_target_refused`
 *   (another tab's ref), `browser_ref_stale` (an older snapshot or no such index).
 */
export function resolveRef(
  ctx: ToolContext,
  handle: Pick<TabHandle, "target" | "tab">,
  ref: string,
): SnapshotRef {
  const parsed = parseRef(ref);
  if (!parsed) {
    throw new DriverError(
      "invalid_arguments",
      `ref ${JSON.stringify(ref)} is not of the form p<snapshot>:<index>`,
      {
        field: "ref",
        hint: "take refs from get_browser_state",
      },
    );
  }
  const owner = browsersOf(ctx.state).snapshotOwner(parsed.snapshot);
  const here = `${handle.target.id}/${handle.tab.id}`;
  if (owner !== undefined && owner !== here) {
    throw new DriverError("browser_wrong_target_refused", `Ref ${ref} belongs to another tab (${owner})`, {
      ref,
      hint: "use refs from a snapshot of this target_id and tab_id",
    });
  }
  const snapshot = handle.tab.snapshot;
  const entry = snapshot?.id === parsed.snapshot ? snapshot.refs[parsed.index] : undefined;
  if (!entry) {
    throw new DriverError(
      "browser_ref_stale",
      snapshot?.id === parsed.snapshot
        ? `Snapshot p${parsed.snapshot} has no ref ${parsed.index}`
        : `Ref ${ref} is from an older snapshot; the current one is ${snapshot ? `p${snapshot.id}` : "none"}`,
      {
        ref,
        current_snapshot: snapshot ? `p${snapshot.id}` : null,
        hint: "call get_browser_state for fresh refs",
      },
    );
  }
  return entry;
}
