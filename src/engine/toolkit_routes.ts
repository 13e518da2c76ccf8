/**
 * Which background routes land in which toolkit, decided before anything is sent: a
 * route a toolkit drops is refused with `background_unavailable` and the rung that
 * works, instead of sending input into the void.
 *
 * Measured on this project's desktops: Chromium and WebKitGTK renderers drop private
 * pointer and keyboard input; Qt takes private pointer input but drops private keys (its
 * shortcuts and focus widget answer only in the active window); Firefox drops both (its
 * web content still has element actions through accessibility); Xt apps such as xterm
 * drop private keys (and ignore synthetic key events unless started with
 * allowSendEvents).
 *
 * @module
 */
import type { Toolkit } from "../ports/input.ts";
import { DriverError } from "../ports/errors.ts";

/**
 * Refuses background input a toolkit is known to drop. For a Chromium window the
 * escalation names the page rung and the exact call that binds the window to it:
 * `get_browser_state {pid, window_id}`, then browser_click / browser_type.
 *
 * @throws {DriverError} `background_unavailable` (nothing was sent).
 */
export function refuseBackgroundFor(
  toolkit: Toolkit,
  what: "pointer" | "keyboard",
  window?: { pid: number; windowId: number },
): void {
  if (toolkit === "chromium") {
    const bind = window ? { pid: window.pid, window_id: window.windowId } : null;
    const call = bind
      ? `get_browser_state {pid: ${bind.pid}, window_id: ${bind.window_id}}`
      : "get_browser_state";
    throw new DriverError(
      "background_unavailable",
      `Background ${what} input to a Chromium/Electron window is dropped by its renderer; nothing was sent`,
      {
        effect: "refused",
        toolkit,
        escalation: {
          recommended: "page",
          reason: "renderer_drops_background_input",
          ...(bind ? { bind: { tool: "get_browser_state", arguments: bind } } : {}),
          then: what === "keyboard" ? ["browser_type"] : ["browser_click", "browser_pointer"],
        },
        suggestion:
          `bind the window with ${call}, snapshot a tab with get_browser_state {target_id, tab_id}, ` +
          `then use ${what === "keyboard" ? "browser_type" : "browser_click or browser_pointer"} on a ref ` +
          '(a browser without a DevTools endpoint needs browser_prepare first); or retry with delivery_mode "foreground"',
        hint: `use the page rung: ${call}, then ${what === "keyboard" ? "browser_type" : "browser_click"}; ` +
          'or delivery_mode "foreground"',
      },
    );
  }
  const dropped = DROPS[toolkit]?.[what];
  if (dropped) {
    throw new DriverError(
      "background_unavailable",
      `Background ${what} input to ${dropped.app} is dropped: ${dropped.why}; nothing was sent`,
      {
        effect: "refused",
        toolkit,
        escalation: { recommended: "foreground", reason: `${toolkit}_drops_background_${what}` },
        suggestion: 'Retry this action with delivery_mode:"foreground".',
        hint: dropped.hint,
      },
    );
  }
}

/**
 * False for a toolkit whose editable text acknowledges accessibility inserts without
 * applying them (Firefox 140: `InsertText` and `SetTextContents` answer true and change
 * nothing), so typing does not take that route there.
 */
export function insertsText(toolkit: Toolkit): boolean {
  return toolkit !== "gecko";
}

interface Dropped {
  app: string;
  why: string;
  hint: string;
}

const FOREGROUND = 'retry with delivery_mode "foreground"';

/** Background routes each toolkit drops, with why and what works instead. */
const DROPS: Partial<Record<Toolkit, Partial<Record<"pointer" | "keyboard", Dropped>>>> = {
  webkit: {
    pointer: { app: "a WebKitGTK window", why: "its web content never sees it", hint: FOREGROUND },
    keyboard: { app: "a WebKitGTK window", why: "its web content never sees it", hint: FOREGROUND },
  },
  qt: {
    keyboard: {
      app: "a Qt window",
      why: "Qt answers keys (shortcuts, the focused widget) only in the active window",
      hint:
        `${FOREGROUND}; to type into a text field, pass its element_token (text goes in through accessibility)`,
    },
  },
  xt: {
    keyboard: {
      app: "an Xt window (xterm)",
      why: "it reads keys from the core keyboard only, and ignores synthetic key events",
      hint: FOREGROUND,
    },
  },
  gecko: {
    pointer: {
      app: "a Firefox window",
      why: "Firefox takes no input from a second pointer",
      hint: `click web content and controls by element_token (accessibility actions), or ${FOREGROUND}`,
    },
    keyboard: {
      app: "a Firefox window",
      why: "Firefox takes no input from a second keyboard and ignores accessibility text inserts",
      hint:
        `${FOREGROUND}, with the field's element_token or x, y (the field is clicked to focus, then typed ` +
        "on the keyboard); the page rung (browser_type) drives Chromium pages only",
    },
  },
};
