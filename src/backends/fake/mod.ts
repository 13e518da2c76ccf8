/**
 * An in-memory back end for unit tests: scripted windows, trees, pixels and
 * processes; every call is recorded.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { AppStateSample, AxNode, AxRole, AxTree } from "../../ports/accessibility.ts";
import type { AppInfo, LaunchRequest, LaunchResult, ProcessInfo } from "../../ports/apps.ts";
import type { Backend } from "../../ports/backend.ts";
import type { ClipboardContent } from "../../ports/clipboard.ts";
import type { Point, Rect } from "../../ports/geometry.ts";
import type { HealthCheck, PermissionCheck } from "../../ports/health.ts";
import type {
  DesktopObservation,
  InputChannel,
  OwnedPointer,
  RawKeyboard,
  RawPointer,
  Toolkit,
} from "../../ports/input.ts";
import type { DisplayInfo, RawImage } from "../../ports/screen.ts";
import type { WindowInfo } from "../../ports/windows.ts";
import { FakeAgentCursor } from "./agent_cursor.ts";
import { FakeSystem } from "./system.ts";

export { FakeSystem } from "./system.ts";

/** Builds an AxNode with defaults; the platform role defaults to the neutral one with spaces. */
export function fakeNode(partial: Partial<AxNode> & { role: AxRole }): AxNode {
  return {
    platformRole: partial.role.replaceAll("_", " "),
    name: "",
    description: "",
    value: null,
    depth: 0,
    parent: -1,
    enabled: true,
    focused: false,
    selected: null,
    showing: true,
    editable: false,
    focusable: false,
    actions: [],
    interfaces: ["component"],
    frame: null,
    ref: null,
    ...partial,
  };
}

/** A scripted element: AxNode.ref of fake trees. Operations mutate it. */
export interface FakeElement {
  actions: string[];
  toggleable: boolean;
  checked: boolean;
  focused: boolean;
  text: string | null;
  value: number;
  /** False for elements without a numeric value (value() then reads NaN, as AT-SPI does). */
  hasValue: boolean;
  frame: Rect | null;
  activations: number;
}

/** Builds a scripted element. */
export function fakeElement(partial: Partial<FakeElement> = {}): FakeElement {
  return {
    actions: ["click"],
    toggleable: false,
    checked: false,
    focused: false,
    text: null,
    value: 0,
    hasValue: true,
    frame: null,
    activations: 0,
    ...partial,
  };
}

function element(ref: unknown): FakeElement {
  if (typeof ref !== "object" || ref === null || !("activations" in ref)) {
    throw new DriverError("stale_element_token", "The fake element is gone");
  }
  return ref as FakeElement;
}

/** A solid-colour RGBA image. */
export function solidImage(width: number, height: number, rgba = [40, 80, 120, 255]): RawImage {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set(rgba, i);
  return { width, height, data };
}

/** The scripted, recording back end. */
export class FakeBackend implements Backend {
  readonly os = "fake" as const;
  readonly description = "fake desktop";
  readonly calls: string[] = [];
  windowsList: WindowInfo[] = [];
  trees = new Map<number, AxTree>();
  alive = new Set<number>();
  processes: ProcessInfo[] = [];
  apps: FakeBackend["appsFacility"];
  display: DisplayInfo = {
    id: "0",
    name: "fake",
    primary: true,
    bounds: { x: 0, y: 0, width: 1920, height: 1080 },
    nativeWidth: 1920,
    nativeHeight: 1080,
    scaleFactor: 1,
    refreshRateHz: 0,
  };
  cursor = { x: 10, y: 20 };
  clipboardContent: ClipboardContent = { types: [], text: null, imagePng: null };
  captureFails = false;
  /** Per-window shade of the scripted pixels: change it to make a window look different. */
  pixelShade = new Map<number, number>();
  /** Scripted app-level state the accessibility sample reports (bump it to script a change). */
  appState = 0;
  /** True to script an app whose state changes on every accessibility action. */
  actionsChangeApp = false;
  /** False to make the accessibility sample unreadable (an app without accessibility). */
  sampleReadable = true;
  nextPid = 5000;

  constructor() {
    this.apps = this.appsFacility;
  }

  readonly system = new FakeSystem();

  readonly screen = {
    displays: () => this.#record("screen.displays", [this.display]),
    recordingSource: (options: { frameRate: number; drawCursor: boolean }) =>
      this.#record("screen.recordingSource", {
        ffmpegInput: ["-f", "lavfi", "-framerate", String(options.frameRate), "-i", "testsrc"],
        width: this.display.bounds.width,
        height: this.display.bounds.height,
      }),
    cursorPosition: () => this.#record("screen.cursorPosition", { ...this.cursor, source: "fake" }),
    captureDisplay: (_id: string) =>
      this.#record(
        "screen.captureDisplay",
        solidImage(this.display.bounds.width, this.display.bounds.height),
      ),
    captureWindow: (windowId: number) => {
      this.calls.push(`screen.captureWindow ${windowId}`);
      const window = this.windowsList.find((w) => w.windowId === windowId);
      if (!window) {
        return Promise.reject(
          new DriverError("window_target_not_found", `Window ${windowId} does not exist`),
        );
      }
      if (this.captureFails) {
        return Promise.reject(new DriverError("capture_failed", "Scripted capture failure"));
      }
      const shade = this.pixelShade.get(windowId) ?? 0;
      return Promise.resolve({
        image: solidImage(window.bounds.width, window.bounds.height, [40, 80, 120 + (shade % 100), 255]),
        bounds: { ...window.bounds },
      });
    },
  };

  readonly windows = {
    list: () => this.#record("windows.list", [...this.windowsList]),
    get: (windowId: number) =>
      this.#record("windows.get", this.windowsList.find((w) => w.windowId === windowId) ?? null),
    active: () => this.#record("windows.active", this.windowsList.at(-1)?.windowId ?? null),
    activate: (windowId: number) => {
      const prior = this.windowsList.at(-1)?.windowId ?? null;
      const index = this.windowsList.findIndex((w) => w.windowId === windowId);
      if (index >= 0) this.windowsList.push(...this.windowsList.splice(index, 1));
      return this.#record(`windows.activate ${windowId}`, { priorActive: prior });
    },
    setFrame: (windowId: number, frame: Rect) => {
      const window = this.windowsList.find((w) => w.windowId === windowId);
      if (window) window.bounds = { ...frame };
      return this.#record(`windows.setFrame ${windowId}`, undefined);
    },
  };

  get appsFacility() {
    return {
      listApps: () => this.#record<AppInfo[]>("apps.listApps", []),
      listProcesses: () => this.#record("apps.listProcesses", [...this.processes]),
      launch: (request: LaunchRequest) => {
        const pid = this.nextPid++;
        this.alive.add(pid);
        return this.#record<LaunchResult>("apps.launch", {
          pid,
          name: request.name ?? request.launchPath ?? "app",
          startTime: "1",
          command: request.launchPath ?? "",
        });
      },
      kill: (pid: number) => {
        this.alive.delete(pid);
        return this.#record(`apps.kill ${pid}`, undefined);
      },
      isAlive: (pid: number) => this.#record("apps.isAlive", this.alive.has(pid)),
      startTime: (pid: number) => this.#record("apps.startTime", this.alive.has(pid) ? "1" : null),
    };
  }

  readonly accessibility = {
    tree: (_pid: number, windowId: number) =>
      this.#record(
        "accessibility.tree",
        this.trees.get(windowId) ?? { nodes: [], truncated: false, error: null },
      ),
    actionNames: (ref: unknown) => this.#record("ax.actionNames", [...element(ref).actions]),
    doAction: (ref: unknown, name: string) => {
      const e = element(ref);
      if (!e.actions.includes(name)) {
        return Promise.reject(new DriverError("invalid_arguments", `No action "${name}"`));
      }
      if (e.toggleable) e.checked = !e.checked;
      e.activations++;
      if (this.actionsChangeApp) this.appState++;
      return this.#record(`ax.doAction ${name}`, true);
    },
    state: (ref: unknown) => {
      const e = element(ref);
      return this.#record("ax.state", {
        enabled: true,
        focused: e.focused,
        focusable: true,
        showing: true,
        visible: true,
        editable: e.text !== null,
        checked: e.checked,
        checkable: e.toggleable,
        selected: false,
        toggleable: e.toggleable,
        names: [],
      });
    },
    frame: (ref: unknown) => this.#record("ax.frame", element(ref).frame),
    text: (ref: unknown) => this.#record("ax.text", element(ref).text ?? ""),
    caretOffset: (ref: unknown) => this.#record("ax.caretOffset", (element(ref).text ?? "").length),
    insertText: (ref: unknown, offset: number, text: string) => {
      const e = element(ref);
      const current = e.text ?? "";
      e.text = current.slice(0, offset) + text + current.slice(offset);
      return this.#record("ax.insertText", true);
    },
    setText: (ref: unknown, text: string) => {
      element(ref).text = text;
      return this.#record("ax.setText", true);
    },
    value: (ref: unknown) => {
      const e = element(ref);
      return this.#record(
        "ax.value",
        e.hasValue
          ? { current: e.value, min: 0, max: 100, step: 1 }
          : { current: NaN, min: NaN, max: NaN, step: 0 },
      );
    },
    setValue: (ref: unknown, value: number) => {
      element(ref).value = value;
      return this.#record("ax.setValue", undefined);
    },
    grabFocus: (ref: unknown) => {
      element(ref).focused = true;
      return this.#record("ax.grabFocus", true);
    },
    sample: (pid: number, refs: readonly unknown[]) =>
      this.#record(`ax.sample ${pid}`, this.sampleReadable ? this.#sample(refs) : null),
  };

  /** The scripted elements of every tree plus `refs`, each as its observable state. */
  #sample(refs: readonly unknown[]): AppStateSample {
    const objects = new Map<string, string>([["app", String(this.appState)]]);
    const names = new Map<string, string>();
    let focus: string | null = null;
    const seen = new Set<unknown>();
    let n = 0;
    for (const tree of this.trees.values()) {
      for (const node of tree.nodes) {
        if (typeof node.ref !== "object" || node.ref === null || !("activations" in node.ref)) continue;
        if (seen.has(node.ref)) continue;
        seen.add(node.ref);
        const e = node.ref as FakeElement;
        const key = `e${n++}`;
        objects.set(key, JSON.stringify([e.checked, e.text, e.value]));
        names.set(key, `${node.role} ${JSON.stringify(node.name)}`);
        if (e.focused) focus = key;
      }
    }
    const details = new Map<string, string>();
    refs.forEach((ref, i) => {
      if (typeof ref !== "object" || ref === null || !("activations" in ref)) return;
      const e = ref as FakeElement;
      details.set(`r${i}#states`, JSON.stringify([e.checked, e.focused]));
      if (e.text !== null) details.set(`r${i}#text`, e.text);
      if (e.hasValue) details.set(`r${i}#value`, String(e.value));
    });
    return { objects, focus, details, describe: (key) => names.get(key.split("#")[0]) ?? "an element" };
  }

  readonly clipboard = {
    read: () => this.#record("clipboard.read", { ...this.clipboardContent }),
    writeText: (text: string) => {
      this.clipboardContent = { types: ["UTF8_STRING"], text, imagePng: null };
      return this.#record("clipboard.writeText", ["UTF8_STRING"]);
    },
    writeImage: (png: Uint8Array) => {
      this.clipboardContent = { types: ["image/png"], text: null, imagePng: png };
      return this.#record("clipboard.writeImage", ["image/png"]);
    },
    writeFiles: (paths: string[]) => {
      this.clipboardContent = { types: ["text/uri-list"], text: paths.join("\n"), imagePng: null };
      return this.#record("clipboard.writeFiles", ["text/uri-list"]);
    },
  };

  /** The recording agent-cursor surface. */
  readonly agentCursor = new FakeAgentCursor();

  /** Toolkit reported for every pid. */
  toolkitName: Toolkit = "gtk3";
  /** Whether targets are uncovered at every point (or per point). */
  onTop: boolean | ((point: Point) => boolean) = true;
  /**
   * Scripts an app that shows a reaction to every button press, wheel turn and key:
   * the window's pixels change, as a real app's would.
   */
  appReacts(windowId: number): void {
    this.onPointer = (_pointer, what) => {
      if (/^(down|wheel)/.test(what)) this.pixelShade.set(windowId, (this.pixelShade.get(windowId) ?? 0) + 1);
    };
    this.onKey = () => this.pixelShade.set(windowId, (this.pixelShade.get(windowId) ?? 0) + 1);
  }
  /** Called after every scripted key press or typed text, to script an app's reaction. */
  onKey: (() => void) | null = null;
  /** Called after every scripted pointer event, to script an app's reaction. */
  onPointer: ((pointer: string, what: string) => void) | null = null;
  /** Positions of the scripted pointers, by name (the global one is `cursor`). */
  readonly pointerPositions = new Map<string, Point>();
  #extraPointers = 0;

  readonly input = {
    backgroundAvailable: () => this.#record("input.backgroundAvailable", true),
    pointer: (channel: InputChannel) => this.#record(`input.pointer ${channel}`, this.#pointer(channel)),
    keyboard: (channel: InputChannel) => this.#record(`input.keyboard ${channel}`, this.#keyboard(channel)),
    withBackgroundKeyboard: async <T>(windowId: number, body: () => Promise<T>) => {
      this.calls.push(`input.withBackgroundKeyboard ${windowId}`);
      return await body();
    },
    withForeground: async <T>(windowId: number, body: () => Promise<T>) => {
      this.calls.push(`input.withForeground ${windowId}`);
      return await body();
    },
    extraPointer: () => {
      const name = `extra${++this.#extraPointers}`;
      let closed = false;
      const pointer: OwnedPointer = {
        ...this.#pointer(name),
        close: () => {
          if (!closed) this.calls.push(`pointer.${name}.close`);
          closed = true;
          return Promise.resolve();
        },
      };
      return this.#record("input.extraPointer", pointer);
    },
    windowOnTopAt: (_windowId: number, point: Point) =>
      this.#record(
        `input.windowOnTopAt ${point.x},${point.y}`,
        typeof this.onTop === "function" ? this.onTop(point) : this.onTop,
      ),
    toolkit: (_pid: number) => this.#record("input.toolkit", this.toolkitName),
    releaseAll: () => this.#record("input.releaseAll", undefined),
    appSettled: (windowId: number) => this.#record(`input.appSettled ${windowId}`, undefined),
    observe: () =>
      this.#record<DesktopObservation>("input.observe", {
        activeWindow: this.windowsList.at(-1)?.windowId ?? null,
        focusWindow: this.windowsList.at(-1)?.windowId ?? null,
        pointer: { ...this.cursor },
        stacking: this.windowsList.map((w) => w.windowId),
      }),
  };

  #pointer(channel: InputChannel | string): RawPointer {
    const log = (what: string) => {
      this.calls.push(`pointer.${channel}.${what}`);
      this.onPointer?.(channel, what);
      return Promise.resolve();
    };
    return {
      move: (p) => {
        if (channel === "global") this.cursor = { x: p.x, y: p.y };
        else this.pointerPositions.set(channel, { x: p.x, y: p.y });
        return log(`move ${p.x},${p.y}`);
      },
      button: (b, down) => log(`${down ? "down" : "up"} ${b}`),
      wheel: (dx, dy) => log(`wheel ${dx},${dy}`),
      releaseAll: () => log("releaseAll"),
      sync: () => Promise.resolve(),
      position: () =>
        Promise.resolve(
          channel === "global" ? { ...this.cursor } : this.pointerPositions.get(channel) ?? null,
        ),
    };
  }

  #keyboard(channel: InputChannel): RawKeyboard {
    const log = (what: string) => {
      this.calls.push(`keyboard.${channel}.${what}`);
      if (!what.startsWith("releaseAll")) this.onKey?.();
      return Promise.resolve();
    };
    return {
      press: (key, modifiers) => log(`press ${[...modifiers, key].join("+")}`),
      down: (key) => log(`down ${key}`),
      up: (key) => log(`up ${key}`),
      typeText: async (text) => {
        await log(`type ${text}`);
        return [...text].length;
      },
      releaseAll: () => log("releaseAll"),
    };
  }

  /** What permissions() reports. */
  permissionChecks: PermissionCheck[] = [];
  /** What health() reports, by check name (only the names asked for are returned). */
  healthChecks: HealthCheck[] = [];

  permissions() {
    return this.#record("permissions", this.permissionChecks.map((c) => ({ ...c })));
  }

  health(names: readonly string[]) {
    return this.#record(
      `health ${names.join(",")}`,
      this.healthChecks.filter((c) => names.includes(c.name)).map((c) => ({ ...c })),
    );
  }

  close() {
    return this.#record("close", undefined);
  }

  /** Adds a window owned by a live pid. */
  addWindow(partial: Partial<WindowInfo> & { windowId: number; pid: number }): WindowInfo {
    const window: WindowInfo = {
      appName: "FakeApp",
      title: `Window ${partial.windowId}`,
      bounds: { x: 100, y: 100, width: 400, height: 300 },
      isOnScreen: true,
      zIndex: this.windowsList.length,
      ...partial,
    };
    this.windowsList.push(window);
    this.alive.add(partial.pid);
    return window;
  }

  #record<T>(call: string, value: T): Promise<T> {
    this.calls.push(call);
    return Promise.resolve(value);
  }
}
