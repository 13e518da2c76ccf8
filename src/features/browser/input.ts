/**
 * Trusted input over the CDP Input domain (`Input.dispatchMouseEvent`,
 * `dispatchKeyEvent`, `insertText`): the browser treats it as the user's, and it
 * reaches a background window; keys and text leave the desktop's focus alone, but a
 * mouse press makes Chromium activate its window (seen on X11; the legacy page tool
 * clicks with page-script events instead). A dispatch that opens a JavaScript dialog
 * does not return until the dialog is answered, so every dispatch races the dialog
 * event and reports "dialog" instead of hanging.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import { backendNodeIdOf, type SnapshotRef } from "./snapshot.ts";
import type { Tab } from "./tab.ts";

/** A point in viewport CSS pixels. */
export interface CssPoint {
  x: number;
  y: number;
}

/** Mouse buttons CDP knows. */
export type CdpButton = "left" | "right" | "middle";

const BUTTON_BITS: Record<CdpButton, number> = { left: 1, right: 2, middle: 4 };

/** How a dispatch ended: it ran, or a dialog opened and holds it. */
export type Dispatched = "done" | "dialog";

/**
 * Sends one Input command, returning "dialog" as soon as a dialog opens under it.
 *
 * @throws {DriverError} `browser_tab_not_found` when the tab is gone.
 */
export async function dispatch(
  tab: Tab,
  method: string,
  params: Record<string, unknown>,
): Promise<Dispatched> {
  if (tab.dialog) return "dialog";
  const opened = tab.conn.waitFor("Page.javascriptDialogOpening", {
    sessionId: tab.sessionId,
    timeoutMs: 15_000,
  });
  const sent = tab.send(method, params, 15_000).then(() => "done" as const);
  // The command stays pending until the dialog is answered; its outcome no longer matters.
  sent.catch(() => {});
  try {
    return await Promise.race([sent, opened.promise.then((event) => (event ? "dialog" as const : sent))]);
  } finally {
    opened.cancel();
  }
}

/**
 * The centre of a ref's element in the viewport, scrolled into view first.
 *
 * @throws {DriverError} `browser_action_unavailable` when the element has no box.
 */
export async function pointOf(tab: Tab, ref: SnapshotRef): Promise<CssPoint> {
  const backendNodeId = await backendNodeIdOf(tab, ref);
  await tab.send("DOM.scrollIntoViewIfNeeded", { backendNodeId }).catch(() => {});
  let quads: number[][] = [];
  try {
    quads = (await tab.send("DOM.getContentQuads", { backendNodeId })).quads ?? [];
  } catch (error) {
    if (error instanceof DriverError) throw error;
  }
  const quad = quads.find((q) => Math.abs(q[4] - q[0]) > 0.5 && Math.abs(q[5] - q[1]) > 0.5);
  if (!quad) {
    throw new DriverError(
      "browser_action_unavailable",
      `Ref ${ref.ref} (${ref.role}) has no visible box to act on`,
      {
        ref: ref.ref,
        hint: "pick a visible element from a fresh get_browser_state, or use input_route dom_event",
      },
    );
  }
  const xs = [quad[0], quad[2], quad[4], quad[6]];
  const ys = [quad[1], quad[3], quad[5], quad[7]];
  return { x: xs.reduce((a, b) => a + b) / 4, y: ys.reduce((a, b) => a + b) / 4 };
}

/**
 * Refuses trusted input to a tab the browser is not showing (a background tab takes none).
 *
 * @throws {DriverError} `browser_input_trust_unavailable`.
 */
export async function requireTrustedInput(tab: Tab): Promise<void> {
  const { result } = await tab.send("Runtime.evaluate", {
    expression: "document.visibilityState",
    returnByValue: true,
  });
  if (result.value === "hidden") {
    throw new DriverError(
      "browser_input_trust_unavailable",
      `Tab ${tab.id} is not the visible tab of its window, so trusted input cannot reach it`,
      { tab_id: tab.id, hint: 'use input_route "dom_event", or show the tab first' },
    );
  }
}

/** Moves the mouse to a point (hover); `buttons` 1 while the left button is held (drag). */
export function mouseMove(tab: Tab, at: CssPoint, buttons = 0): Promise<Dispatched> {
  const held = buttons & 1 ? { button: "left" } : {};
  return dispatch(tab, "Input.dispatchMouseEvent", {
    type: "mouseMoved",
    x: at.x,
    y: at.y,
    buttons,
    ...held,
  });
}

/** Clicks `count` times (count 2 = a double click the page sees as dblclick). */
export async function mouseClick(
  tab: Tab,
  at: CssPoint,
  button: CdpButton,
  count: number,
): Promise<Dispatched> {
  if ((await mouseMove(tab, at)) === "dialog") return "dialog";
  for (let i = 1; i <= count; i++) {
    for (const type of ["mousePressed", "mouseReleased"]) {
      const buttons = type === "mousePressed" ? BUTTON_BITS[button] : 0;
      const sent = await dispatch(tab, "Input.dispatchMouseEvent", {
        type,
        x: at.x,
        y: at.y,
        button,
        buttons,
        clickCount: i,
      });
      if (sent === "dialog") return "dialog";
    }
  }
  return "done";
}

/** Turns the wheel at a point by CSS pixels. */
export function wheel(tab: Tab, at: CssPoint, deltaX: number, deltaY: number): Promise<Dispatched> {
  return dispatch(tab, "Input.dispatchMouseEvent", { type: "mouseWheel", x: at.x, y: at.y, deltaX, deltaY });
}

/**
 * Press, move in steps, release. HTML5 drag and drop is intercepted and replayed
 * with `Input.dispatchDragEvent`, since a real drag session would wait for the OS.
 */
export async function drag(tab: Tab, from: CssPoint, to: CssPoint, steps = 10): Promise<Dispatched> {
  await tab.send("Input.setInterceptDrags", { enabled: true });
  const intercepted = tab.conn.waitFor("Input.dragIntercepted", {
    sessionId: tab.sessionId,
    timeoutMs: 15_000,
  });
  try {
    if ((await mouseMove(tab, from)) === "dialog") return "dialog";
    const press = { type: "mousePressed", x: from.x, y: from.y, button: "left", buttons: 1, clickCount: 1 };
    if ((await dispatch(tab, "Input.dispatchMouseEvent", press)) === "dialog") return "dialog";
    for (let i = 1; i <= steps; i++) {
      const at = { x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps };
      if ((await mouseMove(tab, at, 1)) === "dialog") return "dialog";
    }
    const data = await Promise.race([intercepted.promise, new Promise((r) => setTimeout(() => r(null), 50))]);
    if (data) {
      const { data: dragData } = data as { data: unknown };
      for (const type of ["dragEnter", "dragOver", "drop"]) {
        await tab.send("Input.dispatchDragEvent", { type, x: to.x, y: to.y, data: dragData });
      }
    }
    const release = { type: "mouseReleased", x: to.x, y: to.y, button: "left", buttons: 0, clickCount: 1 };
    return await dispatch(tab, "Input.dispatchMouseEvent", release);
  } finally {
    intercepted.cancel();
    await tab.send("Input.setInterceptDrags", { enabled: false }).catch(() => {});
  }
}

/** The key fields of one character for `Input.dispatchKeyEvent`. */
function keyOf(ch: string): Record<string, unknown> {
  if (ch === "\n" || ch === "\r") {
    return { key: "Enter", code: "Enter", windowsVirtualKeyCode: 13, text: "\r" };
  }
  if (ch === "\t") return { key: "Tab", code: "Tab", windowsVirtualKeyCode: 9 };
  const upper = ch.toUpperCase();
  const code = /^[a-z]$/i.test(ch)
    ? `Key${upper}`
    : /^\d$/.test(ch)
    ? `Digit${ch}`
    : ch === " "
    ? "Space"
    : "";
  const vk = /^[a-z0-9 ]$/i.test(ch) ? upper.charCodeAt(0) : 0;
  return { key: ch, code, windowsVirtualKeyCode: vk, text: ch, unmodifiedText: ch };
}

/**
 * Types text as one key press per character (Enter for newlines).
 *
 * @returns How many characters were pressed, and whether a dialog stopped the typing.
 */
export async function typeKeys(tab: Tab, text: string): Promise<{ count: number; dialog: boolean }> {
  let count = 0;
  for (const ch of text.replaceAll("\r\n", "\n")) {
    const key = keyOf(ch);
    if ((await dispatch(tab, "Input.dispatchKeyEvent", { type: "keyDown", ...key })) === "dialog") {
      return { count, dialog: true };
    }
    await dispatch(tab, "Input.dispatchKeyEvent", { type: "keyUp", key: key.key, code: key.code });
    count++;
  }
  return { count, dialog: false };
}

/** Inserts text at the caret in one IME-style commit (`Input.insertText`). */
export function insertText(tab: Tab, text: string): Promise<Dispatched> {
  return dispatch(tab, "Input.insertText", { text });
}
