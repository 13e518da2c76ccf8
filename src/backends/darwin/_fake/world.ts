/**
 * The scripted Mac behind the fake frameworks: displays, running apps, the window
 * server's window list, each app's accessibility tree, the pasteboard, and how the
 * apps react to what the driver does (AX actions and attribute writes, posted
 * events). Tests read this state as the "application's own" record of what landed.
 *
 * @module
 */
import type { Point, Rect } from "../../../ports/geometry.ts";

/** A display as CoreGraphics reports it. */
export interface FakeDisplay {
  id: number;
  /** Global bounds in points (origin top-left of the main display). */
  bounds: Rect;
  pixelWidth: number;
  pixelHeight: number;
  refreshHz: number;
  builtin: boolean;
}

/** A running application (NSRunningApplication + its process). */
export interface FakeApp {
  pid: number;
  name: string;
  bundleId: string | null;
  bundlePath: string | null;
  executablePath: string;
  /** 0 regular, 1 accessory, 2 prohibited. */
  activationPolicy: number;
  /** Seconds since 1970. */
  launchDate: number;
  terminated: boolean;
  /** The AXApplication element. */
  ax: FakeElement;
  /** True when the app's main thread is stuck: AX messages time out. */
  hung: boolean;
  /** When set, the app hangs after answering this many more AX messages. */
  hangAfter?: number;
  /** The element with keyboard focus inside the app. */
  focused: FakeElement | null;
  /** "zombie" once killed but not reaped. */
  status: "running" | "zombie";
}

/** A window in the window server's list. */
export interface FakeWindow {
  id: number;
  pid: number;
  ownerName: string;
  title: string;
  layer: number;
  bounds: Rect;
  onScreen: boolean;
  alpha: number;
  /** Fill colour of its pixels (RGB). */
  color: [number, number, number];
  /** Its AXWindow element, if it has one. */
  ax: FakeElement | null;
  /** What a capture of it gives when the window server shows it no pixels ("empty" 0x0, "transparent"). */
  unreadable?: "empty" | "transparent";
}

/** One node of an app's accessibility tree. */
export interface FakeElement {
  id: number;
  pid: number;
  role: string;
  subrole?: string;
  title?: string;
  description?: string;
  help?: string;
  identifier?: string;
  placeholder?: string;
  /** AXValue: text, a number, or a boolean-like 0/1 for toggles. */
  value?: string | number;
  valueSettable?: boolean;
  minValue?: number;
  maxValue?: number;
  enabled: boolean;
  focused: boolean;
  selected?: boolean;
  expanded?: boolean;
  frame: Rect | null;
  actions: string[];
  children: FakeElement[];
  parent: FakeElement | null;
  /** Selection in a text element (characters). */
  selectedRange?: { location: number; length: number };
  /** The CGWindowID of an AXWindow. */
  windowId?: number;
  /** Further attributes (AXMain, AXMinimized, AXMenuItemCmdChar, ...). */
  extra: Record<string, unknown>;
  /** Runs when an action is performed, after the built-in behaviour. */
  onAction?: (world: FakeMac, element: FakeElement, action: string) => void;
  /** False once removed from its app (a stale reference then fails kAXErrorInvalidUIElement). */
  alive: boolean;
}

/** A synthetic event the driver posted, with the fields the fake reads. */
export interface PostedEvent {
  /** "hid"/"session" (CGEventPost tap) or "pid" (CGEventPostToPid). */
  route: "hid" | "session" | "annotated" | "pid";
  pid: number | null;
  type: number;
  location: Point;
  keyCode: number;
  keyDown: boolean;
  flags: bigint;
  text: string;
  fields: Record<number, bigint>;
  scroll: { unit: number; dy: number; dx: number } | null;
  button: number;
  /** The CGEventSourceStateID of the event's source (null for a NULL source). */
  sourceState: number | null;
  /** The window-local point set with CGEventSetWindowLocation, if any. */
  windowLocation: Point | null;
  /** The call that posted it: CGEventPost, CGEventPostToPid or SLEventPostToPid. */
  via: string;
  /** When it was posted (performance.now(), ms). */
  time: number;
}

/** Gaps AppKit's background mouse tracking needs, in ms (what the reference measured on real Macs). */
export const APPKIT_GAPS = { moveToDown: 12, downToUp: 28 } as const;

/** What the pasteboard holds: UTI → bytes or text. */
export interface FakePasteboardItem {
  type: string;
  text?: string;
  bytes?: Uint8Array;
}

let nextElementId = 1;

/** Builds an element (children are attached with {@linkcode adopt}). */
export function element(
  pid: number,
  role: string,
  fields: Partial<Omit<FakeElement, "id" | "pid" | "role" | "children" | "parent" | "alive">> = {},
  children: FakeElement[] = [],
): FakeElement {
  const node: FakeElement = {
    id: nextElementId++,
    pid,
    role,
    enabled: true,
    focused: false,
    frame: null,
    actions: [],
    extra: {},
    ...fields,
    children: [],
    parent: null,
    alive: true,
  };
  adopt(node, children);
  return node;
}

/** Appends children to an element. */
export function adopt(parent: FakeElement, children: FakeElement[]): void {
  for (const child of children) {
    child.parent = parent;
    parent.children.push(child);
  }
}

function contains(rect: Rect | null, point: Point): boolean {
  return rect !== null && point.x >= rect.x && point.y >= rect.y && point.x < rect.x + rect.width &&
    point.y < rect.y + rect.height;
}

/** The fake Mac's whole state. */
export class FakeMac {
  displays: FakeDisplay[] = [];
  apps: FakeApp[] = [];
  /** Front to back, as CGWindowListCopyWindowInfo reports them. */
  windows: FakeWindow[] = [];
  /** The frontmost app's pid. */
  frontmost: number | null = null;
  /** Where the user's pointer is. */
  cursor: Point = { x: 0, y: 0 };
  /** Accessibility trust (System Settings → Privacy & Security → Accessibility). */
  accessibilityTrusted = true;
  /** Screen Recording permission. */
  screenCaptureAllowed = true;
  /** False where the OS removed CGWindowListCreateImage/CGDisplayCreateImage (macOS 15+ SDK builds). */
  legacyCaptureAvailable = true;
  /** False when the driver runs off the process's main thread (in a Worker). */
  mainThread = true;
  /**
   * Run loop sources ready on the main thread: NSWorkspace notifications not yet handled
   * (a launch posts two, an activation and a termination one each). NSWorkspace's view of
   * the apps is current only once all are handled; CFRunLoopRunInMode handles one per call.
   */
  runLoopSources = 0;
  /** The layout captures come in: the usual BGRA, or a 10-bit or half-float (HDR) display's. */
  captureFormat: "bgra8" | "rgb10" | "rgba16f" = "bgra8";
  /** False where /usr/sbin/screencapture is missing. */
  screencaptureInstalled = true;
  /** False over SSH without a logged-in console session. */
  consoleSession = true;
  productVersion = "14.6.1";
  /** True once the responsible app was asked for Screen Recording (macOS asks each app once). */
  screenCaptureAsked = false;
  /**
   * Parent pids that differ from launchd's (1), by pid. Naming the driver's own pid
   * (Deno.pid) here puts the driver process in the process table, started by that parent.
   */
  parents = new Map<number, number>();
  /** Executable paths of processes that are neither apps nor daemons (a shell, node), by pid. */
  tools = new Map<number, string>();
  /**
   * Times macOS 15+ asked the user to let the driver "bypass the system private window picker"
   * (the monthly prompt a CGWindowListCreateImage/CGDisplayCreateImage call raises there).
   */
  bypassPrompts = 0;
  /** Permission prompts the driver raised ("accessibility", "screen_capture"). */
  readonly promptsShown: string[] = [];
  uid = 501;
  pasteboard: FakePasteboardItem[] = [];
  pasteboardChangeCount = 1;
  /** Every event posted, in order. */
  readonly events: PostedEvent[] = [];
  /** Background clicks AppKit dropped, with what the event lacked. */
  readonly dropped: { event: PostedEvent; reason: string }[] = [];
  /** Every AX action performed: element id and action name. */
  readonly actions: { element: number; action: string }[] = [];
  /** Installed bundles the driver may launch: path → bundle facts. */
  bundles = new Map<string, { bundleId: string; name: string; executable: string }>();
  /** Processes without an app (daemons): pid → name. */
  daemons = new Map<number, string>();
  #mouseDown: { element: FakeElement | null; button: number } | null = null;
  #nextPid = 900;
  #nextWindowId = 9000;

  app(pid: number): FakeApp | undefined {
    return this.apps.find((app) => app.pid === pid && !app.terminated);
  }

  window(id: number): FakeWindow | undefined {
    return this.windows.find((win) => win.id === id);
  }

  /** Every element of an app, depth first. */
  *elements(root: FakeElement): Generator<FakeElement> {
    yield root;
    for (const child of root.children) yield* this.elements(child);
  }

  /** An element by id in any app. */
  find(id: number): FakeElement | undefined {
    for (const app of this.apps) {
      for (const node of this.elements(app.ax)) if (node.id === id) return node;
    }
    return undefined;
  }

  /** The first element with this title/description in an app. */
  named(pid: number, name: string): FakeElement {
    const app = this.app(pid)!;
    for (const node of this.elements(app.ax)) {
      if (node.title === name || node.description === name) return node;
    }
    throw new Error(`fake: no element named ${name} in pid ${pid}`);
  }

  /** Brings an app to the front, its windows first in the window list. */
  activate(pid: number): boolean {
    const app = this.app(pid);
    if (!app || app.activationPolicy === 2) return false;
    if (this.frontmost !== pid) this.runLoopSources++;
    this.frontmost = pid;
    const mine = this.windows.filter((w) => w.pid === pid && w.layer === 0);
    const rest = this.windows.filter((w) => !(w.pid === pid && w.layer === 0));
    const above = rest.filter((w) => w.layer > 0);
    const below = rest.filter((w) => w.layer <= 0);
    this.windows = [...above, ...mine, ...below];
    return true;
  }

  /** Raises one window within its app's windows and makes its app frontmost. */
  raise(windowId: number): void {
    const win = this.window(windowId);
    if (!win) return;
    this.activate(win.pid);
    this.windows = [win, ...this.windows.filter((w) => w !== win)];
    const above = this.windows.filter((w) => w.layer > 0);
    this.windows = [...above, ...this.windows.filter((w) => w.layer <= 0)];
  }

  /**
   * Puts a window in front of its app's other windows without activating the app (what
   * making a window main does): it takes the place of the app's frontmost window. Each
   * change of the list's order is counted in {@linkcode restacks}.
   */
  orderFrontInApp(windowId: number): void {
    const win = this.window(windowId);
    if (!win) return;
    const first = this.windows.findIndex((w) => w.pid === win.pid && w.layer === win.layer);
    const at = this.windows.indexOf(win);
    if (first < 0 || first === at) return;
    this.windows.splice(at, 1);
    this.windows.splice(first, 0, win);
    this.restacks++;
  }

  /** Times a window's place in the window list changed without an activation (orderFrontInApp). */
  restacks = 0;

  /** The topmost on-screen layer-0 window at a point. */
  windowAt(point: Point): FakeWindow | undefined {
    return this.windows.find((w) => w.onScreen && w.layer >= 0 && w.alpha > 0 && contains(w.bounds, point));
  }

  /** The deepest element of a window containing a point. */
  hitTest(root: FakeElement, point: Point): FakeElement | null {
    if (!contains(root.frame, point)) return null;
    for (const child of [...root.children].reverse()) {
      const hit = this.hitTest(child, point);
      if (hit) return hit;
    }
    return root;
  }

  /** Performs an AX action as the app would. Returns false when the element does not support it. */
  perform(node: FakeElement, action: string): boolean {
    if (!node.actions.includes(action)) return false;
    this.actions.push({ element: node.id, action });
    if (action === "AXPress" && (node.role === "AXCheckBox" || node.role === "AXRadioButton")) {
      node.value = node.role === "AXRadioButton" ? 1 : (node.value === 1 ? 0 : 1);
    }
    if (action === "AXIncrement" && typeof node.value === "number") {
      node.value = Math.min(node.maxValue ?? Infinity, node.value + 10);
    }
    if (action === "AXDecrement" && typeof node.value === "number") {
      node.value = Math.max(node.minValue ?? -Infinity, node.value - 10);
    }
    if (action === "AXRaise") {
      const win = this.windows.find((w) => w.ax === node);
      if (win) this.raise(win.id);
    }
    node.onAction?.(this, node, action);
    return true;
  }

  /** Moves keyboard focus inside an app. */
  focus(node: FakeElement): void {
    const app = this.app(node.pid)!;
    if (app.focused) app.focused.focused = false;
    app.focused = node;
    node.focused = true;
  }

  /** Inserts text at the selection of a text element, replacing the selection. */
  insertText(node: FakeElement, text: string): void {
    const current = typeof node.value === "string" ? node.value : "";
    const range = node.selectedRange ?? { location: current.length, length: 0 };
    node.value = current.slice(0, range.location) + text + current.slice(range.location + range.length);
    node.selectedRange = { location: range.location + text.length, length: 0 };
  }

  /** Records a posted event and lets the target app react to it. */
  deliver(event: PostedEvent): void {
    this.events.push(event);
    const global = event.route !== "pid";
    if (global && [1, 2, 3, 4, 5, 6, 7, 25, 26, 27].includes(event.type)) this.cursor = event.location;
    const pid = global ? (this.frontmost ?? -1) : event.pid!;
    if (!global && [1, 2, 3, 4, 25, 26].includes(event.type)) {
      const reason = this.#backgroundMouseProblem(event);
      if (reason) {
        this.dropped.push({ event, reason });
        if ([1, 3, 25].includes(event.type)) this.#mouseDown = null;
        return;
      }
    }
    if (event.type === 10) this.#key(pid, event);
    else if ([1, 3, 25].includes(event.type)) this.#down(event, global);
    else if ([2, 4, 26].includes(event.type)) this.#up(event, global);
    else if (event.type === 22) this.#scroll(event, global);
  }

  /**
   * Why AppKit would ignore a mouse button event posted to a process in the background,
   * or null when it takes it: the event must come from the HID system state, name the
   * target pid (field 40) and the window (fields 51, 91, 92), carry the window-local
   * point (CGEventSetWindowLocation), and follow a mouseMoved to the same point by
   * APPKIT_GAPS.moveToDown ms (a down) or the down by APPKIT_GAPS.downToUp ms (an up).
   */
  #backgroundMouseProblem(event: PostedEvent): string | null {
    if (event.sourceState !== 1) return "its source is not the HID system state";
    if (event.fields[40] !== BigInt(event.pid ?? -1)) return "field 40 (target pid) is not the target's pid";
    const named = event.fields[91];
    const win = named !== undefined ? this.window(Number(named)) : undefined;
    if (!win || win.pid !== event.pid) return "field 91 names no window of the target";
    if (event.fields[51] !== named || event.fields[92] !== named) {
      return "fields 51 and 92 do not name the window";
    }
    const local = event.windowLocation;
    if (
      !local || Math.abs(local.x - (event.location.x - win.bounds.x)) > 1 ||
      Math.abs(local.y - (event.location.y - win.bounds.y)) > 1
    ) return "it has no window-local point (CGEventSetWindowLocation)";
    const before = this.events.slice(0, -1).filter((e) => e.route === "pid" && e.pid === event.pid);
    if ([1, 3, 25].includes(event.type)) {
      const moved = before.findLast((e) => [5, 6, 7, 27].includes(e.type));
      if (
        !moved || moved.type !== 5 || moved.location.x !== event.location.x ||
        moved.location.y !== event.location.y
      ) {
        return "no mouseMoved to the same point came before the down";
      }
      if (event.time - moved.time < APPKIT_GAPS.moveToDown) {
        return "the down followed the mouseMoved too soon";
      }
    } else {
      const pressed = before.findLast((e) => [1, 3, 25].includes(e.type));
      if (pressed && event.time - pressed.time < APPKIT_GAPS.downToUp) {
        return "the up followed the down too soon";
      }
    }
    return null;
  }

  #targetWindow(event: PostedEvent, global: boolean): FakeWindow | undefined {
    if (global) return this.windowAt(event.location);
    const named = event.fields[91];
    const win = named !== undefined ? this.window(Number(named)) : undefined;
    if (win && win.pid === event.pid) return win;
    return this.windows.find((w) => w.pid === event.pid && w.onScreen && contains(w.bounds, event.location));
  }

  #down(event: PostedEvent, global: boolean): void {
    const win = this.#targetWindow(event, global);
    const hit = win?.ax ? this.hitTest(win.ax, event.location) : null;
    if (global && win) this.activate(win.pid);
    this.#mouseDown = { element: hit, button: event.button };
    if (hit && hit.valueSettable && typeof hit.value === "string") this.focus(hit);
  }

  #up(event: PostedEvent, global: boolean): void {
    const win = this.#targetWindow(event, global);
    const hit = win?.ax ? this.hitTest(win.ax, event.location) : null;
    const down = this.#mouseDown;
    this.#mouseDown = null;
    if (!down || down.button !== 0 || !hit || hit !== down.element || !hit.enabled) return;
    const clicks = Number(event.fields[1] ?? 1n);
    if (clicks % 2 === 1 && hit.actions.includes("AXPress")) this.perform(hit, "AXPress");
  }

  #scroll(event: PostedEvent, global: boolean): void {
    const win = this.#targetWindow(event, global);
    let node = win?.ax ? this.hitTest(win.ax, event.location) : null;
    while (node && node.role !== "AXScrollArea") node = node.parent;
    const bar = node?.children.find((c) =>
      c.role === "AXScrollBar" && c.extra.AXOrientation === "AXVerticalOrientation"
    );
    if (bar && typeof bar.value === "number" && event.scroll) {
      // Wheel deltas are positive upward on macOS; the bar's value grows downward, 0..1.
      bar.value = Math.max(0, Math.min(1, bar.value - event.scroll.dy * 0.05));
    }
  }

  #key(pid: number, event: PostedEvent): void {
    const app = this.app(pid);
    const target = app?.focused;
    if (!target || !target.valueSettable || typeof target.value !== "string") return;
    if (event.flags & 0x100000n) {
      if (event.keyCode === 0) target.selectedRange = { location: 0, length: target.value.length };
      return;
    }
    if (event.text) this.insertText(target, event.text);
    else if (event.keyCode === 51) {
      const range = target.selectedRange ?? { location: target.value.length, length: 0 };
      const start = range.length ? range.location : Math.max(0, range.location - 1);
      target.value = target.value.slice(0, start) + target.value.slice(range.location + range.length);
      target.selectedRange = { location: start, length: 0 };
    } else if (event.keyCode === 36) this.insertText(target, "\n");
  }

  /** Starts an app from an installed bundle, with one window, in the background. */
  launch(bundlePath: string, activate: boolean): FakeApp | null {
    const bundle = this.bundles.get(bundlePath);
    if (!bundle) return null;
    const pid = this.#nextPid++;
    const ax = element(pid, "AXApplication", { title: bundle.name });
    const app: FakeApp = {
      pid,
      name: bundle.name,
      bundleId: bundle.bundleId,
      bundlePath,
      executablePath: `${bundlePath}/Contents/MacOS/${bundle.executable}`,
      activationPolicy: 0,
      launchDate: 1_764_600_000 + pid,
      terminated: false,
      ax,
      hung: false,
      focused: null,
      status: "running",
    };
    const id = this.#nextWindowId++;
    const frame = { x: 300, y: 200, width: 640, height: 480 };
    const win = element(pid, "AXWindow", {
      title: bundle.name,
      subrole: "AXStandardWindow",
      frame,
      windowId: id,
      actions: ["AXRaise"],
      extra: { AXMain: true, AXMinimized: false },
    });
    adopt(ax, [win]);
    this.apps.push(app);
    this.runLoopSources += 2; // NSWorkspaceWillLaunchApplication, NSWorkspaceDidLaunchApplication
    this.windows.push({
      id,
      pid,
      ownerName: bundle.name,
      title: bundle.name,
      layer: 0,
      bounds: { ...frame },
      onScreen: true,
      alpha: 1,
      color: [200, 200, 200],
      ax: win,
    });
    if (activate) this.activate(pid);
    return app;
  }

  /** Kills a process: its app terminates and its windows disappear. */
  kill(pid: number): boolean {
    const app = this.app(pid);
    if (!app) return this.daemons.delete(pid);
    app.terminated = true;
    app.status = "zombie";
    this.runLoopSources++; // NSWorkspaceDidTerminateApplication
    for (const node of this.elements(app.ax)) node.alive = false;
    this.windows = this.windows.filter((w) => w.pid !== pid);
    if (this.frontmost === pid) this.frontmost = null;
    return true;
  }
}
