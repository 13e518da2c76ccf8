import assert from "node:assert/strict";
import type { AtspiCaller } from "./atspi_bus.ts";
import { CoordType, Iface } from "./interfaces.ts";
import { cellAgain, visibleCells } from "./table_cells.ts";

/**
 * A spreadsheet table of 3 columns whose cells sit 10 px apart from (0, 0): a cell's object
 * path carries a generation, bumped by `replace()` (LibreOffice drops cell objects no
 * client holds and makes new ones on demand).
 */
function sheet() {
  let generation = 1;
  const path = (row: number, column: number) => `/cell/${generation}/${row}/${column}`;
  const bus: AtspiCaller = {
    call(_app, target, iface, member, _signature, body = []) {
      const args = body as number[];
      if (target === "/table" && iface === Iface.COMPONENT && member === "GetExtents") {
        return Promise.resolve([[0, 0, 30, 20]]);
      }
      if (target === "/table" && member === "GetAccessibleAtPoint") {
        assert.equal(args[2], CoordType.SCREEN);
        return Promise.resolve([[":1.5", path(Math.floor(args[1] / 10), Math.floor(args[0] / 10))]]);
      }
      if (target === "/table" && member === "GetAccessibleAt") {
        return Promise.resolve([[":1.5", path(args[0], args[1])]]);
      }
      if (target === "/table" && member === "GetRowAtIndex") {
        return Promise.resolve([Math.floor(args[0] / 3)]);
      }
      if (target === "/table" && member === "GetColumnAtIndex") return Promise.resolve([args[0] % 3]);
      if (member === "GetIndexInParent") {
        const [, , , row, column] = target.split("/").map(Number);
        return Promise.resolve([row * 3 + column]);
      }
      return Promise.reject(new Error(`unexpected ${target} ${member}`));
    },
    property: () => Promise.reject(new Error("no properties")),
  };
  return { bus, replace: () => generation++ };
}

Deno.test("cellAgain finds a visible cell's new object by its row and column after the app replaced it", async () => {
  const { bus, replace } = sheet();
  const cells = await visibleCells(bus, ":1.5", "/table");
  assert.deepEqual(cells, [
    "/cell/1/0/0",
    "/cell/1/0/1",
    "/cell/1/0/2",
    "/cell/1/1/0",
    "/cell/1/1/1",
    "/cell/1/1/2",
  ]);
  replace();
  assert.equal(await cellAgain(bus, ":1.5", "/cell/1/1/2"), "/cell/2/1/2");
  // The new path is remembered too, and an object never read from a visible range is not a cell.
  replace();
  assert.equal(await cellAgain(bus, ":1.5", "/cell/2/1/2"), "/cell/3/1/2");
  assert.equal(await cellAgain(bus, ":1.5", "/button"), null);
  // Unchanged: nothing to find again.
  assert.equal(await cellAgain(bus, ":1.5", "/cell/3/1/2"), null);
});
