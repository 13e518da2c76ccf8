/**
 * The apps of the cross-app catalog and their cells: gtk4-widget-factory (GTK 4), kcalc
 * (Qt 5), LibreOffice Writer and Calc (gtk3 plugin), Firefox ESR and xterm. Each cell is
 * judged by state the app owns, read independently: AT-SPI from a fresh Debian python3
 * (reader.py), the window title the X server holds (xprop), a file the app wrote.
 *
 * @module
 */
import type { CrossApp } from "./cell.ts";
import { firefox } from "./firefox_cells.ts";
import { calc, writer } from "./office_cells.ts";
import { gtk4, kcalc } from "./toolkit_cells.ts";
import { xterm } from "./xterm_cells.ts";

export { MIXED } from "./expect.ts";
export { FIREFOX_PAGE, FIREFOX_PREFS } from "./firefox_cells.ts";
export { libreOfficeProfile } from "./office_cells.ts";

/** Every app of the cross-app catalog, in run order. */
export function crossApps(
  dirs: { libreOffice: string; libreOfficeCalc: string; firefox: string; page: string; scratch: string },
): CrossApp[] {
  return [
    gtk4(),
    kcalc(),
    writer(dirs.libreOffice),
    calc(dirs.libreOfficeCalc),
    firefox(dirs.firefox, dirs.page),
    xterm(dirs.scratch),
  ];
}
