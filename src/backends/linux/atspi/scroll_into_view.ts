/**
 * Bringing an element scrolled out of its view back into it, so that pointer input can
 * reach it: first the element's own `Component.ScrollTo` (toolkits that implement it
 * scroll every ancestor view), else the scroll bars of the nearest scroll pane above it,
 * moved through their `Value` until the element has geometry inside the pane. GTK 3
 * answers ScrollTo with false and reports no extents for a widget scrolled out of a
 * viewport, so the second way is the one that works there.
 *
 * @module
 */
import type { AtspiCaller } from "./atspi_bus.ts";
import { type AtspiRef, getExtents, getValueRange, setValue } from "./element_ops.ts";
import { Iface } from "./interfaces.ts";
import { roleName } from "./roles.ts";

/** `ATSPI_SCROLL_ANYWHERE`: the least scrolling that shows the object. */
const SCROLL_ANYWHERE = 6;
/** Ancestors looked at for a scroll pane. */
const MAX_DEPTH = 12;
/** Positions of a scroll bar tried, from its minimum to its maximum. */
const STEPS = 24;
const SETTLE_POLLS = 4;
const POLL_MS = 15;

type Rect = { x: number; y: number; width: number; height: number };

/** How the element was brought into view, for the action's summary; null when it was not. */
export type ScrolledBy = "scroll_to" | "scroll_bar";

function within(inner: Rect, outer: Rect): boolean {
  const cx = inner.x + inner.width / 2, cy = inner.y + inner.height / 2;
  return cx >= outer.x && cy >= outer.y && cx < outer.x + outer.width && cy < outer.y + outer.height;
}

async function parentOf(bus: AtspiCaller, ref: AtspiRef): Promise<AtspiRef | null> {
  const parent = await bus.property(ref.bus, ref.path, Iface.ACCESSIBLE, "Parent").catch(() => null);
  const [name, path] = (parent ?? []) as [string, string];
  return typeof path === "string" && path.startsWith("/") && !path.endsWith("/null")
    ? { bus: name || ref.bus, path }
    : null;
}

async function roleOf(bus: AtspiCaller, ref: AtspiRef): Promise<string> {
  const [role] = await bus.call(ref.bus, ref.path, Iface.ACCESSIBLE, "GetRole");
  return roleName(Number(role));
}

async function childrenOf(bus: AtspiCaller, ref: AtspiRef): Promise<AtspiRef[]> {
  const [children] = await bus.call(ref.bus, ref.path, Iface.ACCESSIBLE, "GetChildren");
  return (children as [string, string][]).map(([name, path]) => ({ bus: name || ref.bus, path }));
}

/** The element's extents once they lie inside `view` (polled briefly while the app redraws). */
async function shownIn(bus: AtspiCaller, ref: AtspiRef, view: Rect | null): Promise<Rect | null> {
  for (let i = 0; i < SETTLE_POLLS; i++) {
    const frame = await getExtents(bus, ref).catch(() => null);
    if (frame && (view === null || within(frame, view))) return frame;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return null;
}

/**
 * Scrolls `ref` into view; returns how, or null when neither way showed it (the views
 * are then left where they were).
 */
export async function scrollIntoView(bus: AtspiCaller, ref: AtspiRef): Promise<ScrolledBy | null> {
  const [scrolled] = await bus.call(ref.bus, ref.path, Iface.COMPONENT, "ScrollTo", "u", [SCROLL_ANYWHERE])
    .catch(() => [false]);
  let pane: AtspiRef | null = null;
  for (let at = await parentOf(bus, ref), depth = 0; at && depth < MAX_DEPTH; depth++) {
    if ((await roleOf(bus, at).catch(() => "")) === "scroll pane") {
      pane = at;
      break;
    }
    at = await parentOf(bus, at);
  }
  const paneFrame = pane ? await getExtents(bus, pane).catch(() => null) : null;
  if (scrolled === true && await shownIn(bus, ref, paneFrame)) return "scroll_to";
  if (!pane || !paneFrame) return null;
  const bars: AtspiRef[] = [];
  for (const child of await childrenOf(bus, pane).catch(() => [])) {
    if ((await roleOf(bus, child).catch(() => "")) === "scroll bar") bars.push(child);
  }
  for (const bar of bars) {
    const range = await getValueRange(bus, bar).catch(() => null);
    if (!range || !Number.isFinite(range.min) || !Number.isFinite(range.max) || range.max <= range.min) {
      continue;
    }
    for (let i = 0; i <= STEPS; i++) {
      await setValue(bus, bar, range.min + ((range.max - range.min) * i) / STEPS);
      if (await shownIn(bus, ref, paneFrame)) return "scroll_bar";
    }
    await setValue(bus, bar, range.current).catch(() => {});
  }
  return null;
}
