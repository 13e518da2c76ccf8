/**
 * The apps of the cross-app catalog and their cells: gtk4-widget-factory (GTK 4), kcalc
 * (Qt 5), LibreOffice Writer and Calc (gtk3 plugin), Firefox ESR and xterm. Each cell is
 * judged by state the app owns, read independently: AT-SPI from a fresh Debian python3
 * (reader.py), the window title the X server holds (xprop), a file the app wrote.
 *
 * @module
 */
import type { Structured } from "../_helpers/in_process_driver.ts";
import { x } from "../_helpers/x11_probe.ts";
import { type CrossApp, type CrossContext, element, oracle, pixel } from "./cell.ts";
import { states, texts, walk } from "./reader.ts";

/** Mixed scripts: Latin with diacritics, Greek, CJK and a symbol outside the keymap. */
export const MIXED = "Ünï Ωμέγα 日本 ✓";

const delivered = { kind: "delivered" } as const;
const noop = { kind: "noop" } as const;
const refused = (code: string) => ({ kind: "refused", code }) as const;
const FG = { delivery_mode: "foreground" };

function call(tool: string, args: (ctx: CrossContext, state: Structured) => Record<string, unknown>) {
  return (ctx: CrossContext, state: Structured) => [{ tool, args: args(ctx, state) }];
}

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

/** A LibreOffice user profile that skips the first-start dialogs (tip of the day). */
export async function libreOfficeProfile(dir: string): Promise<string> {
  await Deno.mkdir(`${dir}/user`, { recursive: true });
  const item = (path: string, name: string, value: string) =>
    `<item oor:path="${path}"><prop oor:name="${name}" oor:op="fuse"><value>${value}</value></prop></item>`;
  await Deno.writeTextFile(
    `${dir}/user/registrymodifications.xcu`,
    `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
${item("/org.openoffice.Office.Common/Misc", "ShowTipOfTheDay", "false")}
${item("/org.openoffice.Office.Common/Misc", "FirstRun", "false")}
${item("/org.openoffice.Setup/Product", "ooSetupLastVersion", "7.4")}
</oor:items>
`,
  );
  return `-env:UserInstallation=file://${dir}`;
}

/** The document's paragraphs, as LibreOffice Writer exposes them. */
function paragraphs() {
  return async (ctx: CrossContext) => await texts(ctx.app.pid, "paragraph");
}

/** LibreOffice Writer (gtk3 plugin): typing into the document, keys, undo, the View menu. */
export function writer(profile: string): CrossApp {
  const doc = (says: string, intended: (b: string[], a: string[]) => boolean) =>
    oracle(says, paragraphs(), intended);
  return {
    name: "writer",
    launch: {
      launch_path: "soffice",
      additional_arguments: [profile, "--writer", "--norestore", "--nologo"],
    },
    window: (w) => /LibreOffice Writer/.test(w.title),
    hasTree: true,
    // Calc runs next in the same soffice.bin: its launch hands off to this one.
    keep: true,
    cells: [
      {
        id: "writer.type_text.element.bg.mixed",
        calls: call(
          "type_text",
          (_c, s) => ({ element_token: element(s, "paragraph").element_token, text: MIXED }),
        ),
        oracle: doc(`the first paragraph gets "${MIXED}"`, (_b, a) => (a[0] ?? "").includes(MIXED)),
        expect: delivered,
      },
      {
        id: "writer.press_key.none.bg.return",
        calls: call("press_key", (c) => ({ target: c.app.target, key: "Return" })),
        oracle: doc("a paragraph is added", (b, a) => a.length === b.length + 1),
        expect: delivered,
      },
      {
        id: "writer.type_text.none.bg.keys",
        calls: call("type_text", (c) => ({ target: c.app.target, text: "second line" })),
        oracle: doc('the new paragraph reads "second line"', (_b, a) => a.includes("second line")),
        expect: delivered,
      },
      {
        id: "writer.hotkey.none.bg.undo",
        calls: call("hotkey", (c) => ({ target: c.app.target, keys: ["ctrl", "z"] })),
        oracle: doc(
          "the typing is undone",
          (b, a) => b.includes("second line") && !a.includes("second line"),
        ),
        expect: delivered,
      },
      {
        id: "writer.click.pixel.bg.document",
        calls: call(
          "click",
          (c, s) => ({ target: c.app.target, ...pixel(s, element(s, "paragraph"), 0.02) }),
        ),
        oracle: oracle(
          "the caret moves to the start of the first paragraph",
          async (ctx) => (await states(ctx.app.pid, "paragraph"))[0]?.caret ?? null,
          (b, a) => a !== b && a === 0,
        ),
        expect: delivered,
      },
      {
        id: "writer.invoke_menu.none.bg.status_bar",
        calls: call(
          "invoke_menu",
          (c) => ({ pid: c.app.pid, window_id: c.app.windowId, path: ["View", "Status Bar"] }),
        ),
        oracle: oracle(
          "the status bar is hidden",
          async (ctx) => (await states(ctx.app.pid, "status bar")).length,
          (b, a) => b > 0 && a === 0,
        ),
        expect: delivered,
      },
    ],
  };
}

/** The text of a Calc cell, read by its name ("B2"). */
function cell(name: string) {
  return async (ctx: CrossContext) => {
    const found = (await states(ctx.app.pid, "table cell", name))[0];
    return { text: found?.text ?? null, selected: found ? found.selected || found.focused : null };
  };
}

/** LibreOffice Calc in the same LibreOffice process: cells by element and by keys. */
export function calc(profile: string): CrossApp {
  return {
    name: "calc",
    launch: { launch_path: "soffice", additional_arguments: [profile, "--calc", "--norestore", "--nologo"] },
    window: (w) => /LibreOffice Calc/.test(w.title),
    hasTree: true,
    cells: [
      {
        id: "calc.click.element.bg.cell",
        calls: call("click", (_c, s) => ({ element_token: element(s, "table cell", "B2").element_token })),
        oracle: oracle(
          "B2 becomes the current cell",
          cell("B2"),
          (b, a) => !b.selected && a.selected === true,
        ),
        expect: delivered,
      },
      {
        id: "calc.type_text.none.bg.cell",
        calls: (c) => [
          { tool: "type_text", args: { target: c.app.target, text: "42" } },
          { tool: "press_key", args: { target: c.app.target, key: "Return" } },
        ],
        oracle: oracle("B2 reads 42", cell("B2"), (_b, a) => a.text === "42"),
        expect: delivered,
      },
      {
        id: "calc.click.pixel.fg.cell",
        calls: call(
          "click",
          (c, s) => ({ target: c.app.target, ...pixel(s, element(s, "table cell", "D4")), ...FG }),
        ),
        oracle: oracle(
          "D4 becomes the current cell",
          cell("D4"),
          (b, a) => !b.selected && a.selected === true,
        ),
        expect: delivered,
      },
    ],
  };
}

/** The page Firefox shows: every state change is mirrored into the window title. */
export const FIREFOX_PAGE =
  `<!doctype html><html><head><meta charset="utf-8"><title>c=0 a=false t=</title></head><body>
<h1>Cross-app catalog</h1>
<button id="b">Press me</button>
<label><input type="checkbox" id="c"> Agree</label>
<input id="t" type="text" value="">
<p id="out">ready</p>
<script>
let n = 0;
const show = () => document.title = "c=" + n + " a=" + document.getElementById("c").checked + " t=" + document.getElementById("t").value;
document.getElementById("b").addEventListener("click", () => { n++; show(); });
document.getElementById("c").addEventListener("change", show);
document.getElementById("t").addEventListener("input", show);
</script></body></html>`;

/** Firefox's preferences for a quiet test profile (no first-run pages, no update, no telemetry). */
export const FIREFOX_PREFS = [
  'user_pref("browser.aboutwelcome.enabled", false);',
  'user_pref("browser.shell.checkDefaultBrowser", false);',
  'user_pref("datareporting.policy.dataSubmissionEnabled", false);',
  'user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);',
  'user_pref("browser.startup.homepage_override.mstone", "ignore");',
  'user_pref("app.update.enabled", false);',
  'user_pref("browser.sessionstore.resume_from_crash", false);',
].join("\n");

/** The window title the X server holds for the window (what the page wrote). */
function title() {
  return async (ctx: CrossContext) => {
    const text = await x("xprop", "-id", String(ctx.app.windowId), "_NET_WM_NAME");
    return /"(.*)"/.exec(text)?.[1]?.replace(/ — Mozilla Firefox$/, "") ?? "";
  };
}

/** Firefox ESR: web content by element actions, pixel clicks in foreground, menus. */
export function firefox(profileDir: string, page: string): CrossApp {
  const page_ = (says: string, intended: (b: string, a: string) => boolean) =>
    oracle(says, title(), intended);
  const count = (t: string) => Number(/c=(\d+)/.exec(t)?.[1] ?? NaN);
  return {
    name: "firefox",
    launch: {
      launch_path: "firefox-esr",
      additional_arguments: ["-profile", profileDir, "-no-remote", page],
    },
    window: (w) => /Mozilla Firefox/.test(w.title) && /c=\d/.test(w.title),
    hasTree: true,
    cells: [
      {
        id: "firefox.click.element.bg.button",
        calls: call(
          "click",
          (_c, s) => ({ element_token: element(s, "push button", "Press me").element_token }),
        ),
        oracle: page_("the page counts one click", (b, a) => count(a) === count(b) + 1),
        expect: delivered,
      },
      {
        id: "firefox.click.element.bg.checkbox",
        calls: call("click", (_c, s) => ({ element_token: element(s, "check box", "Agree").element_token })),
        oracle: page_("the box is checked", (b, a) => b.includes("a=false") && a.includes("a=true")),
        expect: delivered,
      },
      {
        id: "firefox.type_text.element.bg.mixed",
        calls: call(
          "type_text",
          (_c, s) => ({ element_token: element(s, "entry", "").element_token, text: MIXED }),
        ),
        oracle: page_(`the field reads "${MIXED}"`, (_b, a) => a.endsWith(`t=${MIXED}`)),
        expect: delivered,
      },
      {
        id: "firefox.click.pixel.bg.refused",
        calls: call(
          "click",
          (c, s) => ({ target: c.app.target, ...pixel(s, element(s, "push button", "Press me")) }),
        ),
        oracle: page_("the page is unchanged", () => false),
        expect: refused("background_unavailable"),
      },
      {
        id: "firefox.click.pixel.fg.button",
        calls: call(
          "click",
          (c, s) => ({ target: c.app.target, ...pixel(s, element(s, "push button", "Press me")), ...FG }),
        ),
        oracle: page_("the page counts one more click", (b, a) => count(a) === count(b) + 1),
        expect: delivered,
      },
      {
        id: "firefox.press_key.element.fg.backspace",
        calls: call(
          "press_key",
          (_c, s) => ({ element_token: element(s, "entry", "").element_token, key: "BackSpace", ...FG }),
        ),
        oracle: page_(
          "the field loses one character",
          (b, a) => b.endsWith("✓") && !a.endsWith("✓") && a.includes("日本"),
        ),
        expect: delivered,
      },
      {
        id: "firefox.press_key.none.bg.refused",
        calls: call("press_key", (c) => ({ target: c.app.target, key: "BackSpace" })),
        oracle: page_("the page is unchanged", () => false),
        expect: refused("background_unavailable"),
      },
      {
        id: "firefox.invoke_menu.none.bg.zoom",
        calls: call(
          "invoke_menu",
          (c) => ({ pid: c.app.pid, window_id: c.app.windowId, path: ["View", "Zoom", "Zoom In"] }),
        ),
        oracle: oracle(
          "the page's button grows",
          async (ctx) => (await states(ctx.app.pid, "push button", "Press me"))[0]?.ext?.[2] ?? 0,
          (b, a) => a > b,
        ),
        expect: delivered,
      },
    ],
  };
}

/** xterm (no accessibility): background keys refused, foreground keys proven by a file and by OCR. */
export function xterm(dir: string): CrossApp {
  const file = (name: string) => `${dir}/${name}`;
  const content = (name: string) => async () => await Deno.readTextFile(file(name)).catch(() => "");
  return {
    name: "xterm",
    launch: {
      launch_path: "xterm",
      additional_arguments: ["-geometry", "100x20+0+0", "-title", "crossapp-xterm"],
    },
    window: (w) => w.title === "crossapp-xterm",
    hasTree: false,
    cells: [
      {
        id: "xterm.type_text.none.bg.refused",
        calls: call(
          "type_text",
          (c) => ({ target: c.app.target, text: `echo background > ${file("bg.txt")}` }),
        ),
        oracle: oracle(
          "the terminal shows nothing new (tesseract reads the window)",
          (ctx) => screenWords(ctx.app.windowId),
          () => false,
        ),
        expect: refused("background_unavailable"),
      },
      {
        id: "xterm.type_text.none.fg.ocr",
        calls: call("type_text", (c) => ({ target: c.app.target, text: "echo foreground-ok", ...FG })),
        oracle: oracle(
          "the terminal shows the typed command (tesseract, run by the test, reads the window)",
          (ctx) => screenWords(ctx.app.windowId),
          (b, a) => (a.match(/echoforegroundok/g) ?? []).length > (b.match(/echoforegroundok/g) ?? []).length,
        ),
        expect: delivered,
      },
      {
        id: "xterm.press_key.none.fg.return",
        calls: (c) => [
          { tool: "type_text", args: { target: c.app.target, text: ` > ${file("fg.txt")}`, ...FG } },
          { tool: "press_key", args: { target: c.app.target, key: "Return", ...FG } },
        ],
        oracle: oracle(
          "the shell wrote foreground-ok",
          content("fg.txt"),
          (_b, a) => a.trim() === "foreground-ok",
        ),
        expect: delivered,
      },
      {
        id: "xterm.click.pixel.bg.blank",
        calls: call(
          "click",
          (c, s) => ({
            target: c.app.target,
            x: Math.round(s.screenshot_width * 0.8),
            y: Math.round(s.screenshot_height * 0.8),
          }),
        ),
        oracle: oracle(
          "the terminal is unchanged (tesseract reads the window)",
          (ctx) => screenWords(ctx.app.windowId),
          () => false,
        ),
        expect: noop,
      },
    ],
  };
}

/**
 * The window's text as the stock tesseract command reads it (ImageMagick `import` of the
 * window, scaled 2x), letters and digits only, lowercased.
 */
async function screenWords(windowId: number): Promise<string> {
  const png = await Deno.makeTempFile({ suffix: ".png" });
  try {
    await x("import", "-window", String(windowId), "-resize", "200%", png);
    const output = await new Deno.Command("tesseract", {
      args: [png, "-", "--psm", "6"],
      stdout: "piped",
      stderr: "null",
    })
      .output();
    return new TextDecoder().decode(output.stdout).replace(/[^A-Za-z0-9]/g, "").toLowerCase();
  } finally {
    await Deno.remove(png).catch(() => {});
  }
}

/** Every app of the cross-app catalog, in run order. */
export function crossApps(
  dirs: { libreOffice: string; firefox: string; page: string; scratch: string },
): CrossApp[] {
  return [
    gtk4(),
    kcalc(),
    writer(dirs.libreOffice),
    calc(dirs.libreOffice),
    firefox(dirs.firefox, dirs.page),
    xterm(dirs.scratch),
  ];
}
