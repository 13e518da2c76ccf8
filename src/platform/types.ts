/**
 * The back-end interface every OS implements. Names and shapes only: no OS imports.
 *
 * Window ids are opaque numbers (an XID on X11, an HWND on Windows, a CGWindowID on
 * macOS). Coordinates are screen points, origin top-left of the primary display.
 *
 * The accessibility vocabulary and interface live in `ax_types.ts`, the OS facilities
 * apart from the desktop (processes, programs, packages, sockets, files) in
 * `system_types.ts`; both are re-exported here, the one module tools and the core import.
 *
 * @module
 */
import type { AccessibilityBackend } from "./ax_types.ts";
import type { PackageInstallOutcome, PackageInstallPlan, SystemBackend } from "./system_types.ts";

export * from "./ax_types.ts";
export * from "./system_types.ts";

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
  /** The window's title; "" for an untitled window (listed all the same). */
  title: string;
  /**
   * The window this one is a transient dialog of (X11 `WM_TRANSIENT_FOR`); null for a
   * window of its own; absent where the platform does not tell.
   */
  transientFor?: number | null;
  /** Client area in screen points (WM decorations excluded). */
  bounds: Rect;
  isOnScreen: boolean;
  /** Stacking position, higher is nearer the front; null when the platform cannot tell. */
  zIndex: number | null;
}

/** What {@linkcode WindowBackend.get} must read. */
export interface WindowLookup {
  /** Read the window's place in the stacking order (default true). */
  zIndex?: boolean;
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
  /** One program: a path, a name on PATH, a `.desktop` file, or an installed app's launch path from list_apps. */
  launchPath?: string;
  /** An installed app's name or desktop-file id, or a program name. */
  name?: string;
  urls?: string[];
  /** The program's arguments, passed as they are (never split or interpreted by a shell). */
  additionalArguments?: string[];
  /**
   * Called with the exact program and arguments once they are resolved, right before
   * anything starts; it throws to refuse (bounded mode's manifest check).
   */
  authorize?: (program: LaunchProgram) => void;
}

/** The program a launch resolved to, as it will run. */
export interface LaunchProgram {
  /** The executable, every symlink resolved: this file is what runs. */
  realPath: string;
  /** Device and inode of that file. */
  dev: number;
  ino: number;
  /** Its arguments, without argv[0]. */
  args: readonly string[];
}

/** What a launch produced. */
export interface LaunchResult {
  pid: number | null;
  name: string;
  /** Process start time, to tell a later process with a reused pid apart. */
  startTime: string | null;
  command: string;
  /**
   * The launcher process `pid` runs behind (LibreOffice's oosplash), when there is one: the
   * app can restart under it, so follow it with {@linkcode AppBackend.appBehind}.
   */
  launcher?: number | null;
}

/** Pointer position and where it came from. */
export interface CursorPosition extends Point {
  source: string;
}

/** Where ffmpeg grabs the screen from on this desktop (start_recording's video). */
export interface ScreenRecordingSource {
  /** ffmpeg input options up to and including `-i <device>` (x11grab, gdigrab, avfoundation). */
  ffmpegInput: string[];
  /** Size of the grabbed area in pixels, even (yuv420p). */
  width: number;
  height: number;
}

/** Screen capture and display geometry. */
export interface ScreenBackend {
  displays(): Promise<DisplayInfo[]>;
  cursorPosition(): Promise<CursorPosition>;
  /** Captures a whole display. */
  captureDisplay(displayId: string): Promise<RawImage>;
  /**
   * Captures a window's client area; the result matches `bounds` of the window. With `into`,
   * a back end may put the pixels (BGRX, 4 bytes per pixel, rows unpadded) in that buffer when
   * it is exactly their size, instead of a new one: the caller owns it and no longer needs its
   * contents (a new buffer costs a page fault per 4 KiB, ~6 ms per 560x720 frame here).
   */
  captureWindow(
    windowId: number,
    options?: { into?: Uint8Array },
  ): Promise<{ image: RawImage; bounds: Rect }>;
  /**
   * Where a screen recorder grabs the whole desktop (every display), at `frameRate`, with
   * or without the real pointer drawn.
   *
   * @throws {DriverError} `unsupported_platform` where no grabber reaches this desktop (Wayland).
   */
  recordingSource(options: { frameRate: number; drawCursor: boolean }): Promise<ScreenRecordingSource>;
}

/** Window listing and arrangement. */
export interface WindowBackend {
  /** Top-level windows, bottom of the stack first. */
  list(): Promise<WindowInfo[]>;
  /**
   * One window, or null if it no longer exists. With `{ zIndex: false }` the back end may
   * skip reading the stacking order (zIndex is then null): for callers that only check the
   * window's owner, title or bounds.
   */
  get(windowId: number, options?: WindowLookup): Promise<WindowInfo | null>;
  /** The active window, if the platform knows one. */
  active(): Promise<number | null>;
  /** Persistently activates and raises a window; returns the previously active one. */
  activate(windowId: number): Promise<{ priorActive: number | null }>;
  /** Requests a new client-area frame; the caller reads back the result. */
  setFrame(windowId: number, frame: Rect): Promise<void>;
  /**
   * Asks a window to close the way its close button does (the app may ask to save
   * first); false when the window no longer exists. Absent where the platform cannot.
   */
  close?(windowId: number): Promise<boolean>;
}

/** Processes and apps. */
export interface AppBackend {
  listApps(): Promise<AppInfo[]>;
  listProcesses(): Promise<ProcessInfo[]>;
  launch(request: LaunchRequest): Promise<LaunchResult>;
  /** Force-terminates a process. */
  kill(pid: number): Promise<void>;
  /** The exit code of a process launch() started, once it has exited; null while unknown. */
  exitCode?(pid: number): Promise<number | null>;
  /** Asks a process to end (SIGTERM: it may save and clean up first). Absent where the platform cannot. */
  terminate?(pid: number): Promise<void>;
  /** True while the process exists and is not a zombie. */
  isAlive(pid: number): Promise<boolean>;
  /** Start time of a process, to detect pid reuse; null if unknown. */
  startTime(pid: number): Promise<string | null>;
  /**
   * The app a launcher reported in {@linkcode LaunchResult.launcher} runs now (a new pid
   * after the app restarted under it); null while it runs none. Only back ends whose
   * launches can have launchers implement it.
   */
  appBehind?(launcher: number): Promise<number | null>;
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

/** Mouse buttons. */
export type MouseButton = "left" | "right" | "middle" | "back" | "forward";

/**
 * Where input goes: `background` drives a private pointer and keyboard that never
 * move the user's pointer or focus; `global` is the user's own pointer and keyboard
 * (foreground transactions and desktop scope).
 */
export type InputChannel = "background" | "global";

/** A pointer of one channel. */
export interface RawPointer {
  /** Absolute motion to a screen point. */
  move(point: Point): Promise<void>;
  button(button: MouseButton, down: boolean): Promise<void>;
  /**
   * Wheel detents; positive dy scrolls down, positive dx right. Stops between detents when
   * `signal` aborts and resolves with the number sent.
   */
  wheel(dx: number, dy: number, signal?: AbortSignal): Promise<number | void>;
  /**
   * Releases every button this pointer holds. Optional: the core records what it pressed
   * (`src/core/input/held_input.ts`) and releases it with `button(…, false)`.
   */
  releaseAll?(): Promise<void>;
  /** Waits until the window system processed everything sent. */
  sync(): Promise<void>;
  /** Where the window system says this pointer is now; null when it cannot tell. */
  position(): Promise<Point | null>;
}

/**
 * A private pointer of its own (one more background device), for gestures that
 * outlive one call (a held button) or run side by side (parallel drags).
 */
export interface OwnedPointer extends RawPointer {
  /** Releases its buttons and removes the device. Idempotent. */
  close(): Promise<void>;
}

/**
 * A keyboard of one channel. Keys are canonical names or single characters. `down` and `up`
 * are raw; `press` and `typeText` are atomic and leave nothing held.
 */
export interface RawKeyboard {
  /** Presses and releases a key with modifiers held (canonical names: ctrl, shift, alt, super). */
  press(key: string, modifiers: readonly string[]): Promise<void>;
  down(key: string): Promise<void>;
  up(key: string): Promise<void>;
  /**
   * Types text; returns how many characters were delivered.
   *
   * @throws {DriverError} `aborted` (with `delivered_count`) when `signal` aborts part-way;
   *   what the keyboard held is released.
   */
  typeText(text: string, delayMs?: number, signal?: AbortSignal): Promise<number>;
  /**
   * Releases every key and modifier this keyboard still holds. Optional: the core records
   * what it pressed with `down` and releases it with `up`.
   */
  releaseAll?(): Promise<void>;
}

/** The toolkit of an app, deciding which background routes land. */
export type Toolkit =
  | "gtk3"
  | "gtk4"
  | "qt"
  | "chromium"
  | "webkit"
  | "gecko"
  | "xt"
  | "win32"
  | "wpf"
  | "uwp"
  | "appkit"
  | "java"
  | "unknown";

/** What input may disturb, read at one moment. */
export interface DesktopObservation {
  activeWindow: number | null;
  /** The top-level window holding the core keyboard focus. */
  focusWindow: number | null;
  pointer: Point;
  /** Window ids bottom to top. */
  stacking: number[];
}

/** Synthesized input and the transactions around it. */
export interface InputBackend {
  /** True when background (private pointer/keyboard) input exists on this desktop. */
  backgroundAvailable(): Promise<boolean>;
  pointer(channel: InputChannel): Promise<RawPointer>;
  /**
   * Creates one more background pointer, independent of the channel pointers and of
   * {@linkcode InputBackend.releaseAll}; the caller closes it.
   *
   * @throws {DriverError} `background_unavailable` when the window system cannot create one.
   */
  extraPointer(): Promise<OwnedPointer>;
  keyboard(channel: InputChannel): Promise<RawKeyboard>;
  /** Points the background keyboard at a window for `body`, then restores the previous active window. */
  withBackgroundKeyboard<T>(windowId: number, body: () => Promise<T>): Promise<T>;
  /**
   * Activates a window (confirmed), runs `body` with global input, then restores the
   * previously active window, focus and pointer position.
   *
   * @throws {DriverError} `foreground_unavailable` when activation is not confirmed (nothing sent).
   */
  withForeground<T>(windowId: number, body: () => Promise<T>): Promise<T>;
  /** True when real pointer input at `point` reaches `windowId` (nothing covers it there). */
  windowOnTopAt(windowId: number, point: Point): Promise<boolean>;
  toolkit(pid: number): Promise<Toolkit>;
  observe(): Promise<DesktopObservation>;
  /**
   * Releases every button and key the back end still holds on any channel. Optional safety
   * net: the core releases what it pressed after every action, even a failed one.
   */
  releaseAll?(): Promise<void>;
  /** Resolves once the app owning the window has processed the input sent so far (bounded wait). */
  appSettled(windowId: number): Promise<void>;
}

/** How an agent cursor looks: colours as `#rrggbb`, size relative to the theme's base arrow. */
export interface AgentCursorStyle {
  /** Arrow body. */
  fill: string;
  /** Arrow outline. */
  outline: string;
  /** Click pulse ring. */
  accent: string;
  /** Scale of the arrow, 1 = about 20 px tall. */
  scale: number;
}

/** One rendered frame of an agent cursor. */
export interface AgentCursorFrame {
  /** Screen point of the arrow's tip. */
  point: Point;
  style: AgentCursorStyle;
  /** Click pulse progress: 0 none, up to 1 at its widest. */
  pulse: number;
  /** Session label shown as the overlay's name (`Cua.AgentCursorOverlay.<label>`). */
  label: string;
}

/**
 * The agent cursor's drawing surface: a click-through overlay above every window,
 * never in the driver's own screenshots. Drawing calls are synchronous and never throw;
 * a failure leaves the cursor undrawn and is reported by {@linkcode unavailableReason}.
 */
export interface AgentCursorBackend {
  /**
   * Null when cursors can be drawn on this desktop, else why not. Asynchronous: the answer may
   * need the overlay's code and a connection of its own, which load at the first ask.
   */
  unavailableReason(): Promise<string | null>;
  /** Draws cursor `id` (creating its overlay on first use), shown and above other windows. */
  draw(id: string, frame: AgentCursorFrame): void;
  /** Hides cursor `id`, keeping its overlay for the next draw. */
  hide(id: string): void;
  /** Removes cursor `id` and its overlay. Idempotent. */
  remove(id: string): void;
}

/** One checked OS facility (check_permissions). */
export interface PermissionCheck {
  name: string;
  ok: boolean;
  /** What was found, in words. */
  detail: string;
  /** The exact step that supplies the missing piece; null when `ok`. */
  remedy: string | null;
  /** What was probed, for programs. */
  data?: Record<string, unknown>;
}

/** What raising the OS permission prompts did (`cua-driver permissions grant`). */
export interface PermissionPrompts {
  /** The grants whose system prompt was raised ("accessibility", "screen_recording"); empty when none was missing. */
  prompted: string[];
}

/** One platform check of health_report. */
export interface HealthCheck {
  name: string;
  status: "pass" | "fail" | "skip";
  message: string;
  /** What to do about a failure. */
  hint?: string;
  data?: Record<string, unknown>;
}

/** One recognized word, in the pixel space of the image it was read from. */
export interface PerceivedWord {
  text: string;
  bounds: Rect;
  /** 0..1. */
  confidence: number;
}

/** Words the engine read as one line of text, left to right. */
export interface PerceivedLine {
  words: PerceivedWord[];
}

/** Whether the local perception engine can run, and which one it is. */
export interface PerceptionStatus {
  installed: boolean;
  /** Engine name ("tesseract"). */
  engine: string;
  /** Engine version when installed. */
  version: string | null;
  /** What is missing when not installed (library, language data), for the message. */
  missing: string | null;
  /** The exact step that installs it, when not installed. */
  remedy: string | null;
}

/** How the engine is installed through the system package manager. */
export type PerceptionInstallPlan = PackageInstallPlan;

/** What an install attempt did. */
export type PerceptionInstallOutcome = PackageInstallOutcome;

/**
 * Local, CPU-only text recognition on a screenshot (no network, no remote model).
 * Optional: a back end without it has `perception` undefined. Every method is async, so that
 * a back end can load the engine's code on first use.
 */
export interface PerceptionBackend {
  /** Probes the engine (library and language data); cheap after the first call. */
  status(): Promise<PerceptionStatus>;
  /**
   * Recognizes the text of an image, lines in reading order, in the image's pixel space.
   *
   * @throws {DriverError} `not_installed` when the engine cannot run.
   */
  recognizeText(image: RawImage, signal: AbortSignal): Promise<PerceivedLine[]>;
  /** The install command for this system; null when no supported package manager exists. */
  installPlan(): Promise<PerceptionInstallPlan | null>;
  /** Runs the install plan, then probes the engine again. */
  install(plan: PerceptionInstallPlan, signal: AbortSignal): Promise<PerceptionInstallOutcome>;
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
  readonly input: InputBackend;
  /** The agent-cursor overlay. */
  readonly agentCursor: AgentCursorBackend;
  /** Processes, programs, package installs, local sockets and files. */
  readonly system: SystemBackend;
  /** Local text recognition on screenshots (parse_visual_regions); absent where not implemented. */
  readonly perception?: PerceptionBackend;
  /** Probes each facility the driver needs; a missing one is a failed check, not a throw. */
  permissions(): Promise<PermissionCheck[]>;
  /**
   * Raises the OS prompts for the missing grants. For a person at the machine
   * (`cua-driver permissions grant`), never for a tool call. Absent where the OS has no such prompts.
   */
  requestPermissions?(): Promise<PermissionPrompts>;
  /**
   * Runs the platform checks of health_report named in `names` (display, window_manager,
   * accessibility, capture, input); names it does not know are left out. A failed probe is
   * a `fail` check, not a throw.
   */
  health(names: readonly string[]): Promise<HealthCheck[]>;
  /**
   * Resolves once the desktop is reachable, connecting to it if it appeared since the
   * last call. Absent on back ends that are always ready.
   *
   * @throws {DriverError} `display_unavailable` with the remedy while there is no desktop.
   */
  ready?(): Promise<void>;
  /** Releases native resources. */
  close(): Promise<void>;
}
