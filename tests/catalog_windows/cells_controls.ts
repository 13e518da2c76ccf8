/**
 * Control cells: winecfg's Windows-version combo box (a drop-down list) opened by element and by
 * a posted pixel click, its options listed and one chosen by name, each judged by the combo's own
 * answers read by the test (CB_GETDROPPEDSTATE, CB_GETCURSEL, CB_GETLBTEXT).
 *
 * A posted button press does not open a combo box that lacks the focus (Wine's combo takes the
 * focus first, and a background window keeps it from the list), so the pixel cell expects the
 * driver to say what it knows (never `confirmed` for a list that stayed shut).
 *
 * @module
 */
import type { Structured } from "../_helpers/in_process_driver.ts";
import type { WinCell } from "./cell.ts";
import { agrees, reading } from "./oracles.ts";
import { observe } from "./views.ts";
import { place, SENTINEL_FRAME, type WinWorld } from "./world.ts";

const winecfgTarget = (w: WinWorld) => ({ pid: w.winecfg.pid, window_id: w.winecfg.windowId });
const isCombo = (e: Structured) => e.role === "ComboBox";

function dropCell(addressing: "element" | "pixel"): WinCell {
  return {
    id: `click.${addressing}.background.winecfg_combo`,
    needs: ["winecfg"],
    tool: "click",
    addressing,
    delivery: "background",
    // The sentinel (the foreground window) moved down so that it leaves the combo box uncovered:
    // the pixel click then goes out as posted pointer input at the point.
    prepare: (w) => place(w.sentinel.windowId, { ...SENTINEL_FRAME, y: 760, height: 240 }),
    calls: async (w) => {
      const view = await observe(w, w.winecfg.pid, w.winecfg.windowId);
      const where = addressing === "element" ? { element_token: view.token(isCombo) } : view.pixel(isCombo);
      return [{ tool: "click", args: { ...winecfgTarget(w), ...where, delivery_mode: "background" } }];
    },
    oracle: reading(
      "the Windows-version list opens (CB_GETDROPPEDSTATE 0 -> 1)",
      (w) => w.combo().dropped,
      (b, a) => !b && a,
    ),
    expect: addressing === "element"
      ? { kind: "delivered", effect: "confirmed" }
      : { kind: "reported", effects: ["confirmed", "unverifiable"] },
    cleanup: (w) => w.closeCombo(),
  };
}

/** The control cells. */
export function controlCells(): WinCell[] {
  return [
    {
      id: "get_window_state.none.n/a.winecfg_combo",
      needs: ["winecfg"],
      tool: "get_window_state",
      addressing: "none",
      delivery: "n/a",
      // The options of a closed list are folded like a closed menu's items: listed with expand.
      calls: (w) => [{ tool: "get_window_state", args: { ...winecfgTarget(w), expand: "all" } }],
      oracle: agrees(
        "the combo box's options (CB_GETLBTEXT) are its option elements, the chosen one selected",
        (w) => w.combo(),
        (result, state) => {
          const s = state as ReturnType<WinWorld["combo"]>;
          const elements = result.elements as Structured[];
          const at = elements.findIndex(isCombo);
          if (at < 0) return "no ComboBox in the tree";
          const options = elements.filter((e) => e.role === "ComboBoxOption");
          const names = options.map((e) => e.label);
          if (JSON.stringify(names) !== JSON.stringify(s.options)) {
            return `options ${JSON.stringify(names)}, the combo has ${JSON.stringify(s.options)}`;
          }
          const chosen = options.findIndex((e) => e.selected === true);
          return chosen === s.selected
            ? null
            : `option ${chosen} selected, the combo's CB_GETCURSEL is ${s.selected}`;
        },
      ),
      expect: { kind: "observed", status: "ok" },
    },
    dropCell("element"),
    dropCell("pixel"),
    {
      id: "set_value.element.n/a.winecfg_combo",
      needs: ["winecfg"],
      tool: "set_value",
      addressing: "element",
      delivery: "n/a",
      calls: async (w) => {
        const view = await observe(w, w.winecfg.pid, w.winecfg.windowId);
        return [{
          tool: "set_value",
          args: { ...winecfgTarget(w), element_token: view.token(isCombo), value: w.otherOption() },
        }];
      },
      oracle: {
        says: "the combo shows the option chosen by name (CB_GETCURSEL, CB_GETLBTEXT)",
        read: (w) => ({ ...w.combo(), want: w.otherOption() }),
        judge: (b, a) => {
          const before = b as ReturnType<WinWorld["combo"]> & { want: string };
          const after = a as ReturnType<WinWorld["combo"]>;
          const text = after.options[after.selected];
          return {
            intended: text === before.want,
            changed: after.selected !== before.selected,
            seen: `CB_GETCURSEL ${before.selected} -> ${after.selected} (${JSON.stringify(text)})`,
          };
        },
      },
      expect: { kind: "delivered", effect: "confirmed" },
      cleanup: (w) => w.restoreCombo(),
    },
  ];
}
