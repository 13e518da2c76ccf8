/**
 * A scripted fake of the macOS frameworks, for running the darwin back end on any
 * OS. It replaces the symbol tables (the {@linkcode Frameworks} value), not the back
 * end: every call is type-checked against the real tables, every CF/objc object's
 * ownership is tracked, and {@linkcode FakeFrameworks.assertClean} fails a test on a
 * leaked or twice-released Create/Copy result, an unpopped autorelease pool, or any
 * call the real framework would reject.
 *
 * @module
 */
import { AX_SYMBOLS } from "../../../../ffi/darwin/accessibility.ts";
import { APPKIT_SYMBOLS } from "../../../../ffi/darwin/app_kit.ts";
import { CF_SYMBOLS } from "../../../../ffi/darwin/core_foundation.ts";
import { CG_SYMBOLS } from "../../../../ffi/darwin/core_graphics.ts";
import { SYSTEM_SYMBOLS } from "../../../../ffi/darwin/libsystem.ts";
import { OBJC_SYMBOLS } from "../../../../ffi/darwin/objc.ts";
import type { Frameworks } from "../frameworks.ts";
import { fakeAccessibility } from "./ax.ts";
import { fakeCoreFoundation } from "./cf.ts";
import { fakeCoreGraphics, fakeScreencapture, fakeSkyLight } from "./cg.ts";
import { SKYLIGHT_SYMBOLS } from "../../../../ffi/darwin/skylight.ts";
import { checkedTable, type FakeCall } from "./check.ts";
import { FakeHeap } from "./heap.ts";
import { fakeObjc, type FakeObjcState } from "./objc.ts";
import { macDesktop } from "./scenario.ts";
import { fakeAppKit, fakeBundles, fakeSystem } from "./system.ts";
import { CFConstants } from "./values.ts";
import type { FakeMac } from "./world.ts";

export { MAC } from "./scenario.ts";
export type { FakeElement, FakeMac, PostedEvent } from "./world.ts";

/** The fake frameworks and what they track. */
export interface FakeFrameworks {
  /** Pass this to the back end. */
  frameworks: Frameworks;
  /** The scripted Mac: read it to see what the apps own, change it to script a situation. */
  world: FakeMac;
  heap: FakeHeap;
  objc: FakeObjcState;
  /** Every framework call, in order. */
  calls: FakeCall[];
  /** The fake Mac's screencapture tool (pass it to createDarwinBackend), and its calls. */
  screencapture: ReturnType<typeof fakeScreencapture>;
  /** Symbols of the real tables the fake has no implementation for (calling one fails the test). */
  unscripted: string[];
  /** Calls of one symbol. */
  callsOf(symbol: string): FakeCall[];
  /**
   * Throws when any violation was recorded, any Create/Copy result is still owned by
   * the caller, or an autorelease pool is still open. Call it after the back end closed.
   */
  assertClean(): void;
}

/** Options for {@linkcode createFakeFrameworks}. */
export interface FakeOptions {
  /** The Mac to fake (default: {@linkcode macDesktop}). */
  world?: FakeMac;
  /** False to leave out the private `_AXUIElementGetWindow` SPI (as a future macOS might). */
  privateWindowSpi?: boolean;
  /** False to leave out SkyLight's SLEventPostToPid and CGEventSetWindowLocation (private API). */
  skyLight?: boolean;
}

/** Builds the fake frameworks over a scripted Mac. */
export function createFakeFrameworks(options: FakeOptions = {}): FakeFrameworks {
  const world = options.world ?? macDesktop();
  const heap = new FakeHeap();
  const constants = new CFConstants(heap);
  const calls: FakeCall[] = [];
  const unscripted: string[] = [];
  const callbacks = {
    array: heap.constant("Callbacks", "array", "kCFTypeArrayCallBacks"),
    key: heap.constant("Callbacks", "key", "kCFTypeDictionaryKeyCallBacks"),
    value: heap.constant("Callbacks", "value", "kCFTypeDictionaryValueCallBacks"),
  };
  const runLoop = { count: 0, world };
  const objc = fakeObjc(heap, constants, world, runLoop);
  const ax = {
    ...fakeAccessibility(heap, constants, world),
    ...(options.privateWindowSpi === false ? { _AXUIElementGetWindow: null } : {}),
  };
  const frameworks: Frameworks = {
    cf: checkedTable(
      "CoreFoundation",
      CF_SYMBOLS,
      { ...fakeCoreFoundation(heap, constants, callbacks, runLoop), ...fakeBundles(heap, world) },
      heap,
      calls,
      unscripted,
    ),
    cg: checkedTable(
      "CoreGraphics",
      CG_SYMBOLS,
      fakeCoreGraphics(heap, constants, world),
      heap,
      calls,
      unscripted,
    ),
    ax: checkedTable("ApplicationServices", AX_SYMBOLS, ax, heap, calls, unscripted),
    skylight: checkedTable(
      "SkyLight",
      SKYLIGHT_SYMBOLS,
      fakeSkyLight(heap, world, options.skyLight !== false),
      heap,
      calls,
      unscripted,
    ),
    objc: checkedTable("objc", OBJC_SYMBOLS, objc.impl, heap, calls, unscripted),
    appKit: checkedTable("AppKit", APPKIT_SYMBOLS, fakeAppKit(constants), heap, calls, unscripted),
    system: checkedTable(
      "System",
      SYSTEM_SYMBOLS,
      fakeSystem(heap, world, {
        kCFTypeArrayCallBacks: callbacks.array,
        kCFTypeDictionaryKeyCallBacks: callbacks.key,
        kCFTypeDictionaryValueCallBacks: callbacks.value,
      }),
      heap,
      calls,
      unscripted,
    ),
  };
  return {
    frameworks,
    world,
    heap,
    objc: objc.state,
    screencapture: fakeScreencapture(world),
    calls,
    unscripted,
    callsOf: (symbol) => calls.filter((call) => call.symbol === symbol),
    assertClean() {
      const problems = [...heap.violations];
      for (const leak of heap.leaks()) {
        problems.push(`leak: a ${leak.kind} from ${leak.origin} is still owned (${leak.owned} reference(s))`);
      }
      if (objc.state.poolDepth() > 0) {
        problems.push(`${objc.state.poolDepth()} autorelease pool(s) never popped`);
      }
      if (problems.length) {
        throw new Error(`fake frameworks found ${problems.length} problem(s):\n- ${problems.join("\n- ")}`);
      }
    },
  };
}
