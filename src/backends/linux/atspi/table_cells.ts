/**
 * The cells of a huge table that are on screen. A spreadsheet's table (LibreOffice Calc)
 * manages descendants and has a child per cell of the whole sheet, 2^30 of them:
 * `GetChildren` on it keeps the app busy for minutes. Instead the visible range is read
 * through the table's own interfaces: the cells under the top-left and bottom-right
 * corners of its extents (`Component.GetAccessibleAtPoint`) give the first and last
 * visible row and column (`Table.GetRowAtIndex`/`GetColumnAtIndex` of their index in the
 * table), and `Table.GetAccessibleAt` gives each cell in between.
 *
 * @module
 */
import type { AtspiCaller } from "./atspi_bus.ts";
import { toRect } from "./enrich.ts";
import { CoordType, Iface } from "./interfaces.ts";
import type { RawNode } from "./raw_node.ts";

/** Where a cell of a huge table sits, to find it again when the app replaced its object. */
interface CellPlace {
  table: string;
  row: number;
  column: number;
}

/**
 * Cells read from visible ranges, by `app path`. LibreOffice makes a cell's object on demand
 * and drops it when no client holds it, so a path from an observation can be gone by the
 * time an action uses it; its row and column find the cell's object again.
 */
const places = new Map<string, CellPlace>();
/** Most remembered cell places (a few visible ranges); past it the oldest are forgotten. */
const MAX_PLACES = 20_000;

function remember(app: string, path: string, place: CellPlace): void {
  const key = `${app} ${path}`;
  places.delete(key);
  places.set(key, place);
  if (places.size > MAX_PLACES) places.delete(places.keys().next().value!);
}

/**
 * The current object of a cell read from a visible range whose object at `path` is gone:
 * `Table.GetAccessibleAt` of its row and column. Null for any other object, or when the
 * table no longer answers.
 */
export async function cellAgain(bus: AtspiCaller, app: string, path: string): Promise<string | null> {
  const place = places.get(`${app} ${path}`);
  if (!place) return null;
  const [ref] = await bus.call(app, place.table, Iface.TABLE, "GetAccessibleAt", "ii", [
    place.row,
    place.column,
  ]);
  const again = (ref as [string, string])[1];
  if (!again || again.endsWith("/null") || again === path) return null;
  remember(app, again, place);
  return again;
}

/** A table with more cells than this is read by its visible range. */
export const HUGE_TABLE_CELLS = 10_000;
/** Most cells read from a visible range. */
export const MAX_VISIBLE_CELLS = 1_500;

/** True for a table too big to list its children. */
export async function isHugeTable(bus: AtspiCaller, app: string, node: RawNode): Promise<boolean> {
  if (!node.interfaces.includes(Iface.TABLE)) return false;
  if (node.childCount > HUGE_TABLE_CELLS) return true;
  try {
    const [rows, columns] = await Promise.all([
      bus.property(app, node.path, Iface.TABLE, "NRows"),
      bus.property(app, node.path, Iface.TABLE, "NColumns"),
    ]);
    return Number(rows) * Number(columns) > HUGE_TABLE_CELLS;
  } catch {
    return false;
  }
}

/**
 * Paths of the cells of `table` on screen, row by row; null when the range cannot be
 * read (the table has no extents or no cell under its corners).
 */
export async function visibleCells(bus: AtspiCaller, app: string, table: string): Promise<string[] | null> {
  const call = (iface: string, member: string, signature = "", body: unknown[] = []) =>
    bus.call(app, table, iface, member, signature, body);
  const [extents] = await call(Iface.COMPONENT, "GetExtents", "u", [CoordType.SCREEN]);
  const frame = toRect(extents);
  if (frame === null) return null;
  const corner = async (x: number, y: number) => {
    const [ref] = await call(Iface.COMPONENT, "GetAccessibleAtPoint", "iiu", [x, y, CoordType.SCREEN]);
    const path = (ref as [string, string])[1];
    if (!path || path.endsWith("/null")) return null;
    const [index] = await bus.call(app, path, Iface.ACCESSIBLE, "GetIndexInParent");
    const [[row], [column]] = await Promise.all([
      call(Iface.TABLE, "GetRowAtIndex", "i", [index]),
      call(Iface.TABLE, "GetColumnAtIndex", "i", [index]),
    ]);
    return { row: Number(row), column: Number(column) };
  };
  const [first, last] = await Promise.all([
    corner(frame.x + 2, frame.y + 2),
    corner(frame.x + frame.width - 3, frame.y + frame.height - 3),
  ]);
  if (
    !first || !last || first.row < 0 || first.column < 0 || last.row < first.row || last.column < first.column
  ) {
    return null;
  }
  const columns = last.column - first.column + 1;
  const rows = Math.min(last.row - first.row + 1, Math.max(1, Math.floor(MAX_VISIBLE_CELLS / columns)));
  const cells: Promise<string | null>[] = [];
  for (let r = first.row; r < first.row + rows; r++) {
    for (let c = first.column; c <= last.column && cells.length < MAX_VISIBLE_CELLS; c++) {
      cells.push(
        call(Iface.TABLE, "GetAccessibleAt", "ii", [r, c]).then(
          ([ref]) => {
            const path = (ref as [string, string])[1] || null;
            if (path !== null) remember(app, path, { table, row: r, column: c });
            return path;
          },
          () => null,
        ),
      );
    }
  }
  return (await Promise.all(cells)).filter((path): path is string =>
    path !== null && !path.endsWith("/null")
  );
}
