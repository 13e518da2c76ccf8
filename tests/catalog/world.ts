/**
 * The catalog's desktop: the GTK3 fixture app, gtk3-widget-factory (a stock app the
 * project did not write), xmessage on demand, and the sentinel windows covering a known
 * part of each app, laid out deliberately so that most pixel cells land on uncovered
 * controls and a few land under a sentinel.
 *
 *     fixture client (1, 60) 560x720         widget-factory client (553, 330) 1366x741
 *     sentinel A over fixture-local x 198..399, y 7..181: the right part of btn-reset,
 *       btn-context and txt-input (their left parts and centres stay uncovered, but
 *       btn-reset's and btn-context's centres are covered)
 *     sentinel B over widget-factory-local x 447..648, y 100..224: the right part of the
 *       lower togglebutton and the left third of the horizontal slider
 *
 * The real pointer is parked on sentinel A and sentinel A is the active window, so any
 * core input a background cell leaks lands in a journal.
 *
 * @module
 */
import { type FixtureApp, startFixture } from "../_helpers/fixture_app.ts";
import { describeFocusEvents, watchFocus } from "../_helpers/focus_watch.ts";
import type { Structured, TestDriver } from "../_helpers/in_process_driver.ts";
import { clearAgentKeyboardFocus } from "./agent_focus.ts";
import type { Point } from "./cell.ts";
import {
  activate,
  clientBox,
  desktopChanges,
  movePointer,
  raise,
  readDesktop,
  run,
  sleep,
} from "./desktop_probe.ts";
import { describeEvents, type Sentinel, startSentinel } from "./sentinel.ts";

/** A rectangle in screen pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A window the catalog drives. */
export interface AppWindow {
  pid: number;
  windowId: number;
  /** Client area in screen pixels. */
  client: Box;
}

/** A running xmessage (no _NET_WM_PID, no accessibility: pixels and the desktop scope only). */
export interface Xmessage {
  pid: number;
  windowId: number;
  /** Screen centres of its buttons, left to right (Alpha, Beta). */
  buttons: Point[];
  /** What it printed so far and its exit code once it exited. */
  state(): { output: string; exitCode: number | null };
  stop(): Promise<void>;
}

/** Everything the runner needs. */
export interface World extends AsyncDisposable {
  driver: TestDriver;
  /** The desktop's environment (for the independent watchers the runner starts). */
  env: Record<string, string>;
  fixture: FixtureApp & { client: Box };
  stock: AppWindow;
  sentinel: Sentinel;
  /** Sentinel frames (decorations included) in screen pixels. */
  sentinelFrames: Record<string, Box>;
  /** Where the real pointer rests between cells (on sentinel A). */
  park: Point;
  /** Starts a fresh xmessage (the previous one is stopped). */
  startXmessage(): Promise<Xmessage>;
  xmessage(): Xmessage | null;
  /**
   * Proves the watchers work before any cell runs: a key and a click deliberately leaked
   * into the sentinel windows must show up in their journal, and the probes must see the
   * real pointer move.
   *
   * @throws {Error} when a watcher misses the leak.
   */
  preflight(): Promise<void>;
  /** Puts the desktop back: sentinel A active and on top of the fixture, B on top of the stock app, pointer parked. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

const FIXTURE_FRAME = { x: 0, y: 40 };
const STOCK_CLIENT = { x: 553, y: 330 };
const XMESSAGE_AT = { x: 700, y: 60 };

/** Starts the apps and the sentinel and lays them out. */
export async function startWorld(env: Record<string, string>, driver: TestDriver): Promise<World> {
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const fixture = await startFixture(env, { ...FIXTURE_FRAME, title: "CuaCatalog GTK3" });
    cleanups.push(() => fixture.stop());
    const stock = await startStock(env, driver, cleanups);
    const fixtureClient = await clientBox(fixture.xid);
    // Frames: 1 px borders, a 20 px title bar and a 5 px bottom handle (openbox's default theme).
    const sentinel = await startSentinel(env, [
      { name: "A", x: fixtureClient.x + 198, y: fixtureClient.y + 7, width: 200, height: 150 },
      { name: "B", x: stock.client.x + 447, y: stock.client.y + 100, width: 200, height: 100 },
    ]);
    cleanups.push(() => sentinel.stop());
    const sentinelFrames: Record<string, Box> = {};
    for (const [name, id] of Object.entries(sentinel.windows)) sentinelFrames[name] = await frameBox(id);
    const a = sentinelFrames.A;
    const park = { x: a.x + a.width - 30, y: a.y + a.height - 25 };

    let current: Xmessage | null = null;
    const world: World = {
      driver,
      env,
      fixture: Object.assign(fixture, { client: fixtureClient }),
      stock,
      sentinel,
      sentinelFrames,
      park,
      async startXmessage() {
        await current?.stop();
        current = await startXmessage(env);
        return current;
      },
      xmessage: () => current,
      async preflight() {
        await world.restore();
        const seen = (await sentinel.events()).length;
        const before = await readDesktop();
        await run("xdotool", "key", "F12");
        const b = sentinelFrames.B;
        await movePointer(b.x + Math.round(b.width / 2), b.y + Math.round(b.height / 2));
        await run("xdotool", "click", "1");
        const moved = desktopChanges(before, await readDesktop());
        const deadline = performance.now() + 3_000;
        let leaked = (await sentinel.events()).slice(seen);
        const caught = () =>
          leaked.some((e) => e.window === "A" && e.event === "key_press" && e.key === "F12") &&
          leaked.some((e) => e.window === "B" && e.event === "button_press");
        while (!caught() && performance.now() < deadline) {
          await sleep(50);
          leaked = (await sentinel.events()).slice(seen);
        }
        if (!caught()) {
          throw new Error(
            `the sentinel windows missed deliberately leaked input: ${describeEvents(leaked, 10)}`,
          );
        }
        if (!moved.some((change) => change.startsWith("pointer"))) {
          throw new Error("the desktop probes missed a real pointer move");
        }
        // The activation watcher must see a window activated and the sentinel losing its focus.
        const watch = await watchFocus(env, [sentinel.windows.A, fixture.xid]);
        await activate(fixture.xid);
        await activate(sentinel.windows.A);
        const changes = await watch.stop();
        const sawActive = changes.some((e) => e.event === "active" && e.value === fixture.xid);
        const sawFocus = changes.some((e) => e.event === "focus_out" && e.window === sentinel.windows.A);
        if (!sawActive || !sawFocus) {
          throw new Error(
            `the activation watcher missed a deliberate activation: ${describeFocusEvents(changes)}`,
          );
        }
        await world.restore();
      },
      async restore() {
        const desktop = await readDesktop();
        const { A, B } = sentinel.windows;
        const above = (top: number, below: number) =>
          desktop.stacking.indexOf(top) > desktop.stacking.indexOf(below);
        if (!above(B, stock.windowId)) await raise(B);
        if (desktop.active !== A || desktop.focus !== A || !above(A, fixture.xid)) {
          // A window manager that lost track of the user's focus (a private keyboard's focus rests on
          // A) needs that focus cleared and the user's focus moved away and back.
          if (!(await activate(A, 300))) {
            clearAgentKeyboardFocus(env.DISPLAY);
            if (!((await activate(fixture.xid, 500)) && (await activate(A)))) {
              throw new Error(`cannot make sentinel A active again: ${JSON.stringify(await readDesktop())}`);
            }
          }
        }
        if (desktop.pointer.x !== park.x || desktop.pointer.y !== park.y) await movePointer(park.x, park.y);
      },
      async close() {
        await current?.stop();
        for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
      },
      [Symbol.asyncDispose]: () => world.close(),
    };
    await world.restore();
    return world;
  } catch (error) {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    throw error;
  }
}

/** Starts gtk3-widget-factory, places it and waits until its accessibility tree is there. */
async function startStock(
  env: Record<string, string>,
  driver: TestDriver,
  cleanups: (() => Promise<void>)[],
): Promise<AppWindow> {
  const child = new Deno.Command("gtk3-widget-factory", {
    env: { ...env, NO_AT_BRIDGE: "0", ACCESSIBILITY_ENABLED: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  cleanups.push(async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // Already gone.
    }
    await child.status;
  });
  const deadline = performance.now() + 20_000;
  let windowId = 0;
  while (windowId === 0) {
    const windows = (await driver.ok("list_windows", {})).windows as Structured[];
    windowId = windows.find((w) => w.pid === child.pid && w.width > 600)?.window_id ?? 0;
    if (windowId === 0) {
      if (performance.now() > deadline) throw new Error("gtk3-widget-factory showed no window in 20 s");
      await sleep(100);
    }
  }
  await run(
    "xdotool",
    "windowmove",
    "--sync",
    String(windowId),
    String(STOCK_CLIENT.x),
    String(STOCK_CLIENT.y),
  );
  let client = await clientBox(windowId);
  for (let i = 0; i < 40 && (client.x !== STOCK_CLIENT.x || client.y !== STOCK_CLIENT.y); i++) {
    await sleep(50);
    client = await clientBox(windowId);
  }
  while (true) {
    const state = await driver.ok("get_window_state", {
      pid: child.pid,
      window_id: windowId,
      include_screenshot: false,
    });
    if ((state.elements as Structured[]).some((e) => e.label === "togglebutton" && e.frame)) break;
    if (performance.now() > deadline) {
      throw new Error("gtk3-widget-factory's accessibility tree never filled");
    }
    await sleep(100);
  }
  return { pid: child.pid, windowId, client };
}

/** A window's frame (client plus `_NET_FRAME_EXTENTS`) in screen pixels. */
async function frameBox(windowId: number): Promise<Box> {
  const client = await clientBox(windowId);
  const text = await run("xprop", "-id", String(windowId), "_NET_FRAME_EXTENTS");
  const [left, right, top, bottom] = (/=\s*(\d+), (\d+), (\d+), (\d+)/.exec(text)?.slice(1) ?? [0, 0, 0, 0])
    .map(Number);
  return {
    x: client.x - left,
    y: client.y - top,
    width: client.width + left + right,
    height: client.height + top + bottom,
  };
}

/** Starts `xmessage -buttons Alpha:11,Beta:12 -print` and finds its buttons with `xwininfo -tree`. */
async function startXmessage(env: Record<string, string>): Promise<Xmessage> {
  const child = new Deno.Command("xmessage", {
    args: [
      "-buttons",
      "Alpha:11,Beta:12",
      "-print",
      "-geometry",
      `+${XMESSAGE_AT.x}+${XMESSAGE_AT.y}`,
      "CuaStock",
    ],
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let output = "";
  let exitCode: number | null = null;
  const reading = child.stdout.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (output += chunk) }),
  ).catch(() => {});
  const status = child.status.then((s) => void (exitCode = s.code));
  const deadline = performance.now() + 10_000;
  while (true) {
    const ids = await run("xdotool", "search", "--onlyvisible", "--classname", "xmessage").catch(() => "");
    for (const id of ids.split(/\s+/).filter(Boolean)) {
      const tree = await run("xwininfo", "-tree", "-id", id).catch(() => "");
      // Button widgets: "<id> (has no name): ()  WxH+x+y  +absX+absY", below the message text.
      const boxes = [...tree.matchAll(/\)\s+(\d+)x(\d+)\+-?\d+\+(\d+)\s+\+(-?\d+)\+(-?\d+)/g)]
        .map((m) => ({ w: +m[1], h: +m[2], relY: +m[3], x: +m[4], y: +m[5] }));
      const buttonRow = Math.max(...boxes.map((b) => b.relY));
      const buttons = boxes.filter((b) => b.relY === buttonRow && b.relY > 10).sort((p, q) => p.x - q.x);
      if (buttons.length === 2) {
        return {
          pid: child.pid,
          windowId: Number(id),
          buttons: buttons.map((b) => ({ x: b.x + Math.floor(b.w / 2), y: b.y + Math.floor(b.h / 2) })),
          state: () => ({ output, exitCode }),
          async stop() {
            if (exitCode === null) {
              try {
                child.kill("SIGTERM");
              } catch {
                // Already gone.
              }
            }
            await status;
            await reading;
          },
        };
      }
    }
    if (performance.now() > deadline) {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
      throw new Error("xmessage did not show its buttons in 10 s");
    }
    await sleep(50);
  }
}
