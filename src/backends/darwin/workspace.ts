/**
 * NSWorkspace and NSRunningApplication through the Objective-C runtime: running apps,
 * the frontmost app, activation and launching. Every block of messages runs in its own
 * autorelease pool; values are copied out as plain data before the pool drains.
 *
 * @module
 */
import { NSApplicationActivationOptions, NSWorkspaceLaunchOptions } from "../../../ffi/darwin/app_kit.ts";
import { CFRunLoopRunResult } from "../../../ffi/darwin/core_foundation.ts";
import { macOSMajor } from "./os_version.ts";
import { DriverError } from "../../ports/errors.ts";
import { outCell, type Owned, readOut } from "./cf.ts";
import type { DarwinContext } from "./context.ts";
import type { Id } from "./objc_runtime.ts";

/** A running application, as NSRunningApplication describes it. */
export interface RunningApp {
  pid: number;
  bundleId: string | null;
  name: string;
  bundlePath: string | null;
  executablePath: string | null;
  active: boolean;
  /** "regular" (Dock icon), "accessory" (menu extra) or "prohibited" (background). */
  policy: "regular" | "accessory" | "prohibited";
  /** Launch time in seconds since 1970; null when unknown. */
  launchDate: number | null;
}

const POLICIES = ["regular", "accessory", "prohibited"] as const;

function workspace(ctx: DarwinContext): Id {
  return ctx.objc.id(ctx.objc.cls("NSWorkspace"), "sharedWorkspace")!;
}

/** Sources handled by one pump at most (a burst of launches posts a few each). */
export const RUN_LOOP_DRAIN_LIMIT = 256;

/**
 * Lets the main thread's run loop handle everything pending, without waiting. NSWorkspace
 * keeps `runningApplications` and `frontmostApplication` current through notifications
 * delivered on that run loop, which a command-line process never runs by itself: without
 * this, a long-running driver would keep seeing the apps of its first look. One
 * zero-timeout pass handles at most one source, so it runs until a pass handles none.
 *
 * @throws {DriverError} `unsupported_platform` off the process's main thread (a Worker),
 *   whose run loop never receives NSWorkspace's notifications.
 */
export function pumpRunLoop(ctx: DarwinContext): void {
  if (ctx.fw.system.pthread_main_np() !== 1) {
    throw new DriverError(
      "unsupported_platform",
      "The macOS back end runs off the process's main thread: NSWorkspace's view of the running apps " +
        "is kept current only by the main thread's run loop",
      { hint: "run the driver in the main thread of its process, not in a Worker" },
    );
  }
  const mode = ctx.fw.cf.kCFRunLoopDefaultMode;
  if (mode === null) return;
  for (let i = 0; i < RUN_LOOP_DRAIN_LIMIT; i++) {
    if (ctx.fw.cf.CFRunLoopRunInMode(mode, 0, true) !== CFRunLoopRunResult.HandledSource) return;
  }
}

function describe(ctx: DarwinContext, app: Id): RunningApp {
  const { objc, cf } = ctx;
  const text = (selector: string) => cf.toString(objc.id(app, selector));
  const path = (selector: string) => cf.toPath(objc.id(app, selector));
  const date = objc.id(app, "launchDate");
  return {
    pid: objc.send.msgSend_i32(app, objc.sel("processIdentifier")),
    bundleId: text("bundleIdentifier"),
    name: text("localizedName") ?? "",
    bundlePath: path("bundleURL"),
    executablePath: path("executableURL"),
    active: objc.bool(app, "isActive"),
    policy: POLICIES[objc.integer(app, "activationPolicy")] ?? "prohibited",
    launchDate: date ? objc.double(date, "timeIntervalSince1970") : null,
  };
}

/** Every running application that has not terminated. */
export function runningApps(ctx: DarwinContext): RunningApp[] {
  pumpRunLoop(ctx);
  return ctx.objc.pool(() => {
    const list = ctx.objc.id(workspace(ctx), "runningApplications");
    return ctx.cf.items(list).filter((app) => !ctx.objc.bool(app, "isTerminated")).map((app) =>
      describe(ctx, app)
    );
  });
}

/** One running application by pid, or null. */
export function runningApp(ctx: DarwinContext, pid: number): RunningApp | null {
  pumpRunLoop(ctx);
  return ctx.objc.pool(() => {
    const app = ctx.objc.send.msgSend_id_i32(
      ctx.objc.cls("NSRunningApplication"),
      ctx.objc.sel("runningApplicationWithProcessIdentifier:"),
      pid,
    );
    return app && !ctx.objc.bool(app, "isTerminated") ? describe(ctx, app) : null;
  });
}

/** The pid of the frontmost (active) application, or null. */
export function frontmostPid(ctx: DarwinContext): number | null {
  pumpRunLoop(ctx);
  return ctx.objc.pool(() => {
    const app = ctx.objc.id(workspace(ctx), "frontmostApplication");
    return app ? ctx.objc.send.msgSend_i32(app, ctx.objc.sel("processIdentifier")) : null;
  });
}

/** The first macOS that activates cooperatively: it ignores activation requests from a background process. */
export const COOPERATIVE_ACTIVATION_SINCE = 14;

/**
 * Asks an application to become active (with all its windows); false when macOS refused,
 * and false without asking on macOS 14 and later, which ignores such a request from a
 * process that is not itself active (NSApplicationActivateIgnoringOtherApps is deprecated
 * there and has no effect): there only Accessibility (AXFrontmost) activates another app.
 */
export function activateApp(ctx: DarwinContext, pid: number): boolean {
  if ((macOSMajor(ctx) ?? 0) >= COOPERATIVE_ACTIVATION_SINCE) return false;
  return ctx.objc.pool(() => {
    const app = ctx.objc.send.msgSend_id_i32(
      ctx.objc.cls("NSRunningApplication"),
      ctx.objc.sel("runningApplicationWithProcessIdentifier:"),
      pid,
    );
    if (!app) return false;
    return ctx.objc.send.msgSend_bool_u64(
      app,
      ctx.objc.sel("activateWithOptions:"),
      NSApplicationActivationOptions.ActivateIgnoringOtherApps,
    );
  });
}

/** The bundle path of an installed app with this bundle identifier, or null. */
export function bundlePathFor(ctx: DarwinContext, bundleId: string): string | null {
  return ctx.objc.pool(() => {
    using id = ctx.cf.string(bundleId);
    const url = ctx.objc.idWith(workspace(ctx), "URLForApplicationWithBundleIdentifier:", id.ref);
    return url ? ctx.cf.toPath(url) : null;
  });
}

/** What {@linkcode launchBundle} started. */
export interface Launched {
  pid: number;
  name: string;
}

/**
 * Launches an app bundle without activating it (the user's frontmost app keeps focus),
 * passing `args` to the process, or opening `urls` with it.
 *
 * @throws {DriverError} `launch_failed` with NSWorkspace's reason.
 */
export function launchBundle(
  ctx: DarwinContext,
  bundlePath: string,
  args: readonly string[],
  urls: readonly string[],
): Launched {
  const { cf, objc, fw } = ctx;
  return objc.pool(() => {
    // Every object made here is released when the block ends, whatever happens.
    const made: Owned[] = [];
    const keep = (owned: Owned) => (made.push(owned), owned.ref);
    const error = outCell();
    let app: Id | null;
    try {
      const url = keep(cf.fileUrl(bundlePath, true));
      const argList = keep(cf.array(args.map((arg) => keep(cf.string(arg)))));
      const configuration = keep(
        cf.dictionary([[fw.appKit.NSWorkspaceLaunchConfigurationArguments!, argList]]),
      );
      if (urls.length) {
        const targets = urls.map((target) =>
          keep(/^[a-z][a-z0-9+.-]*:/i.test(target) ? cf.url(target) : cf.fileUrl(target))
        );
        app = objc.send.msgSend_id_id_id_u64_id_buffer(
          workspace(ctx),
          objc.sel("openURLs:withApplicationAtURL:options:configuration:error:"),
          keep(cf.array(targets)),
          url,
          NSWorkspaceLaunchOptions.WithoutActivation,
          configuration,
          error,
        );
      } else {
        app = objc.send.msgSend_id_id_u64_id_buffer(
          workspace(ctx),
          objc.sel("launchApplicationAtURL:options:configuration:error:"),
          url,
          NSWorkspaceLaunchOptions.WithoutActivation,
          configuration,
          error,
        );
      }
    } finally {
      for (const owned of made) owned.release();
    }
    if (!app) {
      const nsError = readOut(error);
      const reason = nsError ? cf.toString(objc.id(nsError, "localizedDescription")) : null;
      throw new DriverError(
        "launch_failed",
        `NSWorkspace could not launch ${bundlePath}: ${reason ?? "no reason given"}`,
        {
          path: bundlePath,
          hint: "check the app opens from Finder; list_apps shows installed apps",
        },
      );
    }
    return {
      pid: objc.send.msgSend_i32(app, objc.sel("processIdentifier")),
      name: cf.toString(objc.id(app, "localizedName")) ?? "",
    };
  });
}
