/**
 * The back-end interface every OS implements. Names and shapes only: no OS imports.
 *
 * Window ids are opaque numbers (an XID on X11, an HWND on Windows, a CGWindowID on
 * macOS). Coordinates are screen points, origin top-left of the primary display.
 *
 * @module
 */

/** A point in screen points. */
export interface Point {
  x: number;
  y: number;
}

/** A rectangle in screen points. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Raw pixels, tightly packed RGBA, 4 bytes per pixel, row after row. */
export interface RawImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** One attached display. */
export interface DisplayInfo {
  id: string;
  name: string;
  primary: boolean;
  /** Bounds in screen points. */
  bounds: Rect;
  /** Physical pixel size. */
  nativeWidth: number;
  nativeHeight: number;
  /** Pixels per point. */
  scaleFactor: number;
  /** 0 when unknown (Xvfb). */
  refreshRateHz: number;
}

/** A top-level window as list_windows reports it. */
export interface WindowInfo {
  windowId: number;
  pid: number | null;
  appName: string;
  title: string;
  /** Client area in screen points (WM decorations excluded). */
  bounds: Rect;
  isOnScreen: boolean;
  /** Stacking position, higher is nearer the front; null when the platform cannot tell. */
  zIndex: number | null;
}

/** A running process. */
export interface ProcessInfo {
  pid: number;
  name: string;
}

/** An app known to the desktop, running or installed. */
export interface AppInfo {
  pid: number;
  bundleId: string | null;
  name: string;
  running: boolean;
  active: boolean;
  kind: string | null;
  launchPath: string | null;
  lastUsed: string | null;
}

/** What launch_app asks for. */
export interface LaunchRequest {
  launchPath?: string;
  name?: string;
  urls?: string[];
  additionalArguments?: string[];
}

/** What a launch produced. */
export interface LaunchResult {
  pid: number | null;
  name: string;
  /** Process start time, to tell a later process with a reused pid apart. */
  startTime: string | null;
  command: string;
}

/** Pointer position and where it came from. */
export interface CursorPosition extends Point {
  source: string;
}

/** Screen capture and display geometry. */
export interface ScreenBackend {
  displays(): Promise<DisplayInfo[]>;
  cursorPosition(): Promise<CursorPosition>;
  /** Captures a whole display. */
  captureDisplay(displayId: string): Promise<RawImage>;
  /** Captures a window's client area; the result matches `bounds` of the window. */
  captureWindow(windowId: number): Promise<{ image: RawImage; bounds: Rect }>;
}

/** Window listing and arrangement. */
export interface WindowBackend {
  /** Top-level windows, bottom of the stack first. */
  list(): Promise<WindowInfo[]>;
  /** One window, or null if it no longer exists. */
  get(windowId: number): Promise<WindowInfo | null>;
  /** The active window, if the platform knows one. */
  active(): Promise<number | null>;
  /** Persistently activates and raises a window; returns the previously active one. */
  activate(windowId: number): Promise<{ priorActive: number | null }>;
  /** Requests a new client-area frame; the caller reads back the result. */
  setFrame(windowId: number, frame: Rect): Promise<void>;
}

/** Processes and apps. */
export interface AppBackend {
  listApps(): Promise<AppInfo[]>;
  listProcesses(): Promise<ProcessInfo[]>;
  launch(request: LaunchRequest): Promise<LaunchResult>;
  /** Force-terminates a process. */
  kill(pid: number): Promise<void>;
  /** True while the process exists and is not a zombie. */
  isAlive(pid: number): Promise<boolean>;
  /** Start time of a process, to detect pid reuse; null if unknown. */
  startTime(pid: number): Promise<string | null>;
}

/** One accessible node, as the platform reports it. */
export interface AxNode {
  /** Platform role name (AT-SPI role names on Linux: "push button", "check box", ...). */
  role: string;
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
  /** Action names, in the platform's order. */
  actions: string[];
  /** Capabilities the node supports: "action", "value", "text", "editable_text", "component", "selection". */
  interfaces: string[];
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
}

/** The accessibility tree of one window. */
export interface AxTree {
  nodes: AxNode[];
  /** True when the walk stopped early (node or depth budget). */
  truncated: boolean;
  /** Set when the tree could not be read; nodes may then be empty. */
  error: string | null;
}

/** Accessibility trees. */
export interface AccessibilityBackend {
  /** The accessibility tree of the window `windowId` owned by `pid`. */
  tree(pid: number, windowId: number, options: AxSnapshotOptions, signal: AbortSignal): Promise<AxTree>;
}

/** What the clipboard holds. */
export interface ClipboardContent {
  /** Available type names (MIME types or atom names). */
  types: string[];
  text: string | null;
  /** PNG bytes when an image flavour is offered. */
  imagePng: Uint8Array | null;
}

/** Clipboard access. */
export interface ClipboardBackend {
  read(options: { text: boolean; image: boolean }): Promise<ClipboardContent>;
  writeText(text: string): Promise<string[]>;
  writeImage(png: Uint8Array): Promise<string[]>;
  writeFiles(paths: string[]): Promise<string[]>;
}

/** One checked OS facility. */
export interface PermissionCheck {
  name: string;
  ok: boolean;
  detail: string;
  remedy: string | null;
}

/** Everything the tools need from an OS. */
export interface Backend {
  readonly os: "linux" | "darwin" | "windows" | "fake";
  /** Human-readable description of the session ("X11 :99 (embedded)"). */
  readonly description: string;
  readonly screen: ScreenBackend;
  readonly windows: WindowBackend;
  readonly apps: AppBackend;
  readonly accessibility: AccessibilityBackend;
  readonly clipboard: ClipboardBackend;
  permissions(): Promise<PermissionCheck[]>;
  /** Releases native resources. */
  close(): Promise<void>;
}
