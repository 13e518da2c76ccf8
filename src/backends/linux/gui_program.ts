/**
 * Whether a program file is a GUI application in its own right: an ELF executable that links a
 * windowing library or toolkit (libX11, libxcb, GTK, Qt, Wayland, SDL, Tk ...). Scripts and
 * programs that link none are not; an installed desktop entry is the other way an app shows
 * it is one (launch.ts). The libraries are read from the file (elf_needed.ts), nothing runs.
 *
 * @module
 */
import { elfNeeded } from "./elf_needed.ts";

/** DT_NEEDED names of windowing libraries and GUI toolkits. */
const WINDOWING =
  /^lib(X11|xcb|Xt|Xaw|Xm|gtk-[34]|gtk-x11|gdk-[34]|gdk-x11|Qt[456](Gui|Widgets)|wayland-client|SDL2?(-[0-9.]+)?|glfw|fltk|wx_gtk[0-9a-z_.]*|elementary|Ecore_X|Ecore_Wl2|webkit2gtk|adwaita|handy)[.-]/;

/**
 * True when the file is an ELF executable that links a windowing library or toolkit directly.
 *
 * @param realPath The program's real path (symlinks resolved).
 */
export function linksWindowingLibrary(realPath: string): boolean {
  return (elfNeeded(realPath) ?? []).some((name) => WINDOWING.test(name));
}
