/**
 * The Windows {@linkcode AppBackend}: processes from a Toolhelp32 snapshot, installed
 * apps from the Start menu and App Paths, launching through CreateProcess or the shell,
 * termination through TerminateProcess.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { AppBackend, AppInfo, LaunchRequest, LaunchResult, ProcessInfo } from "../../ports/apps.ts";
import { installedApps } from "./app_entries.ts";
import { foregroundWindow } from "./input/foreground.ts";
import { launch } from "./launch.ts";
import {
  baseName,
  isProcessAlive,
  processSnapshot,
  processStartTime,
  terminateProcess,
} from "./processes.ts";
import { isAppWindow, topLevelWindows, windowOwner } from "./win32/hwnd.ts";

/** Processes and apps on Windows. */
export class WindowsApps implements AppBackend {
  /**
   * Processes that own an app window, merged with installed apps (matched by executable
   * name); installed apps with no process follow with pid 0.
   */
  async listApps(): Promise<AppInfo[]> {
    const entries = await installedApps();
    const foreground = foregroundWindow();
    const activePid = foreground ? windowOwner(foreground).pid : 0;
    const windowed = new Set(topLevelWindows().filter(isAppWindow).map((w) => windowOwner(w).pid));
    const running = new Set<string>();
    const apps: AppInfo[] = [];
    for (const process of processSnapshot()) {
      if (!windowed.has(process.pid)) continue;
      const key = baseName(process.exeFile).toLowerCase();
      const entry = entries.find((e) => e.key === key || e.name.toLowerCase() === key);
      if (entry) running.add(entry.name);
      apps.push({
        pid: process.pid,
        bundleId: null,
        name: entry?.name ?? baseName(process.exeFile),
        running: true,
        active: process.pid === activePid,
        kind: entry?.kind ?? null,
        launchPath: entry?.launchPath ?? null,
        lastUsed: null,
      });
    }
    for (const entry of entries) {
      if (running.has(entry.name)) continue;
      apps.push({
        pid: 0,
        bundleId: null,
        name: entry.name,
        running: false,
        active: false,
        kind: entry.kind,
        launchPath: entry.launchPath,
        lastUsed: null,
      });
    }
    return apps;
  }

  listProcesses(): Promise<ProcessInfo[]> {
    return Promise.resolve(processSnapshot().map((p) => ({ pid: p.pid, name: baseName(p.exeFile) })));
  }

  launch(request: LaunchRequest): Promise<LaunchResult> {
    return launch(request);
  }

  /**
   * TerminateProcess, then waits (briefly) until the process is gone.
   *
   * @throws {DriverError} `invalid_arguments`, `permission_denied` (the driver itself, a
   *   system process, or one Windows will not let us open), `process_not_found`
   */
  async kill(pid: number): Promise<void> {
    if (!Number.isSafeInteger(pid)) {
      throw new DriverError("invalid_arguments", `Invalid pid ${JSON.stringify(pid)}`, {
        hint: "pass a process id from list_apps",
        field: "pid",
      });
    }
    if (pid <= 4 || pid === Deno.pid) {
      throw new DriverError("permission_denied", `Refusing to kill pid ${pid}`, {
        hint: pid <= 4 ? "pass the pid of an app, not a system process" : "that pid is the driver itself",
      });
    }
    const outcome = terminateProcess(pid);
    if (outcome === "gone") {
      throw new DriverError("process_not_found", `No process has pid ${pid}`, {
        hint: "call list_apps for current pids",
      });
    }
    if (outcome === "denied") {
      throw new DriverError("permission_denied", `Windows does not let the driver terminate pid ${pid}`, {
        hint: "the process runs as another user or at a higher integrity level",
      });
    }
    const deadline = performance.now() + 2_000;
    while (isProcessAlive(pid) && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  isAlive(pid: number): Promise<boolean> {
    return Promise.resolve(isProcessAlive(pid));
  }

  startTime(pid: number): Promise<string | null> {
    return Promise.resolve(processStartTime(pid));
  }
}
