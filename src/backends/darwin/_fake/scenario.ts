/**
 * A Mac as a user has it: a Retina laptop with an external display, Finder, the
 * Dock, TextEdit (frontmost, a document window and a minimized one), a small
 * Cocoa "Controls" app, and Chrome; the window list, AX trees and attribute shapes
 * follow what macOS 14 reports for these apps.
 *
 * @module
 */
import { adopt, element, type FakeApp, type FakeElement, FakeMac, type FakeWindow } from "./world.ts";

/** Pids and window ids of the scenario, for tests. */
export const MAC = {
  finder: 301,
  dock: 302,
  textEdit: 512,
  controls: 640,
  chrome: 733,
  windowServer: 160,
  textEditWindow: 4012,
  textEditMinimized: 4013,
  controlsWindow: 4100,
  chromeWindow: 5120,
  dockWindow: 90,
  menuBarWindow: 23,
  desktopWindow: 70,
} as const;

function app(
  world: FakeMac,
  fields: Omit<FakeApp, "ax" | "terminated" | "hung" | "focused" | "status">,
): FakeApp {
  const created: FakeApp = {
    ...fields,
    ax: element(fields.pid, "AXApplication", { title: fields.name }),
    terminated: false,
    hung: false,
    focused: null,
    status: "running",
  };
  world.apps.push(created);
  return created;
}

function addWindow(
  world: FakeMac,
  fields: Omit<FakeWindow, "alpha" | "ax"> & { ax?: FakeElement | null },
): FakeWindow {
  const created: FakeWindow = { alpha: 1, ax: null, ...fields };
  world.windows.push(created);
  return created;
}

function windowButtons(pid: number, frame: { x: number; y: number }): FakeElement[] {
  const button = (subrole: string, dx: number) =>
    element(pid, "AXButton", {
      subrole,
      frame: { x: frame.x + dx, y: frame.y + 6, width: 14, height: 16 },
      actions: ["AXPress"],
    });
  return [button("AXCloseButton", 8), button("AXFullScreenButton", 48), button("AXMinimizeButton", 28)];
}

function textEdit(world: FakeMac): void {
  const pid = MAC.textEdit;
  const te = app(world, {
    pid,
    name: "TextEdit",
    bundleId: "com.apple.TextEdit",
    bundlePath: "/System/Applications/TextEdit.app",
    executablePath: "/System/Applications/TextEdit.app/Contents/MacOS/TextEdit",
    activationPolicy: 0,
    launchDate: 1_764_597_600,
  });
  const frame = { x: 200, y: 120, width: 800, height: 600 };
  const text = element(pid, "AXTextArea", {
    value: "Hello from TextEdit",
    valueSettable: true,
    frame: { x: 200, y: 200, width: 785, height: 520 },
    selectedRange: { location: 19, length: 0 },
    actions: ["AXShowMenu"],
    identifier: "First Text View",
  });
  const scrollBar = element(pid, "AXScrollBar", {
    value: 0,
    valueSettable: true,
    frame: { x: 985, y: 200, width: 15, height: 520 },
    actions: ["AXIncrement", "AXDecrement"],
    extra: { AXOrientation: "AXVerticalOrientation" },
  });
  const scroll = element(pid, "AXScrollArea", { frame: { x: 200, y: 200, width: 800, height: 520 } }, [
    text,
    scrollBar,
  ]);
  const bold = element(pid, "AXCheckBox", {
    title: "Bold",
    value: 0,
    frame: { x: 420, y: 160, width: 24, height: 22 },
    actions: ["AXPress"],
  });
  const font = element(pid, "AXPopUpButton", {
    value: "Helvetica",
    description: "Font family",
    frame: { x: 210, y: 160, width: 180, height: 22 },
    actions: ["AXPress", "AXShowMenu"],
  });
  const toolbar = element(pid, "AXGroup", { frame: { x: 200, y: 150, width: 800, height: 44 } }, [
    font,
    bold,
  ]);
  const document = element(
    pid,
    "AXWindow",
    {
      title: "Untitled.rtf",
      subrole: "AXStandardWindow",
      frame,
      windowId: MAC.textEditWindow,
      actions: ["AXRaise"],
      extra: {
        AXMain: true,
        AXMinimized: false,
        AXModal: false,
        AXDocument: "file:///Users/ada/Untitled.rtf",
      },
    },
    [
      ...windowButtons(pid, frame),
      toolbar,
      scroll,
      element(pid, "AXStaticText", {
        value: "Untitled.rtf",
        frame: { x: 560, y: 124, width: 80, height: 16 },
      }),
    ],
  );
  const notes = element(pid, "AXWindow", {
    title: "Notes.txt",
    subrole: "AXStandardWindow",
    frame: { x: 260, y: 180, width: 500, height: 400 },
    windowId: MAC.textEditMinimized,
    actions: ["AXRaise"],
    extra: { AXMain: false, AXMinimized: true },
  });
  const save = element(pid, "AXMenuItem", {
    title: "Save…",
    actions: ["AXPress", "AXCancel"],
    extra: { AXMenuItemCmdChar: "S", AXMenuItemCmdModifiers: 0 },
  });
  const fileMenu = element(pid, "AXMenu", {}, [
    element(pid, "AXMenuItem", {
      title: "New",
      actions: ["AXPress", "AXCancel"],
      extra: { AXMenuItemCmdChar: "N" },
    }),
    element(pid, "AXMenuItem", { title: "", enabled: false, extra: {} }),
    save,
  ]);
  const menuBar = element(pid, "AXMenuBar", { frame: { x: 0, y: 0, width: 1512, height: 24 } }, [
    element(pid, "AXMenuBarItem", { title: "Apple", actions: ["AXPress", "AXCancel"] }),
    element(pid, "AXMenuBarItem", { title: "TextEdit", actions: ["AXPress", "AXCancel"] }),
    element(pid, "AXMenuBarItem", { title: "File", actions: ["AXPress", "AXCancel"] }, [fileMenu]),
  ]);
  adopt(te.ax, [document, notes, menuBar]);
  world.focus(text);
  addWindow(world, {
    id: MAC.textEditWindow,
    pid,
    ownerName: "TextEdit",
    title: "Untitled.rtf",
    layer: 0,
    bounds: { ...frame },
    onScreen: true,
    color: [10, 120, 230],
    ax: document,
  });
}

function controls(world: FakeMac): void {
  const pid = MAC.controls;
  const ctl = app(world, {
    pid,
    name: "Controls",
    bundleId: "com.example.Controls",
    bundlePath: "/Applications/Controls.app",
    executablePath: "/Applications/Controls.app/Contents/MacOS/Controls",
    activationPolicy: 0,
    launchDate: 1_764_598_200,
  });
  const frame = { x: 1100, y: 300, width: 360, height: 420 };
  const status = element(pid, "AXStaticText", {
    value: "Ready",
    frame: { x: 1120, y: 660, width: 200, height: 18 },
  });
  const ok = element(pid, "AXButton", {
    title: "OK",
    frame: { x: 1360, y: 680, width: 80, height: 28 },
    actions: ["AXPress"],
    onAction: () => status.value = "OK pressed",
  });
  const row = (name: string, y: number) =>
    element(pid, "AXRow", { frame: { x: 1120, y, width: 320, height: 20 }, selected: name === "Alpha" }, [
      element(pid, "AXCell", { frame: { x: 1120, y, width: 320, height: 20 } }, [
        element(pid, "AXStaticText", { value: name, frame: { x: 1124, y, width: 100, height: 20 } }),
      ]),
    ]);
  const content = [
    element(pid, "AXCheckBox", {
      title: "Enable notifications",
      value: 1,
      frame: { x: 1120, y: 340, width: 200, height: 20 },
      actions: ["AXPress"],
    }),
    element(pid, "AXSlider", {
      description: "Volume",
      value: 50,
      minValue: 0,
      maxValue: 100,
      valueSettable: true,
      frame: { x: 1120, y: 380, width: 200, height: 20 },
      actions: ["AXIncrement", "AXDecrement"],
    }),
    element(pid, "AXTextField", {
      description: "Name",
      value: "Ada",
      valueSettable: true,
      placeholder: "Your name",
      frame: { x: 1120, y: 420, width: 200, height: 22 },
      selectedRange: { location: 3, length: 0 },
    }),
    element(pid, "AXTextField", {
      subrole: "AXSecureTextField",
      description: "Password",
      value: "••••",
      valueSettable: true,
      frame: { x: 1120, y: 450, width: 200, height: 22 },
    }),
    element(pid, "AXPopUpButton", {
      title: "Size",
      value: "Medium",
      frame: { x: 1120, y: 480, width: 120, height: 22 },
      actions: ["AXPress", "AXShowMenu"],
    }),
    element(pid, "AXTabGroup", { frame: { x: 1110, y: 510, width: 340, height: 30 } }, [
      element(pid, "AXRadioButton", {
        title: "General",
        value: 1,
        subrole: "AXTabButton",
        frame: { x: 1120, y: 512, width: 80, height: 24 },
        actions: ["AXPress"],
      }),
      element(pid, "AXRadioButton", {
        title: "Advanced",
        value: 0,
        subrole: "AXTabButton",
        frame: { x: 1200, y: 512, width: 80, height: 24 },
        actions: ["AXPress"],
      }),
    ]),
    element(pid, "AXScrollArea", { frame: { x: 1120, y: 550, width: 320, height: 100 } }, [
      element(pid, "AXTable", { frame: { x: 1120, y: 550, width: 320, height: 100 } }, [
        row("Alpha", 552),
        row("Beta", 572),
      ]),
    ]),
    element(pid, "AXLink", {
      title: "Help",
      frame: { x: 1120, y: 690, width: 40, height: 16 },
      actions: ["AXPress"],
    }),
    element(pid, "AXImage", { description: "Logo", frame: { x: 1400, y: 330, width: 40, height: 40 } }),
    element(pid, "AXProgressIndicator", {
      value: 0.4,
      minValue: 0,
      maxValue: 1,
      frame: { x: 1120, y: 650, width: 200, height: 6 },
    }),
    status,
    ok,
  ];
  const win = element(
    pid,
    "AXWindow",
    {
      title: "Controls",
      subrole: "AXStandardWindow",
      frame,
      windowId: MAC.controlsWindow,
      actions: ["AXRaise"],
      extra: { AXMain: true, AXMinimized: false },
    },
    [...windowButtons(pid, frame), ...content],
  );
  adopt(ctl.ax, [win]);
  addWindow(world, {
    id: MAC.controlsWindow,
    pid,
    ownerName: "Controls",
    title: "Controls",
    layer: 0,
    bounds: { ...frame },
    onScreen: true,
    color: [240, 180, 20],
    ax: win,
  });
}

/** The default fake Mac. */
export function macDesktop(): FakeMac {
  const world = new FakeMac();
  world.displays = [
    {
      id: 1,
      bounds: { x: 0, y: 0, width: 1512, height: 982 },
      pixelWidth: 3024,
      pixelHeight: 1964,
      refreshHz: 120,
      builtin: true,
    },
    {
      id: 2,
      bounds: { x: 1512, y: -98, width: 1920, height: 1080 },
      pixelWidth: 1920,
      pixelHeight: 1080,
      refreshHz: 60,
      builtin: false,
    },
  ];
  world.daemons.set(1, "launchd");
  world.daemons.set(MAC.windowServer, "WindowServer");
  app(world, {
    pid: MAC.finder,
    name: "Finder",
    bundleId: "com.apple.finder",
    bundlePath: "/System/Library/CoreServices/Finder.app",
    executablePath: "/System/Library/CoreServices/Finder.app/Contents/MacOS/Finder",
    activationPolicy: 0,
    launchDate: 1_764_590_100,
  });
  app(world, {
    pid: MAC.dock,
    name: "Dock",
    bundleId: "com.apple.dock",
    bundlePath: "/System/Library/CoreServices/Dock.app",
    executablePath: "/System/Library/CoreServices/Dock.app/Contents/MacOS/Dock",
    activationPolicy: 2,
    launchDate: 1_764_590_100,
  });
  // The menu bar and the Dock sit above documents; the desktop below everything.
  addWindow(world, {
    id: MAC.menuBarWindow,
    pid: MAC.windowServer,
    ownerName: "Window Server",
    title: "Menubar",
    layer: 24,
    bounds: { x: 0, y: 0, width: 1512, height: 24 },
    onScreen: true,
    color: [236, 236, 236],
  });
  addWindow(world, {
    id: MAC.dockWindow,
    pid: MAC.dock,
    ownerName: "Dock",
    title: "Dock",
    layer: 20,
    bounds: { x: 0, y: 900, width: 1512, height: 82 },
    onScreen: true,
    color: [60, 60, 60],
  });
  textEdit(world);
  controls(world);
  const chrome = app(world, {
    pid: MAC.chrome,
    name: "Google Chrome",
    bundleId: "com.google.Chrome",
    bundlePath: "/Applications/Google Chrome.app",
    executablePath: "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    activationPolicy: 0,
    launchDate: 1_764_598_800,
  });
  const chromeFrame = { x: 40, y: 60, width: 1200, height: 800 };
  const chromeWindow = element(MAC.chrome, "AXWindow", {
    title: "New Tab - Google Chrome",
    subrole: "AXStandardWindow",
    frame: chromeFrame,
    windowId: MAC.chromeWindow,
    actions: ["AXRaise"],
    extra: { AXMain: true, AXMinimized: false },
  }, [
    element(MAC.chrome, "AXWebArea", {
      title: "New Tab",
      frame: { x: 40, y: 140, width: 1200, height: 720 },
    }),
  ]);
  adopt(chrome.ax, [chromeWindow]);
  addWindow(world, {
    id: MAC.chromeWindow,
    pid: MAC.chrome,
    ownerName: "Google Chrome",
    title: "New Tab - Google Chrome",
    layer: 0,
    bounds: chromeFrame,
    onScreen: true,
    color: [250, 250, 250],
    ax: chromeWindow,
  });
  addWindow(world, {
    id: MAC.textEditMinimized,
    pid: MAC.textEdit,
    ownerName: "TextEdit",
    title: "Notes.txt",
    layer: 0,
    bounds: { x: 260, y: 180, width: 500, height: 400 },
    onScreen: false,
    color: [200, 220, 240],
    ax: world.app(MAC.textEdit)!.ax.children[1],
  });
  addWindow(world, {
    id: MAC.desktopWindow,
    pid: MAC.finder,
    ownerName: "Finder",
    title: "",
    layer: -2147483603,
    bounds: { x: 0, y: 0, width: 1512, height: 982 },
    onScreen: true,
    color: WALLPAPER_RGB,
  });
  world.frontmost = MAC.textEdit;
  world.cursor = { x: 700, y: 500 };
  world.bundles.set("/Applications/Calculator.app", {
    bundleId: "com.apple.calculator",
    name: "Calculator",
    executable: "Calculator",
  });
  world.bundles.set("/System/Applications/TextEdit.app", {
    bundleId: "com.apple.TextEdit",
    name: "TextEdit",
    executable: "TextEdit",
  });
  world.bundles.set("/Applications/Controls.app", {
    bundleId: "com.example.Controls",
    name: "Controls",
    executable: "Controls",
  });
  world.pasteboard = [{ type: "public.utf8-plain-text", text: "copied earlier" }];
  return world;
}

const WALLPAPER_RGB: [number, number, number] = [30, 60, 90];
