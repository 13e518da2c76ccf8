/**
 * An independent reader for host-side tests: prints, as JSON, the WM_GETTEXT of every
 * Edit control of the window given as the first argument. Run with deno.exe under Wine.
 *
 * @module
 */
import { className, controlText, descendantWindows } from "../../src/backends/windows/win32/hwnd.ts";

const windowId = Number(Deno.args[0]);
const edits = descendantWindows(windowId).filter((w) => className(w) === "Edit").map((w) => controlText(w));
console.log(JSON.stringify(edits));
