/**
 * The fake libSystem (libproc, dlsym, sysctl, kill), AppKit constants and CFBundle.
 *
 * @module
 */
import type { APPKIT_SYMBOLS } from "../../../../ffi/darwin/app_kit.ts";
import type { CF_SYMBOLS } from "../../../../ffi/darwin/core_foundation.ts";
import type { SYSTEM_SYMBOLS } from "../../../../ffi/darwin/libsystem.ts";
import { ProcBsdInfo } from "../../../../ffi/darwin/libsystem.ts";
import { decodeUtf8 } from "../../../../ffi/_c.ts";
import { bytesOf, viewOf } from "./cf.ts";
import type { FakeHeap, FakeObject } from "./heap.ts";
import type { CFConstants, UrlPayload } from "./values.ts";
import type { FakeMac } from "./world.ts";

/** A process of the fake Mac: an app or a daemon. */
interface FakeProcess {
  pid: number;
  name: string;
  path: string;
  start: number;
  zombie: boolean;
}

function processes(world: FakeMac): FakeProcess[] {
  const apps = world.apps.filter((a) => !a.terminated || a.status === "zombie").map((a) => ({
    pid: a.pid,
    name: a.executablePath.split("/").pop()!,
    path: a.executablePath,
    start: a.launchDate,
    zombie: a.status === "zombie",
  }));
  const daemons = [...world.daemons].map(([pid, name]) => ({
    pid,
    name,
    path: `/usr/libexec/${name}`,
    start: 1_764_590_000,
    zombie: false,
  }));
  const tools = [...world.tools].map(([pid, path]) => ({
    pid,
    name: path.split("/").pop()!,
    path,
    start: 1_764_600_500,
    zombie: false,
  }));
  const driver = world.parents.has(Deno.pid) && !world.tools.has(Deno.pid)
    ? [{ pid: Deno.pid, name: "deno", path: Deno.execPath(), start: 1_764_600_600, zombie: false }]
    : [];
  return [...daemons, ...apps, ...tools, ...driver];
}

/** The implementation of SYSTEM_SYMBOLS. */
export function fakeSystem(
  heap: FakeHeap,
  world: FakeMac,
  callbacks: Record<string, FakeObject>,
): { [K in keyof typeof SYSTEM_SYMBOLS]?: unknown } {
  const find = (pid: number) => processes(world).find((p) => p.pid === pid);
  const writeString = (out: unknown, size: number, text: string) => {
    const encoded = new TextEncoder().encode(text);
    if (encoded.length + 1 > size) return 0;
    const bytes = bytesOf(out);
    bytes.set(encoded);
    bytes[encoded.length] = 0;
    return encoded.length;
  };
  return {
    proc_listallpids: (out: unknown, size: number) => {
      const pids = processes(world).map((p) => p.pid);
      if (out === null) return pids.length;
      const view = viewOf(heap, out, Math.min(size, pids.length * 4), "proc_listallpids");
      const fit = Math.min(pids.length, Math.floor(size / 4));
      for (let i = 0; i < fit; i++) view.setInt32(i * 4, pids[i], true);
      return fit;
    },
    proc_name: (pid: number, out: unknown, size: number) => {
      const process = find(pid);
      return process ? writeString(out, size, process.name.slice(0, 32)) : 0;
    },
    proc_pidpath: (pid: number, out: unknown, size: number) => {
      const process = find(pid);
      return process ? writeString(out, size, process.path) : 0;
    },
    proc_pidinfo: (pid: number, flavor: number, _arg: bigint, out: unknown, size: number) => {
      const process = find(pid);
      if (!process || flavor !== 3) return 0;
      if (size < ProcBsdInfo.size) heap.fail(`proc_pidinfo: buffer of ${size} bytes for proc_bsdinfo`);
      const view = viewOf(heap, out, ProcBsdInfo.size, "proc_pidinfo");
      view.setUint32(ProcBsdInfo.status, process.zombie ? 5 : 2, true);
      view.setUint32(ProcBsdInfo.pid, process.pid, true);
      view.setUint32(ProcBsdInfo.ppid, world.parents.get(pid) ?? 1, true);
      view.setUint32(ProcBsdInfo.uid, world.uid, true);
      bytesOf(out).set(new TextEncoder().encode(process.name.slice(0, 15)), ProcBsdInfo.comm);
      view.setBigUint64(ProcBsdInfo.startSec, BigInt(process.start), true);
      view.setBigUint64(ProcBsdInfo.startUsec, 250000n, true);
      return ProcBsdInfo.size;
    },
    dlsym: (handle: Deno.PointerValue, name: unknown) => {
      const address = handle === null ? 0n : BigInt(Deno.UnsafePointer.value(handle));
      if (address !== 0xFFFFFFFFFFFFFFFEn) heap.fail("dlsym: the fake expects RTLD_DEFAULT");
      const object = callbacks[decodeUtf8(bytesOf(name))];
      return object ? heap.pointer(object) : null;
    },
    sysctlbyname: (
      name: unknown,
      out: unknown,
      length: unknown,
      _newp: Deno.PointerValue,
      _newLength: bigint,
    ) => {
      const values: Record<string, string> = {
        "kern.osproductversion": world.productVersion,
        "kern.osversion": "23G93",
        "hw.model": "Mac14,9",
      };
      const value = values[decodeUtf8(bytesOf(name))];
      if (value === undefined) return -1;
      const lengthView = viewOf(heap, length, 8, "sysctlbyname");
      const encoded = new TextEncoder().encode(value + "\0");
      if (out === null) {
        lengthView.setBigUint64(0, BigInt(encoded.length), true);
        return 0;
      }
      if (Number(lengthView.getBigUint64(0, true)) < encoded.length) return -1;
      bytesOf(out).set(encoded);
      lengthView.setBigUint64(0, BigInt(encoded.length), true);
      return 0;
    },
    sysctl: (
      name: unknown,
      length: number,
      out: unknown,
      outLength: unknown,
      _newp: Deno.PointerValue,
      _newLength: bigint,
    ) => {
      const mibView = viewOf(heap, name, length * 4, "sysctl");
      const mib = Array.from({ length }, (_, i) => mibView.getInt32(i * 4, true));
      const lengthView = viewOf(heap, outLength, 8, "sysctl");
      let answer: Uint8Array;
      if (mib[0] === 1 && mib[1] === 8 && length === 2) {
        answer = new Uint8Array(new Int32Array([1_048_576]).buffer); // KERN_ARGMAX
      } else if (mib[0] === 1 && mib[1] === 49 && length === 3) {
        const process = find(mib[2]);
        if (!process) return -1;
        // KERN_PROCARGS2: argc, the executable path, padding, argv, then the environment.
        const argv = [process.path, ...(process.pid === 512 ? ["-NSDocumentRevisionsDebugMode", "YES"] : [])];
        const encoder = new TextEncoder();
        const parts = [
          new Uint8Array(new Int32Array([argv.length]).buffer),
          encoder.encode(process.path + "\0\0\0\0"),
          ...argv.map((arg) => encoder.encode(arg + "\0")),
          encoder.encode("HOME=/Users/ada\0"),
        ];
        answer = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        let at = 0;
        for (const part of parts) {
          answer.set(part, at);
          at += part.length;
        }
      } else return -1;
      if (out === null) {
        lengthView.setBigUint64(0, BigInt(answer.length), true);
        return 0;
      }
      if (Number(lengthView.getBigUint64(0, true)) < answer.length) return -1;
      bytesOf(out).set(answer);
      lengthView.setBigUint64(0, BigInt(answer.length), true);
      return 0;
    },
    clock_gettime_nsec_np: (clock: number) => {
      if (clock !== 6) heap.fail(`clock_gettime_nsec_np: the fake serves CLOCK_MONOTONIC only, not ${clock}`);
      return 86_400_000_000_000n + BigInt(Math.round(performance.now() * 1e6));
    },
    kill: (pid: number, signal: number) => {
      if (signal !== 0 && find(pid)?.zombie === false) return world.kill(pid) ? 0 : -1;
      return find(pid) ? 0 : -1;
    },
    getuid: () => world.uid,
    pthread_main_np: () => world.mainThread ? 1 : 0,
  };
}

/** The AppKit constants (the UTIs macOS uses). */
export function fakeAppKit(constants: CFConstants): { [K in keyof typeof APPKIT_SYMBOLS]?: unknown } {
  const string = (value: string, name: string) =>
    Deno.UnsafePointer.create(constants.string(value, name).address);
  return {
    NSPasteboardTypeString: string("public.utf8-plain-text", "NSPasteboardTypeString"),
    NSPasteboardTypePNG: string("public.png", "NSPasteboardTypePNG"),
    NSPasteboardTypeTIFF: string("public.tiff", "NSPasteboardTypeTIFF"),
    NSPasteboardTypeFileURL: string("public.file-url", "NSPasteboardTypeFileURL"),
    NSWorkspaceLaunchConfigurationArguments: string(
      "NSWorkspaceLaunchConfigurationArguments",
      "NSWorkspaceLaunchConfigurationArguments",
    ),
  };
}

/** CFBundle over the fake Mac's installed bundles. */
export function fakeBundles(
  heap: FakeHeap,
  world: FakeMac,
): Pick<
  { [K in keyof typeof CF_SYMBOLS]?: unknown },
  "CFBundleCreate" | "CFBundleGetIdentifier" | "CFBundleGetValueForInfoDictionaryKey"
> {
  interface BundlePayload {
    held: FakeObject[];
    info: Map<string, FakeObject>;
  }
  return {
    CFBundleCreate: (alloc: Deno.PointerValue, url: Deno.PointerValue) => {
      if (alloc !== null) heap.fail("CFBundleCreate: allocator must be NULL");
      const { path } = heap.deref(url, "CFBundleCreate", ["CFURL"]).value as UrlPayload;
      const bundle = world.bundles.get(path.replace(/\/$/, ""));
      if (!bundle) return null;
      const info = new Map<string, FakeObject>([
        ["CFBundleIdentifier", heap.createHeld("CFString", bundle.bundleId, "CFBundleCreate")],
        ["CFBundleName", heap.createHeld("CFString", bundle.name, "CFBundleCreate")],
        ["CFBundleExecutable", heap.createHeld("CFString", bundle.executable, "CFBundleCreate")],
      ]);
      const payload: BundlePayload = { held: [...info.values()], info };
      return heap.pointer(heap.create("CFBundle", payload, "CFBundleCreate"));
    },
    CFBundleGetIdentifier: (ref: Deno.PointerValue) => {
      const payload = heap.deref(ref, "CFBundleGetIdentifier", ["CFBundle"]).value as BundlePayload;
      return heap.pointer(payload.info.get("CFBundleIdentifier")!);
    },
    CFBundleGetValueForInfoDictionaryKey: (ref: Deno.PointerValue, key: Deno.PointerValue) => {
      const payload = heap.deref(ref, "CFBundleGetValueForInfoDictionaryKey", ["CFBundle"])
        .value as BundlePayload;
      const name = heap.deref(key, "CFBundleGetValueForInfoDictionaryKey", ["CFString"]).value as string;
      const value = payload.info.get(name);
      return value ? heap.pointer(value) : null;
    },
  };
}
