/**
 * AX roles and subroles mapped onto the driver's neutral accessibility vocabulary,
 * and the capabilities ("interfaces") and states each implies.
 *
 * Role names are those of macOS's AXRoleConstants.h; WebKit and Chromium web content
 * use the same roles (AXWebArea, AXLink, AXHeading, ...).
 *
 * @module
 */

import type { AxRole } from "../../ports/accessibility.ts";

/** A neutral role (the vocabulary of src/ports/mod.ts). */
export type NeutralRole = AxRole;

const ROLES: Record<string, NeutralRole> = {
  AXApplication: "application",
  AXWindow: "window",
  AXSheet: "dialog",
  AXDrawer: "pane",
  AXPopover: "dialog",
  AXMenuBar: "menu_bar",
  AXMenuBarItem: "menu_item",
  AXMenu: "menu",
  AXMenuItem: "menu_item",
  AXMenuButton: "menu_button",
  AXToolbar: "tool_bar",
  AXTabGroup: "tab_list",
  AXButton: "button",
  AXPopUpButton: "combo_box",
  AXComboBox: "combo_box",
  AXCheckBox: "check_box",
  AXRadioButton: "radio_button",
  AXRadioGroup: "group",
  AXDisclosureTriangle: "toggle_button",
  AXTextField: "text_field",
  AXTextArea: "text_field",
  AXDateField: "text_field",
  AXTimeField: "text_field",
  AXStaticText: "label",
  AXImage: "image",
  AXLink: "link",
  AXHeading: "heading",
  AXGroup: "group",
  AXSplitGroup: "group",
  AXLayoutItem: "group",
  AXLayoutArea: "pane",
  AXSplitter: "splitter",
  AXScrollArea: "scroll_area",
  AXScrollBar: "scroll_bar",
  AXSlider: "slider",
  AXIncrementor: "spin_button",
  AXStepper: "spin_button",
  AXProgressIndicator: "progress_bar",
  AXBusyIndicator: "progress_bar",
  AXLevelIndicator: "progress_bar",
  AXRelevanceIndicator: "progress_bar",
  AXList: "list",
  AXOutline: "tree",
  AXBrowser: "tree",
  AXTable: "table",
  AXGrid: "table",
  AXRow: "row",
  AXColumn: "group",
  AXCell: "cell",
  AXWebArea: "document",
  AXHelpTag: "tool_tip",
  AXColorWell: "button",
  AXSortButton: "button",
  AXDockItem: "button",
  AXListMarker: "label",
  AXRuler: "other",
  AXMatte: "other",
  AXGrowArea: "other",
  AXHandle: "other",
  AXValueIndicator: "other",
  AXUnknown: "other",
};

const SUBROLES: Record<string, NeutralRole> = {
  AXDialog: "dialog",
  AXSystemDialog: "dialog",
  AXTabButton: "tab",
  AXSwitch: "switch",
  AXToggle: "toggle_button",
  AXOutlineRow: "tree_item",
  AXTableRow: "row",
  AXSearchField: "text_field",
  AXSecureTextField: "text_field",
  AXContentList: "list",
  AXDefinitionList: "list",
  AXTextAttachment: "image",
  AXApplicationAlert: "alert",
  AXApplicationAlertDialog: "alert",
  AXTerminal: "terminal",
};

/** The neutral role of an AX role and subrole. */
export function neutralRole(role: string, subrole: string | null): NeutralRole {
  if (subrole && subrole in SUBROLES) {
    // A tab is a radio button with the AXTabButton subrole; a list row a row with AXOutlineRow.
    return SUBROLES[subrole];
  }
  if (role === "AXRow" && subrole === null) return "row";
  return ROLES[role] ?? "other";
}

/** The platform role name shown to agents: "AXButton" or "AXButton:AXCloseButton". */
export function platformRole(role: string, subrole: string | null): string {
  return subrole && subrole !== "AXUnknown" ? `${role}:${subrole}` : role;
}

/** Roles whose AXValue 0/1 is a checked state. */
export const TOGGLE_ROLES: ReadonlySet<NeutralRole> = new Set([
  "check_box",
  "radio_button",
  "switch",
  "toggle_button",
  "tab",
  "check_menu_item",
  "radio_menu_item",
]);

/** Roles whose selection is the AXSelected attribute. */
export const SELECTABLE_ROLES: ReadonlySet<NeutralRole> = new Set([
  "row",
  "cell",
  "list_item",
  "tree_item",
  "menu_item",
]);

/** Roles that hold editable or readable text in AXValue. */
export const TEXT_ROLES: ReadonlySet<NeutralRole> = new Set([
  "text_field",
  "combo_box",
  "document",
  "terminal",
]);

/** Roles whose AXValue is a number in AXMinValue..AXMaxValue. */
export const RANGE_ROLES: ReadonlySet<NeutralRole> = new Set([
  "slider",
  "progress_bar",
  "scroll_bar",
  "spin_button",
]);

/** Roles that take keyboard focus in AppKit (without asking the app per element). */
export const FOCUSABLE_ROLES: ReadonlySet<NeutralRole> = new Set([
  "text_field",
  "combo_box",
  "button",
  "check_box",
  "radio_button",
  "switch",
  "toggle_button",
  "slider",
  "spin_button",
  "list",
  "table",
  "tree",
  "link",
  "tab",
  "document",
  "menu_button",
]);

/** Roles that hold selectable children. */
export const CONTAINER_SELECTION_ROLES: ReadonlySet<NeutralRole> = new Set([
  "list",
  "table",
  "tree",
  "tab_list",
]);
