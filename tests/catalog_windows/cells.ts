/**
 * The Windows catalog: every cell of issue 14's list, each judged by state the app
 * owns read through Win32. Cells run in this order against one notepad, its Find
 * dialog, regedit, winecfg and a sentinel notepad (world.ts).
 *
 * @module
 */
import type { WinCell } from "./cell.ts";
import { consoleCells } from "./cells_console.ts";
import { controlCells } from "./cells_controls.ts";
import { inputCells } from "./cells_input.ts";
import { stockAppCells } from "./cells_stock_apps.ts";
import { systemCells } from "./cells_system.ts";
import { textCells } from "./cells_text.ts";
import { winformsCells } from "./cells_winforms.ts";

/** Fewer cells than this means cells went missing. */
export const MIN_CELLS = 57;

/** Every cell, in run order. */
export function windowsCatalogCells(): WinCell[] {
  return [
    ...inputCells(),
    ...stockAppCells(),
    ...controlCells(),
    ...consoleCells(),
    ...textCells(),
    ...winformsCells(),
    ...systemCells(),
  ];
}
