/**
 * The `dom_event` input route: events dispatched from page script at an element
 * (`isTrusted: false`). Pages may ignore them, which is why `trusted` is the default;
 * it exists for pages whose elements trusted input cannot reach.
 *
 * @module
 */
import { type CssPoint, dispatch, type Dispatched } from "./input.ts";
import type { Tab } from "./tab.ts";

const DOM_POINTER = `function (action, x, y, button, count, dx, dy, tx, ty) {
  const at = this && this.nodeType === 1 ? this : document.elementFromPoint(x, y);
  if (!at) return false;
  const r = at.getBoundingClientRect();
  const cx = this && this.nodeType === 1 ? r.x + r.width / 2 : x;
  const cy = this && this.nodeType === 1 ? r.y + r.height / 2 : y;
  const b = { left: 0, middle: 1, right: 2 }[button] ?? 0;
  const fire = (el, type, px, py, extra = {}) => el.dispatchEvent(new MouseEvent(type, { bubbles: true,
    cancelable: true, composed: true, clientX: px, clientY: py, button: b, view: window, ...extra }));
  if (action === 'click') {
    for (let i = 1; i <= count; i++) {
      fire(at, 'mousedown', cx, cy, { detail: i, buttons: 1 << b });
      if (i === 1 && at.focus) at.focus();
      fire(at, 'mouseup', cx, cy, { detail: i });
      if (b === 0) fire(at, 'click', cx, cy, { detail: i });
    }
    if (b === 2) fire(at, 'contextmenu', cx, cy);
    if (count === 2 && b === 0) fire(at, 'dblclick', cx, cy, { detail: 2 });
  } else if (action === 'hover') {
    fire(at, 'mouseover', cx, cy); fire(at, 'mouseenter', cx, cy); fire(at, 'mousemove', cx, cy);
  } else if (action === 'scroll') {
    let el = at;
    while (el && !(el.scrollHeight > el.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(el).overflowY)) &&
      !(el.scrollWidth > el.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(el).overflowX))) el = el.parentElement;
    el ? el.scrollBy(dx, dy) : window.scrollBy(dx, dy);
  } else if (action === 'drag') {
    const dest = document.elementFromPoint(tx, ty) || document.body;
    fire(at, 'mousedown', cx, cy, { buttons: 1 });
    if (at.draggable) {
      const data = new DataTransfer();
      const drag = (el, type, px, py) => el.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true,
        composed: true, clientX: px, clientY: py, dataTransfer: data }));
      drag(at, 'dragstart', cx, cy); drag(dest, 'dragenter', tx, ty); drag(dest, 'dragover', tx, ty);
      drag(dest, 'drop', tx, ty); drag(at, 'dragend', tx, ty);
    } else {
      fire(dest, 'mousemove', tx, ty, { buttons: 1 });
    }
    fire(dest, 'mouseup', tx, ty);
  }
  return true;
}`;

/** What a DOM-route pointer action does. */
export interface DomPointer {
  action: "click" | "hover" | "scroll" | "drag";
  /** The element; null means the element at `at`. */
  objectId: string | null;
  at: CssPoint;
  button?: "left" | "right" | "middle";
  count?: number;
  delta?: { x: number; y: number };
  to?: CssPoint;
}

/**
 * Dispatches DOM events for a pointer action (racing a dialog the events may open).
 * With no element at the point nothing is dispatched; the effect probe then sees no events.
 */
export async function domPointer(tab: Tab, spec: DomPointer): Promise<Dispatched> {
  const values = [
    spec.action,
    spec.at.x,
    spec.at.y,
    spec.button ?? "left",
    spec.count ?? 1,
    spec.delta?.x ?? 0,
    spec.delta?.y ?? 0,
    spec.to?.x ?? 0,
    spec.to?.y ?? 0,
  ];
  const objectId = spec.objectId ??
    (await tab.send("Runtime.evaluate", { expression: "document", objectGroup: "cua-driver-dom" })).result
      .objectId;
  try {
    return await dispatch(tab, "Runtime.callFunctionOn", {
      functionDeclaration: DOM_POINTER,
      objectId,
      arguments: values.map((value) => ({ value })),
    });
  } finally {
    // Not awaited: while a dialog holds the page the renderer answers nothing.
    void tab.send("Runtime.releaseObjectGroup", { objectGroup: "cua-driver-dom" }).catch(() => {});
  }
}
