/**
 * An in-memory back end for unit tests: scripted windows, trees, pixels and
 * processes; every call is recorded.
 *
 * @module
 */
import { DriverError } from "../../core/errors.ts";
import type {
  AppInfo,
  AxNode,
  AxTree,
  Backend,
  ClipboardContent,
  DisplayInfo,
  LaunchRequest,
  LaunchResult,
  ProcessInfo,
  RawImage,
  Rect,
  WindowInfo,
} from "../types.ts";

/** Builds an AxNode with defaults. */
export function fakeNode(partial: Partial<AxNode> & { role: string }): AxNode {
  return {
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
  nextPid = 5000;

  constructor() {
    this.apps = this.appsFacility;
  }

  readonly screen = {
    displays: () => this.#record("screen.displays", [this.display]),
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
      return Promise.resolve({
        image: solidImage(window.bounds.width, window.bounds.height),
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
  };

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

  permissions() {
    return this.#record("permissions", []);
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
