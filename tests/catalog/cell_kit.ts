/**
 * Small builders that keep the cell tables declarative: cell ids from their
 * dimensions, and argument parts an agent would build from a fresh observation.
 *
 * @module
 */
import type {
  Addressing,
  App,
  Call,
  Cell,
  CellContext,
  Delivery,
  ElementSpec,
  Expectation,
  Scope,
} from "./cell.ts";

/** One part of a call's arguments: fixed values, or values read from the cell's fresh view. */
export type ArgPart = Record<string, unknown> | ((ctx: CellContext) => Record<string, unknown>);

/** A cell without its id, which {@linkcode define} derives from the dimensions. */
export interface CellSpec extends Omit<Cell, "id"> {
  /** What sets this cell apart from its siblings (covered, stale_token, ...). */
  variant?: string;
}

const PREFIX: Record<App, string> = {
  fixture: "gtk3",
  "widget-factory": "wf",
  xmessage: "xmessage",
  sentinel: "gtk3",
};
const DELIVERY: Record<Delivery, string> = { background: "bg", foreground: "fg", "n/a": "" };

/** `<app>.<tool>.<addressing>.<bg|fg>.<window|desktop>[.<variant>]` (no delivery part when n/a). */
export function define(spec: CellSpec): Cell {
  const delivery = spec.scope === "desktop" ? "" : DELIVERY[spec.delivery];
  const id = [PREFIX[spec.app], spec.tool, spec.addressing, delivery, spec.scope, spec.variant]
    .filter((part) => part).join(".");
  const { variant: _variant, ...cell } = spec;
  return { id, ...cell };
}

/** Builds the calls of a single-call cell from argument parts, merged left to right. */
export function call(tool: string, ...parts: ArgPart[]): (ctx: CellContext) => Call[] {
  return (ctx) => [{ tool, args: merge(ctx, parts) }];
}

/** Merges argument parts. */
export function merge(ctx: CellContext, parts: readonly ArgPart[]): Record<string, unknown> {
  return Object.assign({}, ...parts.map((part) => typeof part === "function" ? part(ctx) : part));
}

/** Expect the exact refusal `code` (and `field`, for invalid_arguments). */
export function refused(code: string, field?: string): Expectation {
  return { kind: "refused", code, ...(field ? { field } : {}) };
}

/** Expect delivery proven by the oracle; `route` pins the route when given. */
export function delivered(route?: string): Expectation {
  return { kind: "delivered", ...(route ? { route } : {}) };
}

/** `delivery_mode: "foreground"`. */
export const FG = { delivery_mode: "foreground" };

/** The cell's window as `target`. */
export const win: ArgPart = (ctx) => ({ target: ctx.view.target });

/** The desktop as `target`. */
export const DESKTOP = { target: { kind: "desktop" } };

/** An element token from the fresh view. */
export function tok(spec: ElementSpec, nth = 0): ArgPart {
  return (ctx) => ({ element_token: ctx.view.token(spec, nth) });
}

/** The window target and x, y in screenshot pixels at fractions of an element's frame. */
export function px(spec: ElementSpec, fx = 0.5, fy = 0.5, nth = 0): ArgPart {
  return (ctx) => ({ target: ctx.view.target, ...ctx.view.pixel(spec, fx, fy, nth) });
}

/** The desktop target and x, y in screen points at fractions of an element's frame. */
export function desk(spec: ElementSpec, fx = 0.5, fy = 0.5, nth = 0): ArgPart {
  return (ctx) => ({ ...DESKTOP, ...ctx.view.screen(spec, fx, fy, nth) });
}

/** The window target and x, y in screenshot pixels of a fixture widget without an element (drag-area). */
export function wpx(widget: string, fx = 0.5, fy = 0.5): ArgPart {
  return (ctx) => ({ target: ctx.view.target, ...ctx.view.widgetPixel(widget, fx, fy) });
}

/** The same in screen points, for the desktop scope. */
export function wdesk(widget: string, fx = 0.5, fy = 0.5): ArgPart {
  return (ctx) => ({ ...DESKTOP, ...ctx.view.widgetScreen(widget, fx, fy) });
}

/** A drag's from/to fields from two points. */
export function fromTo(
  from: (ctx: CellContext) => { x: number; y: number },
  to: (ctx: CellContext) => { x: number; y: number },
): ArgPart {
  return (ctx) => {
    const a = from(ctx), b = to(ctx);
    return { from_x: a.x, from_y: a.y, to_x: b.x, to_y: b.y };
  };
}

/** Dimensions shared by a group of cells. */
export function dims(
  app: App,
  tool: string,
  addressing: Addressing,
  delivery: Delivery,
  scope: Scope = "window",
): Pick<Cell, "app" | "tool" | "addressing" | "delivery" | "scope"> {
  return { app, tool, addressing, delivery, scope };
}
