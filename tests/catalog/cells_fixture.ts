/**
 * Catalog cells on the GTK3 fixture app (tests/fixtures/gtk3_harness.py), judged by its
 * own journal. Sentinel A covers the right part of btn-reset, btn-context and txt-input
 * (see world.ts); their centres are covered, their left parts are not.
 *
 * @module
 */
import type { Cell } from "./cell.ts";
import { accessibilityCells, keyboardCells, valueCells } from "./cells_fixture_input.ts";
import { gestureCells } from "./cells_fixture_gesture.ts";
import { clickCells, pointerButtonCells } from "./cells_fixture_pointer.ts";

/** Every fixture cell, in run order. */
export function fixtureCells(): Cell[] {
  return [
    ...clickCells(),
    ...pointerButtonCells(),
    ...keyboardCells(),
    ...valueCells(),
    ...gestureCells(),
    ...accessibilityCells(),
  ];
}
