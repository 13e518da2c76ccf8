/**
 * The accessibility capability: the neutral vocabulary (roles, interfaces, states), the
 * tree shape, and the interface each OS's accessibility back end implements.
 *
 * @module
 */

import type { Rect } from "./geometry.ts";

/**
 * The neutral accessibility vocabulary: what the core decides on. Each back end maps its
 * own roles onto it in its own folder (AT-SPI role numbers on Linux, UI Automation control
 * types on Windows, AX roles on macOS); the platform's own name travels beside it in
 * {@linkcode AxNode.platformRole} for display. Values are snake_case and stable: they
 * appear in recordings and in verify_state selectors.
 *
 * Mapping guide (AT-SPI / UIA ControlType / AX role):
 * - `button`: push button / Button / AXButton; `toggle_button`: toggle button / Button + Toggle / AXCheckBox (push style)
 * - `check_box`, `radio_button`, `switch`, `combo_box`, `slider`, `spin_button`, `progress_bar`, `scroll_bar`
 * - `text_field`: text, entry, password text / Edit / AXTextField, AXTextArea
 * - `label`: label, static / Text / AXStaticText; `image`: image, icon / Image / AXImage
 * - `group`: filler, panel / Group, Pane (generic) / AXGroup; `pane`: viewport, root/glass/layered pane / (none) / AXLayoutArea
 * - `scroll_area`: scroll pane / Pane with Scroll pattern / AXScrollArea
 * - `window`: frame, window / Window / AXWindow; `dialog`: dialog, file chooser / Window (modal) / AXSheet, AXDialog
 */
export const AxRole = {
  Application: "application",
  Window: "window",
  Dialog: "dialog",
  Alert: "alert",
  MenuBar: "menu_bar",
  Menu: "menu",
  MenuItem: "menu_item",
  CheckMenuItem: "check_menu_item",
  RadioMenuItem: "radio_menu_item",
  ToolBar: "tool_bar",
  StatusBar: "status_bar",
  TitleBar: "title_bar",
  TabList: "tab_list",
  Tab: "tab",
  TabPanel: "tab_panel",
  Button: "button",
  MenuButton: "menu_button",
  ToggleButton: "toggle_button",
  CheckBox: "check_box",
  RadioButton: "radio_button",
  Switch: "switch",
  ComboBox: "combo_box",
  List: "list",
  ListItem: "list_item",
  Tree: "tree",
  TreeItem: "tree_item",
  Table: "table",
  Row: "row",
  Cell: "cell",
  ColumnHeader: "column_header",
  RowHeader: "row_header",
  TextField: "text_field",
  Document: "document",
  Link: "link",
  Heading: "heading",
  Paragraph: "paragraph",
  Label: "label",
  Image: "image",
  Separator: "separator",
  Splitter: "splitter",
  Group: "group",
  Section: "section",
  Pane: "pane",
  ScrollArea: "scroll_area",
  ScrollBar: "scroll_bar",
  Slider: "slider",
  SpinButton: "spin_button",
  ProgressBar: "progress_bar",
  ToolTip: "tool_tip",
  Terminal: "terminal",
  Canvas: "canvas",
  Calendar: "calendar",
  Embedded: "embedded",
  Other: "other",
} as const;

/** A neutral role (see {@linkcode AxRole}). */
export type AxRole = typeof AxRole[keyof typeof AxRole];

/**
 * Capabilities a node offers, neutral names for AT-SPI interfaces, UI Automation patterns
 * and AX attribute/action sets:
 * - `action`: named actions (AT-SPI Action; UIA Invoke/Toggle/ExpandCollapse/SelectionItem; AX actions)
 * - `value`: a numeric value with a range (AT-SPI Value; UIA RangeValue; AXValue on a slider)
 * - `text`: readable text with a caret (AT-SPI Text; UIA Text/Value; AXValue + AXSelectedTextRange)
 * - `editable_text`: writable text (AT-SPI EditableText; UIA Value not read-only; settable AXValue)
 * - `component`: on-screen geometry (AT-SPI Component; UIA BoundingRectangle; AXFrame)
 * - `selection`: selectable children (AT-SPI Selection; UIA Selection; AXSelectedChildren)
 */
export const AxInterface = {
  Action: "action",
  Value: "value",
  Text: "text",
  EditableText: "editable_text",
  Component: "component",
  Selection: "selection",
  Table: "table",
  TableCell: "table_cell",
  Image: "image",
  Hypertext: "hypertext",
  Hyperlink: "hyperlink",
  Document: "document",
  Collection: "collection",
  Application: "application",
} as const;

/** A neutral interface/pattern name (see {@linkcode AxInterface}). */
export type AxInterface = typeof AxInterface[keyof typeof AxInterface];

/**
 * Neutral element states: the boolean fields of {@linkcode ElementState}, each set by the
 * back end from its own state bits (AT-SPI states, UIA properties, AX attributes).
 */
export const AxState = {
  Enabled: "enabled",
  Focused: "focused",
  Focusable: "focusable",
  Showing: "showing",
  Visible: "visible",
  Editable: "editable",
  Checked: "checked",
  Checkable: "checkable",
  Selected: "selected",
  Toggleable: "toggleable",
} as const;

/** A neutral state name (see {@linkcode AxState}). */
export type AxState = typeof AxState[keyof typeof AxState];

/** One accessible node, as the platform reports it. */
export interface AxNode {
  /** Neutral role: what the core decides on. */
  role: AxRole;
  /**
   * The platform's own role name, shown to agents (AT-SPI role names on Linux: "push button",
   * "check box"; UIA control type names on Windows; AX roles on macOS). Never matched by the core.
   */
  platformRole: string;
  name: string;
  description: string;
  /** Current value or text content, if any. */
  value: string | null;
  /** Depth below the window's root node (the root is 0). */
  depth: number;
  /** Index of the parent in the node list; -1 for the root. */
  parent: number;
  enabled: boolean;
  focused: boolean;
  /** Checked or selected state for toggles, items and tabs; null when not applicable. */
  selected: boolean | null;
  showing: boolean;
  editable: boolean;
  focusable: boolean;
  /** Action names, in the platform's order (shown to agents; the core only classifies them by verb). */
  actions: string[];
  /** Capabilities the node supports. */
  interfaces: AxInterface[];
  /** Screen-absolute frame, when known. */
  frame: Rect | null;
  /** Opaque handle the back end uses to act on the node later. */
  ref: unknown;
}

/** Options for an accessibility snapshot. */
export interface AxSnapshotOptions {
  /** Stop after this many nodes. */
  maxNodes: number;
  /** Do not descend below this depth. */
  maxDepth: number;
  /**
   * Roles, names and states only: no frames, actions or values, so the app is asked
   * nothing per object (a menu walk must not flood an app that is opening a popup).
   */
  structureOnly?: boolean;
  /**
   * Frames and actions only where an agent could act: none for disabled objects and passive roles
   * (labels, panes, separators, ...), for a caller that shows no other object's frame or actions
   * (get_window_state). Values and text are still read. A hint: a back end may read them anyway.
   */
  actionableDetailsOnly?: boolean;
  /**
   * The window's bounds, when the caller has just read them (get_window_state checks the
   * window first): the back end then does not read them again.
   */
  windowBounds?: Rect;
}

/** The accessibility tree of one window. */
export interface AxTree {
  nodes: AxNode[];
  /** True when the walk stopped early (node or depth budget). */
  truncated: boolean;
  /**
   * How many nodes the window has within the depth budget, when the back end knows it
   * (more than `nodes.length` when the node budget cut the tree).
   */
  totalNodes?: number;
  /** Set when the tree could not be read; nodes may then be empty. */
  error: string | null;
}

/** An element's neutral states (see {@linkcode AxState}) plus the platform's state names. */
export interface ElementState {
  enabled: boolean;
  focused: boolean;
  focusable: boolean;
  showing: boolean;
  visible: boolean;
  editable: boolean;
  checked: boolean;
  /** The element can be checked (a check box, a check menu item, a toggle). */
  checkable: boolean;
  selected: boolean;
  /** True when checked/selected is meaningful for the element. */
  toggleable: boolean;
  /** The platform's own state names, for diagnostics only (never matched by the core). */
  names: string[];
}

/** A numeric value and its range. */
export interface ValueRange {
  current: number;
  min: number;
  max: number;
  /** Smallest step; 0 when the platform does not say. */
  step: number;
}

/**
 * What an app exposes through accessibility at one moment, read without acting on it,
 * to compare before and after an action. Keys are opaque and stable between two samples
 * of the same app; values are compared for equality only.
 */
export interface AppStateSample {
  /** One fingerprint (role, name, states) per object of the app, tooltips left out. */
  objects: ReadonlyMap<string, string>;
  /** Key of the focused object, or null when the app reports none. */
  focus: string | null;
  /**
   * Readings of the focused object and of the elements asked for, keyed
   * `<object key>#<facet>` with facets `text`, `caret`, `selection`, `value`, `states`.
   */
  details: ReadonlyMap<string, string>;
  /** Words for an object key in summaries, such as `push button "OK"`. */
  describe(key: string): string;
}

/**
 * Accessibility trees and operations on one element. `ref` is the opaque handle
 * an {@linkcode AxNode} carried; a ref whose object is gone throws `stale_element_token`.
 */
export interface AccessibilityBackend {
  /**
   * True when an action may be confirmed only by the app's own state that {@linkcode sample}
   * reads (a control's text, selection, check, selected item, drop-down state): a change of the
   * window's pixels alone (a focus rectangle redrawn) then leaves it unverifiable. Absent: pixels
   * changing prove the input landed.
   */
  readonly confirmsFromStateOnly?: boolean;
  /** The accessibility tree of the window `windowId` owned by `pid`. */
  tree(pid: number, windowId: number, options: AxSnapshotOptions, signal: AbortSignal): Promise<AxTree>;
  /** Action names, in the platform's order. */
  actionNames(ref: unknown): Promise<string[]>;
  /** Invokes the named action; false when the toolkit refused. */
  doAction(ref: unknown, actionName: string): Promise<boolean>;
  state(ref: unknown): Promise<ElementState>;
  /** Screen-absolute frame, or null when the element has no geometry. */
  frame(ref: unknown): Promise<Rect | null>;
  /** Full text of a text element. */
  text(ref: unknown): Promise<string>;
  /** Caret offset in characters, -1 when unknown. */
  caretOffset(ref: unknown): Promise<number>;
  insertText(ref: unknown, offset: number, text: string): Promise<boolean>;
  setText(ref: unknown, text: string): Promise<boolean>;
  value(ref: unknown): Promise<ValueRange>;
  setValue(ref: unknown, value: number): Promise<void>;
  grabFocus(ref: unknown): Promise<boolean>;
  /**
   * Scrolls the views around an element until it has on-screen geometry inside them;
   * says how ("scroll_to": the element's own scroll request; "scroll_bar": its scroll
   * pane's bars), or null when it could not be shown. Optional.
   */
  scrollIntoView?(ref: unknown): Promise<"scroll_to" | "scroll_bar" | null>;
  /**
   * Starts watching the application owning `ref` for accessibility events (state, value
   * and text changes), for a read-back that wakes on the change instead of polling.
   * Optional: without it, read-backs poll. Resolves once events are routed.
   */
  watch?(ref: unknown): Promise<AxWatch>;
  /**
   * Samples the state of the app of process `pid` (and the details of `refs`) for an
   * action's before/after comparison. Never throws for an app that is gone or has no
   * accessibility: the answer is then null.
   */
  sample(pid: number, refs: readonly unknown[], signal: AbortSignal): Promise<AppStateSample | null>;
}

/** A watch of one application's accessibility events (see {@linkcode AccessibilityBackend.watch}). */
export interface AxWatch {
  /**
   * Resolves true at the first event since the watch began or since the previous call
   * (at once when one is pending), or false after `timeoutMs`.
   */
  next(timeoutMs: number): Promise<boolean>;
  /**
   * What the application's own state-change events said of the watched element since the
   * watch began: the last value of each state it reported, by state name ("checked",
   * "pressed"; the names of {@linkcode ElementState.names}). Absent when the back end cannot
   * tell which element an event is about.
   */
  readonly reportedStates?: ReadonlyMap<string, boolean>;
  /** Stops the watch; a pending `next` resolves. Idempotent. */
  close(): void;
}
