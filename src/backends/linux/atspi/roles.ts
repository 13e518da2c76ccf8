/**
 * AT-SPI role numbers (the `AtspiRole` enum) and their names, spelled as libatspi's
 * `atspi_role_get_name` spells them ("push button", "check box", ...).
 *
 * @module
 */
import { AxRole } from "../../../ports/accessibility.ts";

/**
 * Role names indexed by `AtspiRole` value (at-spi2-core 2.46, plus `switch`, which
 * later releases add at 130).
 */
export const ROLE_NAMES: readonly string[] = Object.freeze([
  "invalid",
  "accelerator label",
  "alert",
  "animation",
  "arrow",
  "calendar", // 0
  "canvas",
  "check box",
  "check menu item",
  "color chooser",
  "column header",
  "combo box", // 6
  "date editor",
  "desktop icon",
  "desktop frame",
  "dial",
  "dialog",
  "directory pane", // 12
  "drawing area",
  "file chooser",
  "filler",
  "focus traversable",
  "font chooser",
  "frame", // 18
  "glass pane",
  "html container",
  "icon",
  "image",
  "internal frame",
  "label", // 24
  "layered pane",
  "list",
  "list item",
  "menu",
  "menu bar",
  "menu item", // 30
  "option pane",
  "page tab",
  "page tab list",
  "panel",
  "password text",
  "popup menu", // 36
  "progress bar",
  "push button",
  "radio button",
  "radio menu item",
  "root pane",
  "row header", // 42
  "scroll bar",
  "scroll pane",
  "separator",
  "slider",
  "spin button",
  "split pane", // 48
  "status bar",
  "table",
  "table cell",
  "table column header",
  "table row header",
  "tearoff menu item", // 54
  "terminal",
  "text",
  "toggle button",
  "tool bar",
  "tool tip",
  "tree", // 60
  "tree table",
  "unknown",
  "viewport",
  "window",
  "extended",
  "header", // 66
  "footer",
  "paragraph",
  "ruler",
  "application",
  "autocomplete",
  "editbar", // 72
  "embedded",
  "entry",
  "chart",
  "caption",
  "document frame",
  "heading", // 78
  "page",
  "section",
  "redundant object",
  "form",
  "link",
  "input method window", // 84
  "table row",
  "tree item",
  "document spreadsheet",
  "document presentation",
  "document text",
  "document web", // 90
  "document email",
  "comment",
  "list box",
  "grouping",
  "image map",
  "notification", // 96
  "info bar",
  "level bar",
  "title bar",
  "block quote",
  "audio",
  "video", // 102
  "definition",
  "article",
  "landmark",
  "log",
  "marquee",
  "math", // 108
  "rating",
  "timer",
  "static",
  "math fraction",
  "math root",
  "subscript", // 114
  "superscript",
  "description list",
  "description term",
  "description value",
  "footnote",
  "content deletion", // 120
  "content insertion",
  "mark",
  "suggestion",
  "push button menu", // 126
  "switch", // 130 (at-spi2-core 2.50 and later)
]);

/** Role values the tree code tests for. */
export const Role = {
  INVALID: 0,
  ALERT: 2,
  DIALOG: 16,
  FILE_CHOOSER: 19,
  FRAME: 23,
  PASSWORD_TEXT: 40,
  TOOL_TIP: 64,
  WINDOW: 69,
  APPLICATION: 75,
} as const;

/**
 * The name of an `AtspiRole` value; `"unknown"` for values this table does not know.
 *
 * @example
 * ```ts
 * import { roleName } from "./roles.ts";
 * roleName(43); // "push button"
 * ```
 */
export function roleName(role: number): string {
  return ROLE_NAMES[role] ?? "unknown";
}

/** AT-SPI role names onto the neutral vocabulary; every name not listed is `other`. */
const NEUTRAL: Readonly<Record<string, AxRole>> = {
  "application": AxRole.Application,
  "frame": AxRole.Window,
  "window": AxRole.Window,
  "internal frame": AxRole.Window,
  "desktop frame": AxRole.Window,
  "input method window": AxRole.Window,
  "dialog": AxRole.Dialog,
  "file chooser": AxRole.Dialog,
  "color chooser": AxRole.Dialog,
  "font chooser": AxRole.Dialog,
  "alert": AxRole.Alert,
  "notification": AxRole.Alert,
  "menu bar": AxRole.MenuBar,
  "menu": AxRole.Menu,
  "popup menu": AxRole.Menu,
  "menu item": AxRole.MenuItem,
  "tearoff menu item": AxRole.MenuItem,
  "check menu item": AxRole.CheckMenuItem,
  "radio menu item": AxRole.RadioMenuItem,
  "tool bar": AxRole.ToolBar,
  "status bar": AxRole.StatusBar,
  "info bar": AxRole.StatusBar,
  "title bar": AxRole.TitleBar,
  "page tab list": AxRole.TabList,
  "page tab": AxRole.Tab,
  "push button": AxRole.Button,
  "push button menu": AxRole.MenuButton,
  "toggle button": AxRole.ToggleButton,
  "check box": AxRole.CheckBox,
  "radio button": AxRole.RadioButton,
  "switch": AxRole.Switch,
  "combo box": AxRole.ComboBox,
  "list": AxRole.List,
  "list box": AxRole.List,
  "list item": AxRole.ListItem,
  "tree": AxRole.Tree,
  "tree table": AxRole.Tree,
  "tree item": AxRole.TreeItem,
  "table": AxRole.Table,
  "table row": AxRole.Row,
  "table cell": AxRole.Cell,
  "column header": AxRole.ColumnHeader,
  "table column header": AxRole.ColumnHeader,
  "row header": AxRole.RowHeader,
  "table row header": AxRole.RowHeader,
  "text": AxRole.TextField,
  "entry": AxRole.TextField,
  "password text": AxRole.TextField,
  "editbar": AxRole.TextField,
  "autocomplete": AxRole.ComboBox,
  "document frame": AxRole.Document,
  "document web": AxRole.Document,
  "document text": AxRole.Document,
  "document email": AxRole.Document,
  "document spreadsheet": AxRole.Document,
  "document presentation": AxRole.Document,
  "link": AxRole.Link,
  "heading": AxRole.Heading,
  "paragraph": AxRole.Paragraph,
  "label": AxRole.Label,
  "static": AxRole.Label,
  "image": AxRole.Image,
  "icon": AxRole.Image,
  "separator": AxRole.Separator,
  "split pane": AxRole.Splitter,
  "filler": AxRole.Group,
  "panel": AxRole.Group,
  "section": AxRole.Section,
  "grouping": AxRole.Section,
  "form": AxRole.Section,
  "article": AxRole.Section,
  "landmark": AxRole.Section,
  "block quote": AxRole.Section,
  "viewport": AxRole.Pane,
  "layered pane": AxRole.Pane,
  "root pane": AxRole.Pane,
  "glass pane": AxRole.Pane,
  "scroll pane": AxRole.ScrollArea,
  "scroll bar": AxRole.ScrollBar,
  "slider": AxRole.Slider,
  "dial": AxRole.Slider,
  "spin button": AxRole.SpinButton,
  "progress bar": AxRole.ProgressBar,
  "level bar": AxRole.ProgressBar,
  "tool tip": AxRole.ToolTip,
  "terminal": AxRole.Terminal,
  "canvas": AxRole.Canvas,
  "drawing area": AxRole.Canvas,
  "calendar": AxRole.Calendar,
  "embedded": AxRole.Embedded,
};

/**
 * The neutral role of an AT-SPI role name (see `AxRole` in `types.ts`).
 *
 * @example
 * ```ts
 * import { neutralRole } from "./roles.ts";
 * neutralRole("push button"); // "button"
 * ```
 */
export function neutralRole(name: string): AxRole {
  return NEUTRAL[name] ?? AxRole.Other;
}
