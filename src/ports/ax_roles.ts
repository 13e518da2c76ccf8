/**
 * What the core knows about neutral roles (`AxRole` in `src/ports/mod.ts`): which
 * are passive, which carry a checked/selected state. The one place these sets live.
 *
 * @module
 */
import { AxRole } from "./accessibility.ts";

/**
 * Roles whose activation changes nothing an app exposes: they never get an element index,
 * and an accessibility click on one is a suspected no-op (contract: passive roles).
 */
export const PASSIVE_ROLES: ReadonlySet<AxRole> = new Set<AxRole>([
  AxRole.Label,
  AxRole.Separator,
  AxRole.Image,
  AxRole.Group,
  AxRole.Pane,
  AxRole.ScrollArea,
]);

/** Roles that toggle: their checked state is the toggle's state. */
export const TOGGLE_ROLES: ReadonlySet<AxRole> = new Set<AxRole>([
  AxRole.CheckBox,
  AxRole.RadioButton,
  AxRole.ToggleButton,
  AxRole.Switch,
  AxRole.CheckMenuItem,
  AxRole.RadioMenuItem,
]);

/** Roles whose selected/checked state is reported (toggles, items, tabs, cells). */
export const SELECTABLE_ROLES: ReadonlySet<AxRole> = new Set<AxRole>([
  ...TOGGLE_ROLES,
  AxRole.MenuItem,
  AxRole.ListItem,
  AxRole.Tab,
  AxRole.TabList,
  AxRole.TreeItem,
  AxRole.Tree,
  AxRole.Table,
  AxRole.Row,
  AxRole.Cell,
  AxRole.ColumnHeader,
  AxRole.RowHeader,
]);

/** Roles of buttons: a button with geometry is actionable even without named actions. */
export const BUTTON_ROLES: ReadonlySet<AxRole> = new Set<AxRole>([
  AxRole.Button,
  AxRole.MenuButton,
  AxRole.ToggleButton,
  AxRole.RadioButton,
  AxRole.SpinButton,
]);

/**
 * Roles an agent clicks whether or not the toolkit names an action: GTK4 gives most
 * check boxes, radio buttons, tabs and list items none, and spreadsheet cells have none.
 * With a frame on screen such a node is actionable (a click goes to its centre).
 */
export const CLICKABLE_ROLES: ReadonlySet<AxRole> = new Set<AxRole>([
  AxRole.ComboBox,
  AxRole.CheckBox,
  AxRole.Switch,
  AxRole.Tab,
  AxRole.ListItem,
  AxRole.TreeItem,
  AxRole.MenuItem,
  AxRole.CheckMenuItem,
  AxRole.RadioMenuItem,
  AxRole.Link,
  AxRole.Cell,
]);
