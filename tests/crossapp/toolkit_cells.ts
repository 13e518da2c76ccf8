/**
 * Cross-app cells of gtk4-widget-factory (GTK 4) and kcalc (Qt 5), judged by an
 * independent AT-SPI reader.
 *
 * @module
 */
import { type CrossApp, type CrossContext, element, oracle, pixel } from "./cell.ts";
import { call, delivered, FG, MIXED, noop, refused } from "./expect.ts";
import { states, walk } from "./reader.ts";

/** The checked state of the nth on-screen object of a role (and name), top to bottom. */
function checked(role: string, name: string, nth: number) {
  return oracle(
    `${role} ${JSON.stringify(name)} #${nth} flips`,
    async (ctx) => (await states(ctx.app.pid, role, name))[nth]?.checked ?? null,
    (b, a) => b !== null && a !== null && a !== b,
  );
}

/** The text of the nth on-screen object of a role. */
function textOf(role: string, nth: number, says: string, intended: (b: string, a: string) => boolean) {
  return oracle(
    says,
    async (ctx) => (await states(ctx.app.pid, role))[nth]?.text ?? "",
    (b: string, a: string) => intended(b, a),
  );
}

/** gtk4-widget-factory: check boxes, entries and the page switcher of page 1. */
export function gtk4(): CrossApp {
  const entry = 2; // the third one-line text field from the top
  return {
    name: "gtk4",
    launch: { launch_path: "gtk4-widget-factory" },
    window: (w) => w.title === "GTK Widget Factory",
    hasTree: true,
    cells: [
      {
        id: "gtk4.click.element.bg.checkbox",
        calls: call(
          "click",
          (_c, s) => ({ element_token: element(s, "check box", "checkbutton", 0).element_token }),
        ),
        oracle: checked("check box", "checkbutton", 0),
        expect: delivered,
      },
      {
        id: "gtk4.click.pixel.bg.checkbox",
        calls: call(
          "click",
          (c, s) => ({ target: c.app.target, ...pixel(s, element(s, "check box", "checkbutton", 1), 0.1) }),
        ),
        oracle: checked("check box", "checkbutton", 1),
        expect: delivered,
      },
      {
        id: "gtk4.click.pixel.fg.checkbox",
        calls: call(
          "click",
          (c, s) => ({
            target: c.app.target,
            ...pixel(s, element(s, "check box", "checkbutton", 0), 0.1),
            ...FG,
          }),
        ),
        oracle: checked("check box", "checkbutton", 0),
        expect: delivered,
      },
      {
        id: "gtk4.type_text.element.bg.mixed",
        calls: call(
          "type_text",
          (_c, s) => ({ element_token: element(s, "text", undefined, entry).element_token, text: MIXED }),
        ),
        oracle: textOf("text", entry, `entry gets "${MIXED}"`, (b, a) => a !== b && a.includes(MIXED)),
        expect: delivered,
      },
      {
        id: "gtk4.press_key.element.bg.backspace",
        calls: call(
          "press_key",
          (_c, s) => ({
            element_token: element(s, "text", undefined, entry).element_token,
            key: "BackSpace",
          }),
        ),
        oracle: textOf(
          "text",
          entry,
          "entry loses one character",
          (b, a) => [...a].length === [...b].length - 1,
        ),
        expect: delivered,
      },
      {
        id: "gtk4.hotkey.element.bg.ctrl_backspace",
        calls: call(
          "hotkey",
          (_c, s) => ({
            element_token: element(s, "text", undefined, entry).element_token,
            keys: ["ctrl", "BackSpace"],
          }),
        ),
        oracle: textOf(
          "text",
          entry,
          "entry loses its last word",
          (b, a) => a.length < b.length && b.startsWith(a),
        ),
        expect: delivered,
      },
      {
        id: "gtk4.invoke_menu.none.bg.no_menu_bar",
        calls: call(
          "invoke_menu",
          (c) => ({ pid: c.app.pid, window_id: c.app.windowId, path: ["File", "Open"] }),
        ),
        oracle: checked("check box", "checkbutton", 0),
        expect: refused("menu_path_unavailable"),
      },
    ],
  };
}

/** kcalc's display: the on-screen frame whose name is the number shown. */
function display() {
  return async (ctx: CrossContext) =>
    (await states(ctx.app.pid, "frame")).find((f) => /^[-−]?[\d.,]+$/.test(f.name))?.name.replaceAll(
      ",",
      "",
    ) ?? null;
}

/** Everything on screen an independent walk reads: roles, names and the toggled/focused states. */
function everything() {
  return async (ctx: CrossContext) =>
    (await walk(ctx.app.pid)).map((n) => `${n.role}|${n.name}|${n.checked}|${n.selected}|${n.focused}`);
}

/** kcalc (Qt 5): keys by element and pixel in background, typing refused in background and done in foreground. */
export function kcalc(): CrossApp {
  const shows = (says: string, intended: (b: string, a: string) => boolean) =>
    oracle(says, async (ctx) => await display()(ctx) ?? "", intended);
  return {
    name: "kcalc",
    launch: { launch_path: "kcalc" },
    window: (w) => /KCalc/.test(w.title),
    hasTree: true,
    cells: [
      {
        id: "kcalc.click.element.bg.digit",
        calls: call("click", (_c, s) => ({ element_token: element(s, "push button", "7").element_token })),
        oracle: shows("display ends in 7", (b, a) => a !== b && a.endsWith("7")),
        expect: delivered,
      },
      {
        id: "kcalc.click.pixel.bg.digit",
        calls: call(
          "click",
          (c, s) => ({ target: c.app.target, ...pixel(s, element(s, "push button", "8")) }),
        ),
        oracle: shows("display ends in 78", (b, a) => a !== b && a.endsWith("78")),
        expect: delivered,
      },
      {
        id: "kcalc.click.pixel.bg.status_bar",
        // The empty left end of the status bar: nothing there reacts to a click.
        calls: call("click", (c, s) => ({
          target: c.app.target,
          x: Math.round(s.screenshot_width * 0.1),
          y: Math.round(s.screenshot_height - 8 * (s.screenshot_height / s.bounds.height)),
        })),
        oracle: oracle("nothing on screen changes", everything(), () => false),
        expect: noop,
      },
      {
        id: "kcalc.type_text.none.bg.refused",
        calls: call("type_text", (c) => ({ target: c.app.target, text: "5" })),
        oracle: shows("display unchanged", () => false),
        expect: refused("background_unavailable"),
      },
      {
        id: "kcalc.type_text.none.fg",
        calls: call("type_text", (c) => ({ target: c.app.target, text: "12", ...FG })),
        oracle: shows("display ends in 7812", (b, a) => a !== b && a.endsWith("7812")),
        expect: delivered,
      },
      {
        id: "kcalc.press_key.none.fg.backspace",
        calls: call("press_key", (c) => ({ target: c.app.target, key: "BackSpace", ...FG })),
        oracle: shows(
          "display loses its last digit",
          (b, a) => a === b.slice(0, -1) || (a !== b && a.endsWith("781")),
        ),
        expect: delivered,
      },
      {
        id: "kcalc.press_key.none.bg.refused",
        calls: call("press_key", (c) => ({ target: c.app.target, key: "Escape" })),
        oracle: shows("display unchanged", () => false),
        expect: refused("background_unavailable"),
      },
      {
        id: "kcalc.invoke_menu.none.bg.history",
        calls: call(
          "invoke_menu",
          (c) => ({ pid: c.app.pid, window_id: c.app.windowId, path: ["Settings", "Show History"] }),
        ),
        oracle: oracle(
          "the history pane appears",
          async (ctx) => (await walk(ctx.app.pid)).length,
          (b, a) => a > b,
        ),
        expect: delivered,
      },
      {
        id: "kcalc.invoke_menu.none.bg.missing",
        calls: call(
          "invoke_menu",
          (c) => ({ pid: c.app.pid, window_id: c.app.windowId, path: ["Edit", "Nope"] }),
        ),
        oracle: shows("display unchanged", () => false),
        expect: refused("menu_path_unavailable"),
      },
    ],
  };
}
