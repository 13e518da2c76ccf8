/**
 * WinForms cells, run where the Windows workflow built the fixture (tests/windows/winforms_fixture,
 * with the runner's dotnet) and named it in CUA_WINFORMS_FIXTURE: on real Windows its tree comes
 * from UI Automation's cached subtree. Its native controls' own state is read by the test
 * (BM_GETCHECK of the check box, the WM_GETTEXT of each control).
 *
 * @module
 */
import { className, descendantWindows, windowTitle } from "../../src/backends/windows/win32/hwnd.ts";
import type { Structured } from "../_helpers/in_process_driver.ts";
import { checkOf } from "../windows/_win_apps.ts";
import type { WinCell } from "./cell.ts";
import { agrees, check } from "./oracles.ts";
import { observe } from "./views.ts";
import type { WinWorld } from "./world.ts";

const target = (w: WinWorld) => ({ pid: w.winforms!.pid, window_id: w.winforms!.windowId });

/** The fixture's check box (a WinForms BUTTON window captioned "Remember me"). */
function checkBox(w: WinWorld): number {
  const found = descendantWindows(w.winforms!.windowId).find((h) =>
    /BUTTON/i.test(className(h)) && windowTitle(h) === "Remember me"
  );
  if (!found) throw new Error("the fixture shows no check box");
  return found;
}

/** The WinForms cells. */
export function winformsCells(): WinCell[] {
  return [
    {
      id: "get_window_state.none.n/a.winforms",
      needs: ["winforms"],
      tool: "get_window_state",
      addressing: "none",
      delivery: "n/a",
      calls: (w) => [{ tool: "get_window_state", args: target(w) }],
      oracle: agrees(
        "the check box (with its BM_GETCHECK state) and the drop-down list are in the tree",
        (w) => checkOf(checkBox(w)),
        (result, state) => {
          const elements = result.elements as Structured[];
          const box = elements.find((e) => e.label === "Remember me");
          if (!box) return `no "Remember me" in ${JSON.stringify(elements.map((e) => [e.role, e.label]))}`;
          if ((box.selected === true) !== (state === 1)) {
            return `selected ${box.selected}, BM_GETCHECK ${state}`;
          }
          return elements.some((e) => e.role === "ComboBox") ? null : "no ComboBox in the tree";
        },
      ),
      expect: { kind: "observed", status: "ok" },
    },
    {
      id: "click.element.background.winforms_check",
      needs: ["winforms"],
      tool: "click",
      addressing: "element",
      delivery: "background",
      calls: async (w) => {
        const view = await observe(w, w.winforms!.pid, w.winforms!.windowId);
        const token = view.token((e) => e.label === "Remember me");
        return [{ tool: "click", args: { ...target(w), element_token: token, delivery_mode: "background" } }];
      },
      oracle: check("Remember me toggles (BM_GETCHECK)", checkBox),
      expect: { kind: "delivered", effect: "confirmed" },
    },
  ];
}
