/**
 * Cross-app cells of Firefox ESR, judged by the window title the page writes (read from
 * the X server) and by an independent AT-SPI reader.
 *
 * @module
 */
import { x } from "../_helpers/x11_probe.ts";
import { type CrossApp, type CrossContext, element, oracle, pixel } from "./cell.ts";
import { call, delivered, FG, MIXED, refused } from "./expect.ts";
import { states } from "./reader.ts";

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
  const field = (t: string) => /t=(.*)$/.exec(t)?.[1] ?? "";
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
        // Firefox answers accessibility inserts true without applying them, and drops a
        // second keyboard: typing by element in background is refused before sending.
        id: "firefox.type_text.element.bg.refused",
        calls: call(
          "type_text",
          (_c, s) => ({ element_token: element(s, "entry", "").element_token, text: MIXED }),
        ),
        oracle: page_("the page is unchanged", () => false),
        expect: refused("background_unavailable"),
      },
      {
        id: "firefox.type_text.element.fg.mixed",
        calls: call(
          "type_text",
          (_c, s) => ({ element_token: element(s, "entry", "").element_token, text: MIXED, ...FG }),
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
          (_c, s) => ({ element_token: element(s, "entry", /Ωμέγα/).element_token, key: "BackSpace", ...FG }),
        ),
        oracle: page_(
          "the field loses one character",
          // The focus click puts the caret at the field's centre, so any one character may go.
          (b, a) => [...field(a)].length === [...field(b)].length - 1,
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
