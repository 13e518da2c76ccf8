/**
 * The fake Objective-C runtime: classes, selectors, autorelease pools and the
 * `objc_msgSend` aliases. Each fake method states the C signature it has, so a
 * message sent through the alias of another signature (a BOOL method called as if
 * it returned an object) is a violation, as it would be undefined behaviour on a Mac.
 * Objects a method returns autoreleased live until the innermost pool pops; one
 * produced with no pool in place is a violation (it would leak).
 *
 * @module
 */
import type { OBJC_SYMBOLS } from "../../../../ffi/darwin/objc.ts";
import { decodeUtf8 } from "../../../../ffi/_c.ts";
import { bytesOf, writeOut } from "./cf.ts";
import type { FakeHeap, FakeKind, FakeObject } from "./heap.ts";
import { type CFable, type CFConstants, fromCF, toCF, type UrlPayload } from "./values.ts";
import type { FakeApp, FakeMac } from "./world.ts";

type Alias = Exclude<keyof typeof OBJC_SYMBOLS, `objc_${string}` | "sel_registerName">;

interface Method {
  alias: Alias;
  run(self: FakeObject, args: unknown[]): unknown;
}

const BRIDGED: Partial<Record<FakeKind, string>> = {
  CFString: "NSString",
  CFArray: "NSArray",
  CFData: "NSData",
  CFURL: "NSURL",
  CFDictionary: "NSDictionary",
};

/** The fake runtime's state, for tests. */
export interface FakeObjcState {
  /** Depth of the autorelease pool stack right now. */
  poolDepth(): number;
  /** Launches the fake workspace performed: bundle path, options, arguments. */
  launches: { path: string; options: bigint; arguments: string[]; urls?: string[] }[];
  /** True to make -[NSRunningApplication activateWithOptions:] refuse (macOS 14 cooperative activation). */
  refuseActivation: boolean;
  /** The options of every -[NSRunningApplication activateWithOptions:] call, in order. */
  activations: bigint[];
}

/** The implementation of OBJC_SYMBOLS, and its state. */
export function fakeObjc(
  heap: FakeHeap,
  constants: CFConstants,
  world: FakeMac,
  runLoop: { count: number } = { count: 0 },
): { impl: { [K in keyof typeof OBJC_SYMBOLS]?: unknown }; state: FakeObjcState } {
  const ptr = (object: FakeObject) => heap.pointer(object);
  const classes = new Map<string, FakeObject>();
  const selectors = new Map<string, FakeObject>();
  const pools: { token: FakeObject; objects: FakeObject[] }[] = [];
  const appObjects = new Map<number, FakeObject>();
  const state: FakeObjcState = {
    poolDepth: () => pools.length,
    launches: [],
    refuseActivation: false,
    activations: [],
  };

  const cls = (name: string) => {
    let object = classes.get(name);
    if (!object) {
      object = heap.constant("Class", name, `objc_getClass(${name})`);
      classes.set(name, object);
    }
    return object;
  };
  const singleton = (className: string) => {
    const object = heap.constant("ObjC", className, `+[${className} shared]`);
    object.className = className;
    return object;
  };
  const workspace = singleton("NSWorkspace");
  const pasteboard = singleton("NSPasteboard");

  /** An autoreleased result, alive until the innermost pool pops. */
  function autoreleased(object: FakeObject, api: string): Deno.PointerObject {
    const pool = pools.at(-1);
    if (!pool) heap.fail(`${api}: autoreleased object with no pool in place (it would leak)`);
    pool.objects.push(object);
    return ptr(object);
  }
  const auto = (value: CFable, api: string) => autoreleased(toCF(constants, value, api, "held"), api);
  const autoObject = (className: string, value: unknown, api: string) => {
    const object = heap.createHeld("ObjC", value, api);
    object.className = className;
    return autoreleased(object, api);
  };
  const appObject = (app: FakeApp) => {
    let object = appObjects.get(app.pid);
    if (!object) {
      object = heap.constant("ObjC", app, `NSRunningApplication(${app.pid})`);
      object.className = "NSRunningApplication";
      appObjects.set(app.pid, object);
    }
    return ptr(object);
  };
  const app = (self: FakeObject) => self.value as FakeApp;
  // NSWorkspace's view of the running apps changes only through notifications handled on
  // the main run loop: a process that never runs it keeps its first view.
  let view: { tick: number; apps: FakeApp[]; frontmost: number | null } | null = null;
  const workspaceView = () => {
    if (!view || (view.tick !== runLoop.count && world.runLoopSources === 0)) {
      view = {
        tick: runLoop.count,
        apps: world.apps.filter((a) => !a.terminated),
        frontmost: world.frontmost,
      };
    }
    return view;
  };
  const text = (ref: unknown, api: string) =>
    heap.deref(ref as Deno.PointerValue, api, ["CFString"]).value as string;

  const methods: Record<string, Record<string, Method>> = {
    "+NSWorkspace": { sharedWorkspace: { alias: "msgSend_id", run: () => ptr(workspace) } },
    NSWorkspace: {
      runningApplications: {
        alias: "msgSend_id",
        run: () => {
          const objects = workspaceView().apps.map((a) => heap.deref(appObject(a), "runningApplications"));
          const array = heap.createHeld("CFArray", objects, "-[NSWorkspace runningApplications]");
          for (const object of objects) heap.hold(object);
          return autoreleased(array, "-[NSWorkspace runningApplications]");
        },
      },
      frontmostApplication: {
        alias: "msgSend_id",
        run: () => {
          const pid = workspaceView().frontmost;
          const front = pid === null ? undefined : world.apps.find((a) => a.pid === pid);
          return front ? appObject(front) : null;
        },
      },
      "URLForApplicationWithBundleIdentifier:": {
        alias: "msgSend_id_id",
        run: (_self, [id]) => {
          const wanted = text(id, "URLForApplicationWithBundleIdentifier:");
          const found = [...world.bundles].find(([, b]) => b.bundleId === wanted);
          return found ? auto({ url: found[0] }, "URLForApplicationWithBundleIdentifier:") : null;
        },
      },
      "openURLs:withApplicationAtURL:options:configuration:error:": {
        alias: "msgSend_id_id_id_u64_id_buffer",
        run: (self, [urls, url, options, configuration, error]) => {
          const api = "openURLs:withApplicationAtURL:options:configuration:error:";
          const targets = (heap.deref(urls as Deno.PointerValue, api, ["CFArray"]).value as FakeObject[])
            .map((
              o,
            ) => (o.kind === "CFURL" ? o.value as UrlPayload : heap.fail(`${api}: URLs must be NSURLs`)))
            .map((u) => u.url ?? u.path);
          const launched = methods.NSWorkspace["launchApplicationAtURL:options:configuration:error:"]
            .run(self, [url, options, configuration, error]);
          if (launched) state.launches.at(-1)!.urls = targets;
          return launched;
        },
      },
      "launchApplicationAtURL:options:configuration:error:": {
        alias: "msgSend_id_id_u64_id_buffer",
        run: (_self, [url, options, configuration, error]) => {
          const api = "launchApplicationAtURL:options:configuration:error:";
          const path = (heap.deref(url as Deno.PointerValue, api, ["CFURL"]).value as UrlPayload).path;
          let args: string[] = [];
          if (configuration !== null) {
            const dict = fromCF(heap.deref(configuration as Deno.PointerValue, api, ["CFDictionary"])) as Map<
              string,
              unknown
            >;
            args = (dict.get("NSWorkspaceLaunchConfigurationArguments") as string[] | undefined) ?? [];
          }
          state.launches.push({ path, options: BigInt(options as bigint), arguments: args });
          const launched = world.launch(path, !(BigInt(options as bigint) & 0x200n));
          if (launched) return appObject(launched);
          if (error !== null) {
            const nsError = heap.createHeld("ObjC", `The application “${path}” could not be found.`, api);
            nsError.className = "NSError";
            writeOut(heap, error, nsError, api);
            autoreleased(nsError, api);
          }
          return null;
        },
      },
    },
    "+NSRunningApplication": {
      "runningApplicationWithProcessIdentifier:": {
        alias: "msgSend_id_i32",
        run: (_self, [pid]) => {
          const found = world.app(pid as number);
          return found ? appObject(found) : null;
        },
      },
    },
    NSRunningApplication: {
      processIdentifier: { alias: "msgSend_i32", run: (self) => app(self).pid },
      bundleIdentifier: {
        alias: "msgSend_id",
        run: (self) => app(self).bundleId === null ? null : auto(app(self).bundleId!, "bundleIdentifier"),
      },
      localizedName: { alias: "msgSend_id", run: (self) => auto(app(self).name, "localizedName") },
      bundleURL: {
        alias: "msgSend_id",
        run: (self) =>
          app(self).bundlePath === null ? null : auto({ url: app(self).bundlePath! }, "bundleURL"),
      },
      executableURL: {
        alias: "msgSend_id",
        run: (self) => auto({ url: app(self).executablePath }, "executableURL"),
      },
      isActive: { alias: "msgSend_bool", run: (self) => world.frontmost === app(self).pid },
      isTerminated: { alias: "msgSend_bool", run: (self) => app(self).terminated },
      activationPolicy: { alias: "msgSend_i64", run: (self) => BigInt(app(self).activationPolicy) },
      launchDate: {
        alias: "msgSend_id",
        run: (self) => autoObject("NSDate", app(self).launchDate, "launchDate"),
      },
      "activateWithOptions:": {
        alias: "msgSend_bool_u64",
        run: (self, [options]) => {
          state.activations.push(BigInt(options as bigint));
          // macOS 14+ activates cooperatively: a request from a process that is not active is ignored.
          if (Number.parseInt(world.productVersion, 10) >= 14) return true;
          return !state.refuseActivation && world.activate(app(self).pid);
        },
      },
      forceTerminate: { alias: "msgSend_bool", run: (self) => world.kill(app(self).pid) },
    },
    NSDate: { timeIntervalSince1970: { alias: "msgSend_f64", run: (self) => self.value as number } },
    NSError: {
      localizedDescription: {
        alias: "msgSend_id",
        run: (self) => auto(self.value as string, "localizedDescription"),
      },
    },
    "+NSPasteboard": { generalPasteboard: { alias: "msgSend_id", run: () => ptr(pasteboard) } },
    NSPasteboard: {
      clearContents: {
        alias: "msgSend_i64",
        run: () => {
          world.pasteboard = [];
          return BigInt(++world.pasteboardChangeCount);
        },
      },
      changeCount: { alias: "msgSend_i64", run: () => BigInt(world.pasteboardChangeCount) },
      types: {
        alias: "msgSend_id",
        run: () => auto([...new Set(world.pasteboard.map((i) => i.type))], "types"),
      },
      "stringForType:": {
        alias: "msgSend_id_id",
        run: (_self, [type]) => {
          const item = world.pasteboard.find((i) => i.type === text(type, "stringForType:"));
          return item?.text === undefined ? null : auto(item.text, "stringForType:");
        },
      },
      "dataForType:": {
        alias: "msgSend_id_id",
        run: (_self, [type]) => {
          const item = world.pasteboard.find((i) => i.type === text(type, "dataForType:"));
          if (!item) return null;
          return auto(item.bytes ?? new TextEncoder().encode(item.text ?? ""), "dataForType:");
        },
      },
      "setString:forType:": {
        alias: "msgSend_bool_id_id",
        run: (_self, [value, type]) => {
          world.pasteboard.push({
            type: text(type, "setString:forType:"),
            text: text(value, "setString:forType:"),
          });
          return true;
        },
      },
      "setData:forType:": {
        alias: "msgSend_bool_id_id",
        run: (_self, [value, type]) => {
          const bytes = heap.deref(value as Deno.PointerValue, "setData:forType:", ["CFData"])
            .value as Uint8Array;
          world.pasteboard.push({ type: text(type, "setData:forType:"), bytes: bytes.slice() });
          return true;
        },
      },
      "writeObjects:": {
        alias: "msgSend_bool_id",
        run: (_self, [objects]) => {
          const items = heap.deref(objects as Deno.PointerValue, "writeObjects:", ["CFArray"])
            .value as FakeObject[];
          for (const item of items) {
            if (item.kind !== "CFURL") heap.fail("writeObjects: the fake writes NSURL objects only");
            const { path } = item.value as UrlPayload;
            world.pasteboard.push({ type: "public.file-url", text: `file://${encodeURI(path)}` });
          }
          return true;
        },
      },
      "readObjectsForClasses:options:": {
        alias: "msgSend_id_id_id",
        run: (_self, [classList]) => {
          const api = "readObjectsForClasses:options:";
          const wanted = heap.deref(classList as Deno.PointerValue, api, ["CFArray"]).value as FakeObject[];
          if (!wanted.some((c) => c.kind === "Class" && c.value === "NSURL")) return auto([], api);
          const urls = world.pasteboard.filter((i) => i.type === "public.file-url")
            .map((i) => ({ url: decodeURI(i.text!.replace(/^file:\/\//, "")) }));
          return auto(urls, api);
        },
      },
    },
    "+NSBitmapImageRep": {
      "imageRepWithData:": {
        alias: "msgSend_id_id",
        run: (_self, [data]) => {
          const bytes = heap.deref(data as Deno.PointerValue, "imageRepWithData:", ["CFData"])
            .value as Uint8Array;
          const marker = new TextEncoder().encode("FAKE-TIFF:");
          if (!marker.every((b, i) => bytes[i] === b)) return null;
          return autoObject("NSBitmapImageRep", bytes.slice(marker.length), "imageRepWithData:");
        },
      },
    },
    NSBitmapImageRep: {
      "representationUsingType:properties:": {
        alias: "msgSend_id_u64_id",
        run: (self, [type]) =>
          BigInt(type as bigint) === 4n ? auto(self.value as Uint8Array, "representationUsingType:") : null,
      },
    },
  };

  function dispatch(alias: Alias, receiver: Deno.PointerValue, selector: Deno.PointerValue, args: unknown[]) {
    const self = heap.deref(receiver, `${alias} receiver`);
    const name = heap.deref(selector, `${alias} selector`, ["Selector"]).value as string;
    const className = self.kind === "Class"
      ? `+${self.value as string}`
      : self.kind === "ObjC"
      ? self.className!
      : BRIDGED[self.kind] ?? self.kind;
    const method = methods[className]?.[name];
    if (!method) heap.fail(`${alias}: ${className} does not respond to ${name} in the fake`);
    if (method.alias !== alias) {
      heap.fail(`-[${className} ${name}] has the signature of ${method.alias}, sent through ${alias}`);
    }
    return method.run(self, args);
  }

  const aliases: Alias[] = [
    "msgSend_id",
    "msgSend_id_id",
    "msgSend_id_id_id",
    "msgSend_id_i32",
    "msgSend_id_u64_id",
    "msgSend_id_id_u64_id_buffer",
    "msgSend_id_id_id_u64_id_buffer",
    "msgSend_i32",
    "msgSend_i64",
    "msgSend_bool",
    "msgSend_bool_u64",
    "msgSend_bool_id",
    "msgSend_bool_id_id",
    "msgSend_f64",
  ];
  const impl: Record<string, unknown> = {
    objc_getClass: (name: unknown) => {
      const className = decodeUtf8(bytesOf(name));
      const known = Object.keys(methods).some((key) => key === className || key === `+${className}`) ||
        className === "NSURL";
      return known ? ptr(cls(className)) : null;
    },
    sel_registerName: (name: unknown) => {
      const selectorName = decodeUtf8(bytesOf(name));
      let object = selectors.get(selectorName);
      if (!object) {
        object = heap.constant("Selector", selectorName, `sel_registerName(${selectorName})`);
        selectors.set(selectorName, object);
      }
      return ptr(object);
    },
    objc_autoreleasePoolPush: () => {
      const token = heap.constant("Pool", pools.length, "objc_autoreleasePoolPush");
      pools.push({ token, objects: [] });
      return ptr(token);
    },
    objc_autoreleasePoolPop: (token: Deno.PointerValue) => {
      const object = heap.deref(token, "objc_autoreleasePoolPop", ["Pool"]);
      const top = pools.at(-1);
      if (!top || top.token !== object) heap.fail("objc_autoreleasePoolPop: pool popped out of order");
      pools.pop();
      for (const released of top.objects) heap.unhold(released);
    },
  };
  for (const alias of aliases) {
    impl[alias] = (receiver: Deno.PointerValue, selector: Deno.PointerValue, ...args: unknown[]) =>
      dispatch(alias, receiver, selector, args);
  }
  return { impl, state };
}
