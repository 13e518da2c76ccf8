/**
 * launch_app on Windows: executables start with CreateProcess (through Deno.Command);
 * shortcuts, documents and URLs go through ShellExecuteExW, which returns the process
 * handle when one is created, and so do console programs (which then get a console window).
 * Names resolve against Start-menu shortcuts, App Paths, PATH and the accessories folder.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import { wstr } from "../../../ffi/_c.ts";
import { kernel32 } from "../../../ffi/windows/kernel32.ts";
import { SEE_MASK, shell32, SHELLEXECUTEINFOW } from "../../../ffi/windows/shell32.ts";
import { SW } from "../../../ffi/windows/user32.ts";
import type { LaunchRequest, LaunchResult } from "../../ports/apps.ts";
import { type AppEntry, installedApps } from "./app_entries.ts";
import { isConsoleProgram } from "./pe_image.ts";
import { baseName, processStartTime } from "./processes.ts";

/** Looks like a URL (scheme:…) rather than a path ("C:\\…" has a one-letter scheme). */
export function looksLikeUrl(text: string): boolean {
  return /^[a-z][a-z0-9+.-]+:/i.test(text) && !/^[a-z]:[\\/]/i.test(text);
}

/** Finds `name` (with .exe/.com/.bat appended when it has no extension) on PATH; null when absent. */
export function findOnPath(
  name: string,
  env: (n: string) => string | undefined = (n) => Deno.env.get(n),
): string | null {
  if (/[\\/]/.test(name)) return exists(name) ? name : null;
  const extensions = /\.[a-z0-9]+$/i.test(name) ? [""] : (env("PATHEXT") ?? ".COM;.EXE;.BAT;.CMD").split(";");
  for (const dir of (env("PATH") ?? env("Path") ?? "").split(";").filter(Boolean)) {
    for (const extension of extensions) {
      const candidate = `${dir.replace(/[\\/]$/, "")}\\${name}${extension.toLowerCase()}`;
      if (exists(candidate)) return candidate;
    }
  }
  return null;
}

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Quotes one argument for a Windows command line (CommandLineToArgvW rules). */
export function quoteArgument(argument: string): string {
  if (argument !== "" && !/[\s"]/.test(argument)) return argument;
  return `"${argument.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, "$1$1")}"`;
}

/**
 * ShellExecuteExW "open" of a file, shortcut or URL.
 *
 * @returns the new process id, or null when the shell reused a running process
 * @throws {DriverError} `launch_failed` when the shell refused
 */
export function shellOpen(file: string, parameters: string[] = []): number | null {
  const fileText = wstr(file);
  const verb = wstr("open");
  const params = parameters.length > 0 ? wstr(parameters.map(quoteArgument).join(" ")) : null;
  const info = new Uint8Array(SHELLEXECUTEINFOW.size);
  const view = new DataView(info.buffer);
  view.setUint32(0, SHELLEXECUTEINFOW.size, true);
  view.setUint32(4, SEE_MASK.NOCLOSEPROCESS | SEE_MASK.FLAG_NO_UI | SEE_MASK.NOASYNC, true);
  // UNSAFE: the wide strings stay referenced (and so alive) until the call returns.
  view.setBigUint64(
    SHELLEXECUTEINFOW.verb,
    BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(verb))),
    true,
  );
  view.setBigUint64(
    SHELLEXECUTEINFOW.file,
    BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(fileText))),
    true,
  );
  if (params) {
    view.setBigUint64(
      SHELLEXECUTEINFOW.parameters,
      BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(params))),
      true,
    );
  }
  view.setInt32(SHELLEXECUTEINFOW.show, SW.SHOWNORMAL, true);
  if (!shell32.symbols.ShellExecuteExW(info)) {
    const code = kernel32.symbols.GetLastError();
    throw new DriverError(
      "launch_failed",
      `ShellExecuteEx could not open ${JSON.stringify(file)} (error ${code})`,
      {
        hint: "check the path or URL, and that an app is registered to open it",
        api: "ShellExecuteExW",
        status: code,
      },
    );
  }
  void [fileText, verb, params];
  const process = view.getBigUint64(SHELLEXECUTEINFOW.hProcess, true);
  if (process === 0n) return null;
  const handle = Deno.UnsafePointer.create(process);
  try {
    return kernel32.symbols.GetProcessId(handle) || null;
  } finally {
    kernel32.symbols.CloseHandle(handle);
  }
}

/** Starts an executable detached from the driver; returns its pid. */
function spawnExecutable(path: string, args: string[]): number {
  try {
    const child = new Deno.Command(path, { args, stdin: "null", stdout: "null", stderr: "null" }).spawn();
    child.unref();
    child.status.catch(() => {});
    return child.pid;
  } catch (error) {
    throw new DriverError(
      "launch_failed",
      `Cannot start ${JSON.stringify(path)}: ${(error as Error).message}`,
      {
        hint: "check the executable path; call list_apps for installed apps",
      },
      { cause: error },
    );
  }
}

/**
 * Folders of programs Windows ships outside PATH and App Paths (WordPad, under Wine too), where a
 * bare name is looked for last.
 */
export function accessoryFolders(env: (n: string) => string | undefined = (n) => Deno.env.get(n)): string[] {
  return [env("ProgramFiles"), env("ProgramFiles(x86)"), env("ProgramW6432")]
    .filter((dir): dir is string => !!dir)
    .map((dir) => `${dir.replace(/[\\/]$/, "")}\\Windows NT\\Accessories`);
}

/** Resolves an app name against installed apps, then PATH, then the accessories folders. */
export function resolveApp(
  entries: readonly AppEntry[],
  name: string,
  env: (n: string) => string | undefined = (n) => Deno.env.get(n),
): { path: string; shell: boolean } | null {
  const wanted = name.trim().toLowerCase().replace(/\.exe$/, "");
  const entry = entries.find((e) => e.name.toLowerCase() === wanted) ??
    entries.find((e) => e.key === wanted);
  if (entry) return { path: entry.launchPath, shell: entry.kind === "shortcut" };
  const partial = entries.filter((e) => e.name.toLowerCase().includes(wanted));
  if (partial.length > 1) {
    throw new DriverError("app_not_found", `App name ${JSON.stringify(name)} matches several apps`, {
      hint: "pass one of the candidate names exactly, or a launch_path",
      candidates: partial.map((e) => e.name),
    });
  }
  if (partial.length === 1) return { path: partial[0].launchPath, shell: partial[0].kind === "shortcut" };
  const onPath = findOnPath(name.trim(), env);
  if (onPath) return { path: onPath, shell: false };
  if (/[\\/]/.test(name)) return null;
  const file = /\.exe$/i.test(name.trim()) ? name.trim() : `${name.trim()}.exe`;
  const accessory = accessoryFolders(env).map((dir) => `${dir}\\${file}`).find(exists);
  return accessory ? { path: accessory, shell: false } : null;
}

/** Launches what a request names. */
export async function launch(request: LaunchRequest): Promise<LaunchResult> {
  const args = request.additionalArguments ?? [];
  const urls = request.urls ?? [];
  let target: { path: string; shell: boolean } | null = null;
  if (request.launchPath) {
    const path = request.launchPath;
    if (looksLikeUrl(path)) target = { path, shell: true };
    else if (/\.exe$/i.test(path) && exists(path)) target = { path, shell: false };
    else if (exists(path)) target = { path, shell: true };
    else target = resolveApp(await installedApps(), path);
    if (!target) {
      throw new DriverError("app_not_found", `Nothing to launch at ${JSON.stringify(path)}`, {
        hint: "pass an existing executable, shortcut or document path, or an app name from list_apps",
      });
    }
  } else if (request.name) {
    target = resolveApp(await installedApps(), request.name);
    if (!target) {
      throw new DriverError("app_not_found", `No installed app is called ${JSON.stringify(request.name)}`, {
        hint: "call list_apps for installed app names, or pass launch_path",
      });
    }
  } else if (urls.length === 0) {
    throw new DriverError("invalid_arguments", "launch_app needs launch_path, name or urls", {
      hint: "name the app, its path, or URLs to open",
    });
  }
  if (!target) {
    const pids = urls.map((url) => shellOpen(url));
    const pid = pids.find((p) => p !== null) ?? null;
    return { pid, name: urls[0], startTime: pid ? processStartTime(pid) : null, command: urls.join(" ") };
  }
  const argv = [...args, ...urls];
  // A console program started by the shell gets a console window of its own (CREATE_NEW_CONSOLE);
  // spawned directly it would share the driver's console, or run without one and see end of input.
  const shell = target.shell || isConsoleProgram(target.path);
  const pid = shell ? shellOpen(target.path, argv) : spawnExecutable(target.path, argv);
  return {
    pid,
    name: baseName(target.path).replace(/\.lnk$/i, ""),
    startTime: pid ? processStartTime(pid) : null,
    command: [target.path, ...argv].map(quoteArgument).join(" "),
  };
}
