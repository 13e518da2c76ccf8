/**
 * Role names for Windows accessibility sources: MSAA roles, UI Automation control types
 * and, where neither answers, the window class of a standard control.
 *
 * The names follow the vocabulary get_window_state speaks ("push button", "check box",
 * "text", ...), so the core treats a Windows button like any other.
 *
 * @module
 */
import { ROLE_SYSTEM } from "../../../../ffi/windows/oleacc.ts";
import { ControlType } from "../../../../ffi/windows/uia.ts";

const MSAA_ROLES: Record<number, string> = {
  [ROLE_SYSTEM.TITLEBAR]: "title bar",
  [ROLE_SYSTEM.MENUBAR]: "menu bar",
  [ROLE_SYSTEM.SCROLLBAR]: "scroll bar",
  [ROLE_SYSTEM.ALERT]: "alert",
  [ROLE_SYSTEM.WINDOW]: "frame",
  [ROLE_SYSTEM.CLIENT]: "panel",
  [ROLE_SYSTEM.MENUPOPUP]: "menu",
  [ROLE_SYSTEM.MENUITEM]: "menu item",
  [ROLE_SYSTEM.TOOLTIP]: "tool tip",
  [ROLE_SYSTEM.APPLICATION]: "application",
  [ROLE_SYSTEM.DOCUMENT]: "document frame",
  [ROLE_SYSTEM.PANE]: "panel",
  [ROLE_SYSTEM.DIALOG]: "dialog",
  [ROLE_SYSTEM.GROUPING]: "panel",
  [ROLE_SYSTEM.SEPARATOR]: "separator",
  [ROLE_SYSTEM.TOOLBAR]: "tool bar",
  [ROLE_SYSTEM.STATUSBAR]: "status bar",
  [ROLE_SYSTEM.TABLE]: "table",
  [ROLE_SYSTEM.COLUMNHEADER]: "column header",
  [ROLE_SYSTEM.ROWHEADER]: "row header",
  [ROLE_SYSTEM.ROW]: "table row",
  [ROLE_SYSTEM.CELL]: "table cell",
  [ROLE_SYSTEM.LINK]: "link",
  [ROLE_SYSTEM.LIST]: "list",
  [ROLE_SYSTEM.LISTITEM]: "list item",
  [ROLE_SYSTEM.OUTLINE]: "tree",
  [ROLE_SYSTEM.OUTLINEITEM]: "tree item",
  [ROLE_SYSTEM.PAGETAB]: "page tab",
  [ROLE_SYSTEM.PROPERTYPAGE]: "panel",
  [ROLE_SYSTEM.GRAPHIC]: "image",
  [ROLE_SYSTEM.STATICTEXT]: "label",
  [ROLE_SYSTEM.TEXT]: "text",
  [ROLE_SYSTEM.PUSHBUTTON]: "push button",
  [ROLE_SYSTEM.CHECKBUTTON]: "check box",
  [ROLE_SYSTEM.RADIOBUTTON]: "radio button",
  [ROLE_SYSTEM.COMBOBOX]: "combo box",
  [ROLE_SYSTEM.DROPLIST]: "combo box",
  [ROLE_SYSTEM.PROGRESSBAR]: "progress bar",
  [ROLE_SYSTEM.SLIDER]: "slider",
  [ROLE_SYSTEM.SPINBUTTON]: "spin button",
  [ROLE_SYSTEM.BUTTONDROPDOWN]: "push button",
  [ROLE_SYSTEM.BUTTONMENU]: "push button",
  [ROLE_SYSTEM.SPLITBUTTON]: "push button",
  [ROLE_SYSTEM.PAGETABLIST]: "page tab list",
  [ROLE_SYSTEM.OUTLINEBUTTON]: "push button",
};

/** The role name of an MSAA role number ("unknown" for roles the driver does not name). */
export function msaaRole(role: number): string {
  return MSAA_ROLES[role] ?? "unknown";
}

const UIA_ROLES: Record<number, string> = {
  [ControlType.Button]: "push button",
  [ControlType.Calendar]: "calendar",
  [ControlType.CheckBox]: "check box",
  [ControlType.ComboBox]: "combo box",
  [ControlType.Edit]: "text",
  [ControlType.Hyperlink]: "link",
  [ControlType.Image]: "image",
  [ControlType.ListItem]: "list item",
  [ControlType.List]: "list",
  [ControlType.Menu]: "menu",
  [ControlType.MenuBar]: "menu bar",
  [ControlType.MenuItem]: "menu item",
  [ControlType.ProgressBar]: "progress bar",
  [ControlType.RadioButton]: "radio button",
  [ControlType.ScrollBar]: "scroll bar",
  [ControlType.Slider]: "slider",
  [ControlType.Spinner]: "spin button",
  [ControlType.StatusBar]: "status bar",
  [ControlType.Tab]: "page tab list",
  [ControlType.TabItem]: "page tab",
  [ControlType.Text]: "label",
  [ControlType.ToolBar]: "tool bar",
  [ControlType.ToolTip]: "tool tip",
  [ControlType.Tree]: "tree",
  [ControlType.TreeItem]: "tree item",
  [ControlType.Custom]: "unknown",
  [ControlType.Group]: "panel",
  [ControlType.Thumb]: "unknown",
  [ControlType.DataGrid]: "table",
  [ControlType.DataItem]: "table row",
  [ControlType.Document]: "document frame",
  [ControlType.SplitButton]: "push button",
  [ControlType.Window]: "frame",
  [ControlType.Pane]: "panel",
  [ControlType.Header]: "header",
  [ControlType.HeaderItem]: "column header",
  [ControlType.Table]: "table",
  [ControlType.TitleBar]: "title bar",
  [ControlType.Separator]: "separator",
};

/** The role name of a UI Automation control type id. */
export function uiaRole(controlType: number): string {
  return UIA_ROLES[controlType] ?? "unknown";
}

/** Button styles (BS_*) in the low nibble of a Button window's style. */
const BUTTON_STYLE_ROLES: Record<number, string> = {
  0x2: "check box", // BS_CHECKBOX
  0x3: "check box", // BS_AUTOCHECKBOX
  0x4: "radio button", // BS_RADIOBUTTON
  0x5: "check box", // BS_3STATE
  0x6: "check box", // BS_AUTO3STATE
  0x7: "panel", // BS_GROUPBOX
  0x9: "radio button", // BS_AUTORADIOBUTTON
};

const CLASS_ROLES: [RegExp, string][] = [
  [/^(Edit|RichEdit\d*[AW]?|RICHEDIT50W)$/i, "text"],
  [/^Static$/i, "label"],
  [/^ComboBox(Ex32)?$/i, "combo box"],
  [/^ListBox$/i, "list"],
  [/^SysListView32$/i, "list"],
  [/^SysTreeView32$/i, "tree"],
  [/^msctls_trackbar32$/i, "slider"],
  [/^msctls_progress32$/i, "progress bar"],
  [/^msctls_updown32$/i, "spin button"],
  [/^SysTabControl32$/i, "page tab list"],
  [/^ScrollBar$/i, "scroll bar"],
  [/^msctls_statusbar32$/i, "status bar"],
  [/^ToolbarWindow32$/i, "tool bar"],
  [/^SysLink$/i, "link"],
  [/^#32770$/, "dialog"],
];

/** The role of a standard control from its class and style, when no accessibility source answers. */
export function classRole(className: string, style: number): string {
  if (/^Button$/i.test(className)) return BUTTON_STYLE_ROLES[style & 0xf] ?? "push button";
  for (const [pattern, role] of CLASS_ROLES) if (pattern.test(className)) return role;
  return "panel";
}

/** Roles whose element is a toggle (checked state applies). */
export const TOGGLE_ROLES = new Set(["check box", "radio button", "toggle button"]);
/** Roles a click activates. */
export const CLICKABLE_ROLES = new Set([
  "push button",
  "check box",
  "radio button",
  "toggle button",
  "link",
  "menu item",
  "page tab",
  "list item",
  "tree item",
]);
/** Roles that hold editable text. */
export const TEXT_ROLES = new Set(["text", "document frame", "combo box"]);
