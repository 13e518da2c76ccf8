/**
 * Roles on Windows: UI Automation control types, MSAA roles and standard control
 * classes, each mapped onto the neutral vocabulary ({@linkcode AxRole}) with the UI
 * Automation control type name as the platform's own name ("Button", "Edit",
 * "CheckBox"), whichever source described the element.
 *
 * @module
 */
import { ROLE_SYSTEM } from "../../../../ffi/windows/oleacc.ts";
import { ControlType } from "../../../../ffi/windows/uia.ts";
import { AxRole } from "../../../ports/accessibility.ts";

/** A neutral role and the platform's name for it. */
export interface WindowsRole {
  role: AxRole;
  platformRole: string;
}

const UIA_ROLES: Record<number, WindowsRole> = {
  [ControlType.Button]: { role: AxRole.Button, platformRole: "Button" },
  [ControlType.Calendar]: { role: AxRole.Calendar, platformRole: "Calendar" },
  [ControlType.CheckBox]: { role: AxRole.CheckBox, platformRole: "CheckBox" },
  [ControlType.ComboBox]: { role: AxRole.ComboBox, platformRole: "ComboBox" },
  [ControlType.Edit]: { role: AxRole.TextField, platformRole: "Edit" },
  [ControlType.Hyperlink]: { role: AxRole.Link, platformRole: "Hyperlink" },
  [ControlType.Image]: { role: AxRole.Image, platformRole: "Image" },
  [ControlType.ListItem]: { role: AxRole.ListItem, platformRole: "ListItem" },
  [ControlType.List]: { role: AxRole.List, platformRole: "List" },
  [ControlType.Menu]: { role: AxRole.Menu, platformRole: "Menu" },
  [ControlType.MenuBar]: { role: AxRole.MenuBar, platformRole: "MenuBar" },
  [ControlType.MenuItem]: { role: AxRole.MenuItem, platformRole: "MenuItem" },
  [ControlType.ProgressBar]: { role: AxRole.ProgressBar, platformRole: "ProgressBar" },
  [ControlType.RadioButton]: { role: AxRole.RadioButton, platformRole: "RadioButton" },
  [ControlType.ScrollBar]: { role: AxRole.ScrollBar, platformRole: "ScrollBar" },
  [ControlType.Slider]: { role: AxRole.Slider, platformRole: "Slider" },
  [ControlType.Spinner]: { role: AxRole.SpinButton, platformRole: "Spinner" },
  [ControlType.StatusBar]: { role: AxRole.StatusBar, platformRole: "StatusBar" },
  [ControlType.Tab]: { role: AxRole.TabList, platformRole: "Tab" },
  [ControlType.TabItem]: { role: AxRole.Tab, platformRole: "TabItem" },
  [ControlType.Text]: { role: AxRole.Label, platformRole: "Text" },
  [ControlType.ToolBar]: { role: AxRole.ToolBar, platformRole: "ToolBar" },
  [ControlType.ToolTip]: { role: AxRole.ToolTip, platformRole: "ToolTip" },
  [ControlType.Tree]: { role: AxRole.Tree, platformRole: "Tree" },
  [ControlType.TreeItem]: { role: AxRole.TreeItem, platformRole: "TreeItem" },
  [ControlType.Custom]: { role: AxRole.Other, platformRole: "Custom" },
  [ControlType.Group]: { role: AxRole.Group, platformRole: "Group" },
  [ControlType.Thumb]: { role: AxRole.Other, platformRole: "Thumb" },
  [ControlType.DataGrid]: { role: AxRole.Table, platformRole: "DataGrid" },
  [ControlType.DataItem]: { role: AxRole.Row, platformRole: "DataItem" },
  [ControlType.Document]: { role: AxRole.Document, platformRole: "Document" },
  [ControlType.SplitButton]: { role: AxRole.MenuButton, platformRole: "SplitButton" },
  [ControlType.Window]: { role: AxRole.Window, platformRole: "Window" },
  [ControlType.Pane]: { role: AxRole.Group, platformRole: "Pane" },
  [ControlType.Header]: { role: AxRole.Group, platformRole: "Header" },
  [ControlType.HeaderItem]: { role: AxRole.ColumnHeader, platformRole: "HeaderItem" },
  [ControlType.Table]: { role: AxRole.Table, platformRole: "Table" },
  [ControlType.TitleBar]: { role: AxRole.TitleBar, platformRole: "TitleBar" },
  [ControlType.Separator]: { role: AxRole.Separator, platformRole: "Separator" },
  [ControlType.SemanticZoom]: { role: AxRole.Other, platformRole: "SemanticZoom" },
  [ControlType.AppBar]: { role: AxRole.ToolBar, platformRole: "AppBar" },
};

const OTHER: WindowsRole = { role: AxRole.Other, platformRole: "Custom" };
const DIALOG: WindowsRole = { role: AxRole.Dialog, platformRole: "Window" };

/** The role of a UI Automation control type id. */
export function uiaRole(controlType: number): WindowsRole {
  return UIA_ROLES[controlType] ?? OTHER;
}

/** MSAA roles as the UI Automation control type they correspond to. */
const MSAA_CONTROL_TYPES: Record<number, number> = {
  [ROLE_SYSTEM.TITLEBAR]: ControlType.TitleBar,
  [ROLE_SYSTEM.MENUBAR]: ControlType.MenuBar,
  [ROLE_SYSTEM.SCROLLBAR]: ControlType.ScrollBar,
  [ROLE_SYSTEM.WINDOW]: ControlType.Window,
  [ROLE_SYSTEM.CLIENT]: ControlType.Pane,
  [ROLE_SYSTEM.MENUPOPUP]: ControlType.Menu,
  [ROLE_SYSTEM.MENUITEM]: ControlType.MenuItem,
  [ROLE_SYSTEM.TOOLTIP]: ControlType.ToolTip,
  [ROLE_SYSTEM.DOCUMENT]: ControlType.Document,
  [ROLE_SYSTEM.PANE]: ControlType.Pane,
  [ROLE_SYSTEM.GROUPING]: ControlType.Group,
  [ROLE_SYSTEM.SEPARATOR]: ControlType.Separator,
  [ROLE_SYSTEM.TOOLBAR]: ControlType.ToolBar,
  [ROLE_SYSTEM.STATUSBAR]: ControlType.StatusBar,
  [ROLE_SYSTEM.TABLE]: ControlType.Table,
  [ROLE_SYSTEM.COLUMNHEADER]: ControlType.HeaderItem,
  [ROLE_SYSTEM.ROW]: ControlType.DataItem,
  [ROLE_SYSTEM.CELL]: ControlType.DataItem,
  [ROLE_SYSTEM.LINK]: ControlType.Hyperlink,
  [ROLE_SYSTEM.LIST]: ControlType.List,
  [ROLE_SYSTEM.LISTITEM]: ControlType.ListItem,
  [ROLE_SYSTEM.OUTLINE]: ControlType.Tree,
  [ROLE_SYSTEM.OUTLINEITEM]: ControlType.TreeItem,
  [ROLE_SYSTEM.PAGETAB]: ControlType.TabItem,
  [ROLE_SYSTEM.PROPERTYPAGE]: ControlType.Pane,
  [ROLE_SYSTEM.GRAPHIC]: ControlType.Image,
  [ROLE_SYSTEM.STATICTEXT]: ControlType.Text,
  [ROLE_SYSTEM.TEXT]: ControlType.Edit,
  [ROLE_SYSTEM.PUSHBUTTON]: ControlType.Button,
  [ROLE_SYSTEM.CHECKBUTTON]: ControlType.CheckBox,
  [ROLE_SYSTEM.RADIOBUTTON]: ControlType.RadioButton,
  [ROLE_SYSTEM.COMBOBOX]: ControlType.ComboBox,
  [ROLE_SYSTEM.DROPLIST]: ControlType.ComboBox,
  [ROLE_SYSTEM.PROGRESSBAR]: ControlType.ProgressBar,
  [ROLE_SYSTEM.SLIDER]: ControlType.Slider,
  [ROLE_SYSTEM.SPINBUTTON]: ControlType.Spinner,
  [ROLE_SYSTEM.BUTTONDROPDOWN]: ControlType.SplitButton,
  [ROLE_SYSTEM.BUTTONMENU]: ControlType.SplitButton,
  [ROLE_SYSTEM.SPLITBUTTON]: ControlType.SplitButton,
  [ROLE_SYSTEM.PAGETABLIST]: ControlType.Tab,
  [ROLE_SYSTEM.OUTLINEBUTTON]: ControlType.Button,
};

/** The role of an MSAA role number; dialogs and alerts are windows of the dialog kind. */
export function msaaRole(role: number): WindowsRole {
  if (role === ROLE_SYSTEM.DIALOG || role === ROLE_SYSTEM.ALERT) return DIALOG;
  const controlType = MSAA_CONTROL_TYPES[role];
  return controlType === undefined ? OTHER : uiaRole(controlType);
}

/** Button styles (BS_*) in the low nibble of a Button window's style. */
const BUTTON_STYLE_TYPES: Record<number, number> = {
  0x2: ControlType.CheckBox, // BS_CHECKBOX
  0x3: ControlType.CheckBox, // BS_AUTOCHECKBOX
  0x4: ControlType.RadioButton, // BS_RADIOBUTTON
  0x5: ControlType.CheckBox, // BS_3STATE
  0x6: ControlType.CheckBox, // BS_AUTO3STATE
  0x7: ControlType.Group, // BS_GROUPBOX
  0x9: ControlType.RadioButton, // BS_AUTORADIOBUTTON
};

const CLASS_TYPES: [RegExp, number][] = [
  [/^(Edit|RichEdit\d*[AW]?|RICHEDIT50W)$/i, ControlType.Edit],
  [/^Static$/i, ControlType.Text],
  [/^ComboBox(Ex32)?$/i, ControlType.ComboBox],
  [/^(ListBox|SysListView32)$/i, ControlType.List],
  [/^SysTreeView32$/i, ControlType.Tree],
  [/^msctls_trackbar32$/i, ControlType.Slider],
  [/^msctls_progress32$/i, ControlType.ProgressBar],
  [/^msctls_updown32$/i, ControlType.Spinner],
  [/^SysTabControl32$/i, ControlType.Tab],
  [/^ScrollBar$/i, ControlType.ScrollBar],
  [/^msctls_statusbar32$/i, ControlType.StatusBar],
  [/^ToolbarWindow32$/i, ControlType.ToolBar],
  [/^SysLink$/i, ControlType.Hyperlink],
];

/** The role of a window from its class and style, when no accessibility source is more specific. */
export function classRole(className: string, style: number): WindowsRole | null {
  if (className === "#32770") return DIALOG;
  if (/^Button$/i.test(className)) return uiaRole(BUTTON_STYLE_TYPES[style & 0xf] ?? ControlType.Button);
  for (const [pattern, controlType] of CLASS_TYPES) if (pattern.test(className)) return uiaRole(controlType);
  return null;
}

/** Roles whose element is a toggle (checked state applies). */
export const TOGGLE_ROLES: ReadonlySet<AxRole> = new Set([
  AxRole.CheckBox,
  AxRole.RadioButton,
  AxRole.ToggleButton,
  AxRole.Switch,
]);
/** Roles a click activates. */
export const CLICKABLE_ROLES: ReadonlySet<AxRole> = new Set([
  AxRole.Button,
  AxRole.MenuButton,
  AxRole.CheckBox,
  AxRole.RadioButton,
  AxRole.ToggleButton,
  AxRole.Link,
  AxRole.MenuItem,
  AxRole.Tab,
  AxRole.ListItem,
  AxRole.TreeItem,
]);
/** Roles that hold editable text. */
export const TEXT_ROLES: ReadonlySet<AxRole> = new Set([AxRole.TextField, AxRole.Document]);
