/**
 * Parameter fragments of the browser tools (contract.md §1.8).
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { shared } from "../_shared/params.ts";

/** The session-scoped target id get_browser_state minted. */
export const targetIdParam = z.string().min(1).max(64).describe(
  "target_id from get_browser_state's bind result (same session)",
).meta(shared("target_id"));

/** A tab id of that target. */
export const tabIdParam = z.string().min(1).max(64).describe("tab_id from get_browser_state's tabs").meta(
  shared("tab_id"),
);

/** A ref of the tab's latest snapshot. */
export const refParam = z.string().min(1).max(64).describe(
  "Element ref p<snapshot>:<index> from the tab's latest get_browser_state snapshot",
).meta(shared("ref"));

/** Trusted CDP input (default) or DOM events from page script. */
export const inputRouteParam = z.enum(["trusted", "dom_event"]).default("trusted").describe(
  'trusted (default): CDP Input events the page sees as the user\'s (isTrusted); "dom_event": events ' +
    "dispatched from page script (isTrusted false), for elements trusted input cannot reach",
).meta(shared("input_route"));

/** A viewport CSS coordinate. */
export const cssCoordinate = z.number().min(0).max(100_000);
