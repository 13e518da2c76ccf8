/**
 * The validation catalog: every action tool × element or pixel × background or
 * foreground × window or desktop scope where meaningful, on the GTK3 fixture app and on
 * stock applications, plus the exact refusals where a route cannot land or a target is
 * bad. Cells run in this order; each builds its arguments from a fresh observation.
 *
 * @module
 */
import type { Cell } from "./cell.ts";
import { fixtureCells } from "./cells_fixture.ts";
import { stockCells } from "./cells_stock.ts";

/** The minimum number of cells the catalog must have (issue 5: "at least 80 cells"). */
export const MIN_CELLS = 80;

/** All cells, fixture first. Ids are unique. */
export function catalogCells(): Cell[] {
  const cells = [...fixtureCells(), ...stockCells()];
  const seen = new Set<string>();
  for (const cell of cells) {
    if (seen.has(cell.id)) throw new Error(`duplicate catalog cell id ${cell.id}`);
    seen.add(cell.id);
  }
  return cells;
}
